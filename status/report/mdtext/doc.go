// Package mdtext makes untrusted text safe inside Markdown: tutorial quotes,
// command output and the learner's words become prose, table cells, inline
// code and fenced blocks that nothing inside can break out of, with terminal
// control sequences stripped. The report renderers use it.
package mdtext
