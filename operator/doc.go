// Package operator is the work of SMILE's Kubernetes operator (issue 22)
// that does not depend on the API server: today, PlayStudent, which plays a
// run's literal Student in this process against a container of any runtime
// (a Pod through runtime/kube, or a Docker container), the container being
// only its hands. The controller-runtime host (cmd/smile-operator, SmileRun
// status as the crash-resume state) is not built yet: docs/kubernetes.md
// says what is.
package operator
