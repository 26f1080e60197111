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
// It also holds what is read from the page rather than from a run: the
// prerequisites the prose names, how shown output is matched against what a
// command printed (ellipses, volatile values, listings), and which shell
// variables a command uses before anything sets them. It runs nothing.
package reading
