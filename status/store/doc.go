// Package store keeps a run's status on disk: the state file written
// atomically, the lock that lets one loop own a run (E18), the registry of
// applied runs (.smile/applied) and the folder controller's info file. The
// wrapper never touches it: only the controller and the CLI do.
package store
