// Package wire is the protocol between the controller and the in-container
// wrapper: where things are mounted, the wrapper's environment, the task file,
// the callback paths and the bodies posted to them. Both sides import it, and
// it imports only the API types (status) and the settings (spec), so the
// wrapper links nothing of the controller.
package wire
