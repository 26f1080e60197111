// Package operator is the work of SMILE's Kubernetes operator (issue 22,
// first slice), hosted by cmd/smile-operator on controller-runtime.
//
// Reconciler reconciles SmileRuns with their status in the API as the only
// state (the crash-resume state): a new generation is started (phase
// RunningStudent, its attempt named), the attempt played in the background,
// and its end written back (Completed, or Blocker where the Student stopped:
// the Mentor and further iterations do not run here yet), with conditions,
// observedGeneration and Events. A run's files come from the ConfigMap its
// smile.dev/configmap annotation names. An operator that finds a run
// RunningStudent that it did not start plays the attempt again from the
// top: Pods keep no checkpoints.
//
// PlayStudent plays a run's in-process learner (literal) from this process
// against a hands-only container of any runtime (a Pod through
// runtime/kube, or a Docker container), as reconcile's brains do.
package operator
