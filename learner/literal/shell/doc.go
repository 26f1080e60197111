// Package shell reads a command line as bash would, without running it: the
// program it starts (CommandName) and the variables it uses before anything
// sets them (UndefinedVariables).
package shell
