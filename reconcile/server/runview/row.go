package runview

import (
	"time"

	"github.com/smile-loop/smile/status"
)

// Row is one run in the dashboard's index: what `smile get` shows of it.
type Row struct {
	Name     string        `json:"name"`
	Phase    status.Phase  `json:"phase"` // "" until the run is first saved
	Terminal bool          `json:"terminal"`
	Reason   status.Reason `json:"reason,omitempty"`
	Message  string        `json:"message,omitempty"`
	// Result is what the run means for its tutorial, as `smile get`'s
	// RESULT: Passed, GapsFound, Inconclusive or why the loop ended
	// (Stopped, Blocker...); "running" until it ends.
	Result     string `json:"result"`
	Iteration  int    `json:"iteration"`
	Generation int64  `json:"generation"`
	// Coverage is "exercised/blocks on the path" ("-" when unknown),
	// CoveragePercent its share (-1 when unknown).
	Coverage        string `json:"coverage"`
	CoveragePercent int    `json:"coveragePercent"`
	Gaps            int    `json:"gaps"`
	// CreatedAt is when the run was first applied: its age.
	CreatedAt  time.Time  `json:"createdAt"`
	UpdatedAt  time.Time  `json:"updatedAt"`
	FinishedAt *time.Time `json:"finishedAt,omitempty"`
	// Error is the last reconcile's failure, if any.
	Error string `json:"error,omitempty"`
}

// RowOf is a run's row; run nil is a run applied but not yet saved.
func RowOf(name string, run *status.Run) Row {
	r := Row{Name: name, Result: "running", Coverage: "-", CoveragePercent: -1}
	if run == nil {
		return r
	}
	st := &run.Status
	r.Phase, r.Terminal, r.Reason, r.Message = st.Phase, st.Phase.Terminal(), st.Reason, st.Message
	if r.Terminal {
		r.Result = result(st)
	}
	r.Iteration, r.Generation, r.Gaps = st.Iteration, run.Metadata.Generation, len(st.Gaps)
	if c := st.RunCoverage(); c != nil {
		r.Coverage, r.CoveragePercent = c.Cell(), c.Percent()
	}
	r.CreatedAt = run.Metadata.CreationTimestamp
	if r.CreatedAt.IsZero() {
		r.CreatedAt = st.StartedAt
	}
	r.UpdatedAt, r.FinishedAt = st.UpdatedAt, st.FinishedAt
	return r
}

// result reads the Succeeded condition as `smile get` does; a status saved
// without conditions says its phase.
func result(st *status.Status) string {
	c := st.Condition(status.ConditionSucceeded)
	switch {
	case c == nil:
		return string(st.Phase)
	case c.Status == status.ConditionTrue:
		return "Passed"
	case c.Reason != "":
		return string(c.Reason)
	}
	return string(st.Phase)
}
