// Package agent is what the model-backed providers (claude, codex, gemini,
// openai) share: a Runner that plays the Student and the Mentor with any
// Backend. It builds the prompt, invokes the model with a per-invocation
// timeout (E13) while posting heartbeats, retries rate limits and network
// failures with capped exponential backoff (E11), reads the answer with the
// recovery parser and asks the model to repair it twice before giving up
// (E12, E20), places every finding on the tutorial's lines by its quote, and
// records each model call's tokens and cost in the audit.
package agent
