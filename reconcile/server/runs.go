package server

import (
	"net/http"
	"slices"
	"strings"
	"sync"

	"github.com/smile-loop/smile/reconcile/server/runview"
	"github.com/smile-loop/smile/status"
)

// RunsResponse is the body of GET /api/runs: the dashboard's index.
type RunsResponse struct {
	Runs []runview.Row `json:"runs"`
}

// ViewResponse is the body of GET /api/view: what the run page shows beside
// the tutorial.
type ViewResponse struct {
	Name string `json:"name"`
	// Steps are the tutorial's code blocks with their marks and durations.
	Steps []runview.Step `json:"steps"`
	// Exchanges are the Student's questions paired with the Mentor's notes.
	Exchanges []ExchangeView `json:"exchanges"`
	// Coverage says in words what the Student exercised ("" when unknown).
	Coverage string `json:"coverage,omitempty"`
	// CurrentLine is the line the attempt at work last reported.
	CurrentLine int `json:"currentLine,omitempty"`
}

// ExchangeView is an exchange with its answer rendered from Markdown,
// safely (no raw HTML).
type ExchangeView struct {
	runview.Exchange
	AnswerHTML string `json:"answerHtml,omitempty"`
}

// rows is the index: every applied run's row, by name.
func (s *Server) rows() []runview.Row {
	names := s.b.Names()
	slices.Sort(names)
	rows := make([]runview.Row, 0, len(names))
	for _, name := range names {
		rows = append(rows, s.row(name))
	}
	return rows
}

// row is one run's row, with its last reconcile's error.
func (s *Server) row(name string) runview.Row {
	run, _ := s.b.Run(name)
	r := runview.RowOf(name, run)
	if err := s.b.LastError(name); err != nil {
		r.Error = err.Error()
	}
	return r
}

func (o *observers) runs(w http.ResponseWriter, _ *http.Request) {
	writeJSONResponse(w, http.StatusOK, RunsResponse{Runs: o.s.rows()})
}

// view serves GET /api/view (?name=, default the only run).
func (o *observers) view(w http.ResponseWriter, r *http.Request) {
	name, ok := o.s.pickRun(w, r)
	if !ok {
		return
	}
	run, err := o.s.b.Run(name)
	if err != nil {
		writeRunError(w, err)
		return
	}
	writeJSONResponse(w, http.StatusOK, viewOf(o.s.b, name, run))
}

// viewOf is what the run page shows of run beside the tutorial.
func viewOf(b Runs, name string, run *status.Run) ViewResponse {
	st := &run.Status
	in := runview.StepsInput{Status: st}
	if d, err := b.Desired(name); err == nil && d.Tutorial != nil {
		if page, err := runview.Render(d.Tutorial.Content); err == nil {
			in.Blocks = page.Blocks
		}
	}
	in.Audits, _ = b.Audits(name)
	if a := st.Attempt; a != nil && !st.Phase.Terminal() {
		if p, err := b.Progress(name, a.Container); err == nil && p != nil {
			in.CurrentLine = p.Line
		}
	}
	out := ViewResponse{Name: name, Steps: runview.Steps(in), Exchanges: []ExchangeView{}, CurrentLine: in.CurrentLine}
	if out.Steps == nil {
		out.Steps = []runview.Step{}
	}
	for _, e := range runview.Exchanges(st) {
		out.Exchanges = append(out.Exchanges, ExchangeView{Exchange: e, AnswerHTML: notesHTML(strings.TrimSpace(e.Answer))})
	}
	if c := st.RunCoverage(); c != nil {
		out.Coverage = c.Sentence()
	}
	return out
}

// viewCache keeps the view of each run's end: every connection sends it
// with the phase event of that transition, and it is made once (a hundred
// observers must not each resolve the run's inputs and read its audits).
type viewCache struct {
	mu   sync.Mutex
	last map[string]cachedView
}

type cachedView struct {
	run  *status.Run
	view *ViewResponse
}

// of is the view of run, the status a transition saved.
func (c *viewCache) of(b Runs, name string, run *status.Run) *ViewResponse {
	c.mu.Lock()
	defer c.mu.Unlock()
	if v, ok := c.last[name]; ok && v.run == run {
		return v.view
	}
	v := viewOf(b, name, run)
	if c.last == nil {
		c.last = map[string]cachedView{}
	}
	c.last[name] = cachedView{run: run, view: &v}
	return &v
}
