// Package wrappers is everything that runs inside a Student or Mentor
// container: Main reads the task, runs the role with its provider, writes
// the result to the logs folder and posts it to the controller.
//
// Subpackages: provider (the Provider interface), literal (the built-in
// provider), session (the shell session tutorial commands run in) and
// callback (the client for the controller's callback API).
package wrappers
