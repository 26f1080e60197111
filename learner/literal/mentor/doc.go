// Package mentor is the literal provider's rule-based Mentor (Answer) and the
// diagnosis it shares with the Student.
//
// The diagnosis decides why a command failed (Classify: a missing command or
// file, a permission, an undefined variable, a timeout), whether the cause is
// the container rather than the tutorial (no Docker daemon, no systemd, a
// slim image without apt's lists, a desktop's home folders, a program older
// than the page expects), and words the finding (Problem, SuggestedFix,
// Question). The Student classifies with it before it asks.
//
// The Mentor answers a finding with an explanation and, where it knows one, a
// workaround the Student replays: the package that provides a missing
// command (looked up in the container's package manager, with Heartbeat
// progress while it waits), a file the tutorial shows but never saves, a
// near match for a misspelt name, a hint the tutorial gives. A workaround
// that did not help is not offered again.
package mentor
