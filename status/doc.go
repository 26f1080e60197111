// Package status holds what the controller observed and did: the Run object
// kept in the state file (the seed's LoopState plus Kubernetes-style
// conditions), the protocol the containers speak to the controller, and the
// state-file Store (atomic writes, one lock per loop). The reports rendered
// from a finished run are in status/report.
package status
