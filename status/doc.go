// Package status holds the API types of what the controller observed and
// did: the Run object kept in the state file (the seed's LoopState plus
// Kubernetes-style conditions), gaps and their categories, the audit trail
// and cost. The state store is status/store, the controller-wrapper protocol
// status/wire, and the reports rendered from a finished run status/report.
package status
