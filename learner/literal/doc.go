// Package literal is the `literal` provider: a Student that follows the
// tutorial exactly as written, with no model, no network and no outside
// knowledge, and a rule-based Mentor that explains its failures and, where it
// knows one, gives a workaround the Student replays in the next iteration.
//
// The Student turns the tutorial into steps (reading.Plan), reading the prose around
// each block as a person would: the file a block goes to (named in the info
// string, a caption, an HTML wrapper, a sentence before or after it, or a
// rule stated once for a section), commands to run in one shell session,
// input typed into a program that waits for it, output to compare (loosely
// when the tutorial says "something like"), servers to leave running, and
// blocks that are not the path (another platform, another tab, an
// alternative, a demonstration, a syntax template). It runs the steps in
// order in the container. The reading is package reading; the Mentor and
// the diagnosis the Student shares with it are package mentor.
//
// Evidence comes before accusation: a block the Student skips is listed with
// the reason, never reported, unless a later step fails for want of it. Only
// failures that stop progress (a command that failed, a missing file or
// command) go to the Mentor; an output difference is recorded and the
// Student goes on. A failure that stops progress stops only the steps that
// depend on it (package depend): they are listed as not reached, with the
// failed line, and every other step still runs, so one run finds every gap
// it can; the Mentor is asked about the first such failure at the end.
package literal
