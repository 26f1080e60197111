// Package depend says which planned steps of a page depend on which, from
// what each step does rather than from the words of a page: a step that
// reads, runs or enters a path depends on the step that wrote it (or, when
// no step writes it, on the first step that used it: that step found out
// whether it is there); every step depends on the latest step that changed
// the session's folder or sourced a file into it; a command using a
// variable depends on the step that set it, a call of a function or alias on
// the step that defined it, a program on the step that installed it, a
// request to a local server on the step that started the server, and an
// output block on the command whose output it shows.
//
// The Student uses it to go on after a failure: a step whose dependency
// failed (or was itself not reached) is "not reached", with the failed
// step's line as its cause (Tracker); every other step still runs, so one
// run finds every gap it can. It runs nothing and knows no page.
package depend
