// Package callback is the wrapper's client for the controller's callback API:
// progress heartbeats and the final result, with retries for the result.
package callback
