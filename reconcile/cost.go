package reconcile

import (
	"github.com/smile-loop/smile/spec"
)

// keyEnv is NAME=value of each of the provider's keys (spec's provider
// table) set in the controller's environment. The value goes only into the
// container's environment, never into task.json, the status or logs.
func (r *Reconciler) keyEnv(cfg spec.Config) []string {
	if r.LookupEnv == nil {
		return nil
	}
	var out []string
	for _, name := range cfg.KeyVariables() {
		if v, ok := r.LookupEnv(name); ok && v != "" {
			out = append(out, name+"="+v)
		}
	}
	return out
}
