// Package spec holds what the user asks for: the smile.json Config, the SmileRun
// manifest that may override it, and the Tutorial they point at (loaded,
// validated and parsed into blocks that keep their exact line numbers).
//
// Nothing here talks to Docker or writes files; the controller and the wrapper
// both import it.
package spec
