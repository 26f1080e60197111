// Package markdown reads a tutorial's Markdown into the blocks the learners
// follow, each with the exact lines it spans: headings, paragraphs, HTML and
// code, where code is every form pages carry it in (fences at any indent,
// indented blocks, HTML <pre>, MDX <CodeBlock>, Hugo and Liquid highlight
// tags, MyST directives), with its language and the content tab it sits in;
// and the images the page references. It is goldmark underneath, and knows
// nothing of SMILE's settings or runs (spec loads a tutorial with it).
package markdown
