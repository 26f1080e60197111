// Package wrappers is the in-container entry point of smile-wrapper: Main
// reads the task, plays the role with the learner the task names
// (learner.For, learner.SafePlay), writes the result to the logs folder and
// posts it to the controller; the hands-serve, hands-exec and idle
// sub-commands every container runs for an in-process learner.
//
// The learners themselves live under learner/: provider (the Provider
// interface), literal (the built-in learner), claude, codex, gemini and
// openai (the model-backed ones), agent, prompt, recovery, session and
// callback.
package wrappers
