// Package status holds the API types of what the controller observed and
// did: the Run object kept in the state file (the seed's LoopState plus
// Kubernetes-style conditions), gaps and their categories, the audit trail
// and cost, and the state-file Store (atomic writes, one lock per loop). The
// controller-wrapper protocol is in status/wire; the reports rendered from a
// finished run are in status/report.
package status
