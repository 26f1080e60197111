// Package expect matches the output a tutorial shows against what a command
// printed, as a reader compares them: ellipses stand for any lines, values
// that differ on every run (dates, ids, sizes, paths) are masked, a listing
// matches in any order and layout, a program's help matches its own options,
// and "something like" output is compared tolerantly. It runs nothing.
package expect
