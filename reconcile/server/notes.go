package server

import (
	"bytes"
	"net/http"
	"os"
	"strings"

	"github.com/yuin/goldmark"

	"github.com/smile-loop/smile/status"
)

// markdown renders untrusted Markdown (a Mentor's notes) for the dashboard.
// goldmark's default renderer is the safe one: raw HTML is left out and
// dangerous links (javascript:, vbscript:, file:, data: other than images)
// are dropped, so what a model wrote can only be text, links and formatting.
var markdown = goldmark.New()

// notesHTML renders a Mentor's notes; on the unlikely error the page shows
// them as text.
func notesHTML(notes string) string {
	var buf bytes.Buffer
	if err := markdown.Convert([]byte(notes), &buf); err != nil {
		return ""
	}
	return buf.String()
}

// reportFiles are the report files of a finished run the dashboard links,
// by the name GET /api/report?file= takes, with their content type.
var reportFiles = map[string]string{
	"markdown": "text/plain; charset=utf-8", // shown, not downloaded
	"json":     "application/json",
	"audit":    "text/plain; charset=utf-8",
}

// report serves one report file of a finished run (?name=, default the only
// run; ?file=markdown|json|audit): only the files its status names, as text
// the browser shows and never runs.
func (o *observers) report(w http.ResponseWriter, r *http.Request) {
	name, ok := o.s.pickRun(w, r)
	if !ok {
		return
	}
	run, err := o.s.b.Run(name)
	if err != nil {
		writeRunError(w, err)
		return
	}
	kind := r.URL.Query().Get("file")
	ctype, known := reportFiles[kind]
	if !known {
		writeError(w, http.StatusBadRequest, "file must be markdown, json or audit")
		return
	}
	path := ""
	if rep := run.Status.Report; rep != nil {
		path = map[string]string{"markdown": rep.Markdown, "json": rep.JSON, "audit": rep.AuditLog}[kind]
	}
	data, err := os.ReadFile(path)
	if path == "" || err != nil {
		writeError(w, http.StatusNotFound, "run "+name+" has no "+kind+" report yet")
		return
	}
	h := w.Header()
	h.Set("Content-Type", ctype)
	h.Set("Content-Security-Policy", "default-src 'none'; sandbox")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(data)
}

// mentorNotesHTML renders every note of a snapshot, in order.
func mentorNotesHTML(notes []status.MentorNote) []string {
	out := make([]string, 0, len(notes))
	for _, n := range notes {
		out = append(out, notesHTML(strings.TrimSpace(n.Answer)))
	}
	return out
}
