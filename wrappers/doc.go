// Package wrappers is everything that runs inside a Student or Mentor
// container: Main reads the task, runs the role with its provider, writes
// the result to the logs folder and posts it to the controller.
//
// Subpackages: provider (the Provider interface), literal (the built-in
// provider), claude, codex, gemini and openai (the model-backed providers),
// agent (what those share: the runner, retries, heartbeats, cost, placing
// findings on the tutorial's lines), prompt (the Student's and Mentor's
// prompts), recovery (reading a model's JSON answer), session (the shell
// session commands run in) and callback (the client for the controller's
// callback API).
package wrappers
