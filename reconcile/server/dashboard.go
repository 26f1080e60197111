package server

import (
	"embed"
	"io/fs"
	"net/http"
	"path/filepath"
	"strings"

	"github.com/smile-loop/smile/learner/literal/explain"
	"github.com/smile-loop/smile/learner/literal/fence"
	"github.com/smile-loop/smile/learner/literal/reading"
	"github.com/smile-loop/smile/reconcile/server/runview"
)

// dashboardFiles is the dashboard page: plain HTML, CSS and JavaScript,
// embedded so the controller serves it offline with nothing to install.
//
//go:embed dashboard/index.html dashboard/run.html dashboard/dashboard.css dashboard/index.js dashboard/run.js dashboard/common.js
var dashboardFiles embed.FS

// dashboardCSP lets the page load only its own files and open its own
// WebSocket; no inline script, no other site, no framing.
const dashboardCSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; " +
	"base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// TutorialResponse is the body of GET /api/tutorial: the run's tutorial as
// written, and rendered from Markdown for the run page.
type TutorialResponse struct {
	Name string `json:"name"`
	// Path is the tutorial's path relative to the manifest's folder.
	Path string `json:"path"`
	// LineCount is the number of lines, as gap line numbers count them.
	LineCount int    `json:"lineCount"`
	Content   string `json:"content"`
	// HTML is the tutorial rendered (runview.Render: no raw HTML, every
	// block with its source lines).
	HTML string `json:"html"`
	// Reading is how the literal Student reads every block of the page,
	// what `smile plan` prints (explain.Describe): the dashboard shows it
	// beside each block, so an author sees why a block was run, written,
	// compared or skipped before and after a run.
	Reading []explain.Reading `json:"reading"`
}

// dashboard adds the pages (GET /: the index of runs; GET /run?name=: one
// run), their files, and the data they read: GET /api/runs, /api/view,
// /api/tutorial and /api/report.
func (o *observers) dashboard(mux *http.ServeMux) {
	mux.Handle("GET /{$}", sameHostOnly(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		serveDashboardFile(w, r, "index.html")
	})))
	mux.Handle("GET /run", sameHostOnly(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		serveDashboardFile(w, r, "run.html")
	})))
	mux.Handle("GET /api/runs", sameHostOnly(http.HandlerFunc(o.runs)))
	mux.Handle("GET /api/view", sameHostOnly(http.HandlerFunc(o.view)))
	mux.Handle("GET /dashboard/{file}", sameHostOnly(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		serveDashboardFile(w, r, r.PathValue("file"))
	})))
	mux.Handle("GET /api/tutorial", sameHostOnly(http.HandlerFunc(o.tutorial)))
	mux.Handle("GET /api/report", sameHostOnly(http.HandlerFunc(o.report)))
}

func serveDashboardFile(w http.ResponseWriter, r *http.Request, name string) {
	if strings.Contains(name, "/") || name == "" {
		http.NotFound(w, r)
		return
	}
	if _, err := fs.Stat(dashboardFiles, "dashboard/"+name); err != nil {
		http.NotFound(w, r)
		return
	}
	h := w.Header()
	h.Set("Content-Security-Policy", dashboardCSP)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cache-Control", "no-cache")
	http.ServeFileFS(w, r, dashboardFiles, "dashboard/"+name)
}

// tutorial serves the run's tutorial (?name=, default the only run) as the
// controller reads it now.
func (o *observers) tutorial(w http.ResponseWriter, r *http.Request) {
	name, ok := o.s.pickRun(w, r)
	if !ok {
		return
	}
	d, err := o.s.b.Desired(name)
	if err != nil {
		writeRunError(w, err)
		return
	}
	content := d.Tutorial.Content
	page, err := runview.Render(content)
	if err != nil {
		writeError(w, http.StatusInternalServerError, err.Error())
		return
	}
	steps, _, _ := fence.Read(d.Tutorial, reading.Options{})
	writeJSONResponse(w, http.StatusOK, TutorialResponse{
		Name: name, Path: relPath(d.Dir, d.Paths.Tutorial), LineCount: lineCount(content), Content: content, HTML: page.HTML,
		Reading: explain.Describe(steps),
	})
}

// lineCount counts lines the way tutorial line numbers do: a final newline
// ends the last line rather than starting another.
func lineCount(s string) int {
	if s == "" {
		return 0
	}
	n := strings.Count(s, "\n")
	if !strings.HasSuffix(s, "\n") {
		n++
	}
	return n
}

// relPath is p relative to dir when it is inside it, else p.
func relPath(dir, p string) string {
	if rel, err := filepath.Rel(dir, p); err == nil && !strings.HasPrefix(rel, "..") {
		return rel
	}
	return p
}
