// Package reading is the literal Student's reader: it turns a tutorial's
// Markdown into the steps a careful reader would take (Plan), reading the
// prose around each block as a person would: the file a block goes to (named
// in the info string, a caption, an HTML wrapper, a sentence before or after
// it, or a rule stated once for a section), commands to run in one shell
// session, input typed into a program that waits for it, output to compare
// (loosely when the tutorial says "something like"), servers to leave
// running, and blocks that are not the path (another platform, another tab,
// an alternative, a demonstration, a syntax template).
//
// An author's annotation (spec.Annotation) decides a block before any of
// this, or changes how its steps run (annotate.go). Describe says the same steps for the page's author (`smile plan`). It runs
// nothing. The stages it leans on are packages of their own:
// codelang (a block's language), prose (sentences), prereq (the
// prerequisites the prose names), expect (shown output against printed
// output), shell (a command line's program and the variables it uses),
// transcript (prompts, transcripts, and the programs a page types into) and
// blockshape (where a block's commands end and their output begins).
// Each step carries the evidence of the rules that read it (package rule).
package reading
