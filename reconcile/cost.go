package reconcile

import (
	"github.com/smile-loop/smile/reconcile/planner"
	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/status"
)

// RecordCost adds a just-received result to the run's cost, in the same
// save that records the result: status.cost is always the total of the
// history (the planner's budget check reads it).
func RecordCost(st *status.Status, p *planner.Posted) {
	if p == nil {
		return
	}
	var a *status.Audit
	switch {
	case p.Student != nil:
		a = p.Student.Audit
	case p.Mentor != nil:
		a = p.Mentor.Audit
	}
	if a != nil {
		st.AddCost(a.LLMCalls)
	}
}

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
