// Package reconcile is SMILE's controller: a Reconciler that moves one
// SmileRun through the loop one transition per call (deciding with the pure
// planner in Decide), a work queue, the event sources that feed it, and the
// HTTP API the containers and the CLI call.
//
// Nothing here assumes Docker: containers are reached through the runtime
// interface, so a Pod runtime can replace the Docker one.
package reconcile
