package report

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/smile-loop/smile/status/report/mdtext"

	"github.com/smile-loop/smile/status"

	"github.com/yuin/goldmark/ast"
	extast "github.com/yuin/goldmark/extension/ast"
)

// summaryParts is a rendered job summary as a reader sees it.
type summaryParts struct {
	title       string
	badges      []string
	rows        [][]string
	suggestions []string // "lang: code" of every fenced block
	recs        []string
	h3          []string
}

func readSummary(t *testing.T, src []byte) (*mdDoc, summaryParts) {
	t.Helper()
	d := parseMD(t, src)
	var p summaryParts
	if h := d.levels(2); len(h) == 1 {
		p.title = h[0]
	} else {
		t.Errorf("H2 = %q, want one title", h)
	}
	p.h3 = d.levels(3)
	for n := d.root.FirstChild(); n != nil; n = n.NextSibling() {
		switch n := n.(type) {
		case *ast.Paragraph:
			if p.badges == nil {
				for c := n.FirstChild(); c != nil; c = c.NextSibling() {
					if c.Kind() == ast.KindCodeSpan {
						p.badges = append(p.badges, d.text(c))
					}
				}
			}
		case *extast.Table:
			for r := n.FirstChild(); r != nil; r = r.NextSibling() {
				var cells []string
				for c := r.FirstChild(); c != nil; c = c.NextSibling() {
					cells = append(cells, d.text(c))
				}
				p.rows = append(p.rows, cells)
			}
		case *ast.FencedCodeBlock:
			p.suggestions = append(p.suggestions, string(n.Language(d.src))+": "+codeText(d, n))
		case *ast.List:
			for it := n.FirstChild(); it != nil; it = it.NextSibling() {
				p.recs = append(p.recs, d.text(it))
			}
		}
	}
	return d, p
}

func TestSummary(t *testing.T) {
	in := sampleInput()
	in.SourcePath = "examples/quickstart/tutorial.md"
	in.BlobURL = GitHubBlobURL(func(k string) string {
		return map[string]string{"GITHUB_SERVER_URL": "https://github.com", "GITHUB_REPOSITORY": "octo/docs", "GITHUB_SHA": "abc123"}[k]
	})
	r := BuildReport(sampleRun(), in)
	d, p := readSummary(t, RenderSummary(r))

	if p.title != "SMILE: Quickstart: Hello SMILE" {
		t.Errorf("title = %q", p.title)
	}
	wantBadges := []string{"status: blocker", "iterations: 2", "gaps: 4", "critical: 1", "major: 2", "minor: 1", "duration: 1m12s"}
	if !slices.Equal(p.badges, wantBadges) {
		t.Errorf("badges = %q, want %q", p.badges, wantBadges)
	}
	wantRows := [][]string{{"Severity", "Line", "Gap"}}
	for _, g := range r.Gaps {
		wantRows = append(wantRows, []string{string(g.Severity), fmt.Sprint(g.Location.LineNumber), g.Title})
	}
	if fmt.Sprint(p.rows) != fmt.Sprint(wantRows) {
		t.Errorf("table = %q, want %q", p.rows, wantRows)
	}
	blob := "https://github.com/octo/docs/blob/abc123/examples/quickstart/tutorial.md"
	wantLinks := []string{blob, blob + "#L12", blob + "#L14", blob + "#L20", blob + "#L30", blob + "#L12", blob + "#L30"}
	if got := d.links(); !slices.Equal(got, wantLinks) {
		t.Errorf("links = %q, want %q", got, wantLinks)
	}
	wantBlocks := []string{"suggestion: apt-get update && apt-get install -y jq\njq .name data.json", "suggestion: chmod +x run.sh\n./run.sh"}
	if !slices.Equal(p.suggestions, wantBlocks) {
		t.Errorf("code blocks = %q, want %q", p.suggestions, wantBlocks)
	}
	if !slices.Equal(p.h3, []string{"Suggested changes", "Recommendations"}) {
		t.Errorf("H3 = %q", p.h3)
	}
	if len(p.recs) != len(r.Recommendations) || p.recs[0] != r.Recommendations[0].Description {
		t.Errorf("recommendations = %q", p.recs)
	}
	if n := len(strings.Split(string(RenderSummary(r)), "\n")); n > 60 {
		t.Errorf("summary is %d lines long; it is meant to be short", n)
	}
}

func TestSummaryWithoutGaps(t *testing.T) {
	r := BuildReport(&status.Run{Status: status.Status{Phase: status.PhaseCompleted, Iteration: 1}}, ReportInput{TutorialPath: "t.md", Now: t0})
	src := RenderSummary(r)
	d, p := readSummary(t, src)
	if len(p.rows) != 0 || len(p.suggestions) != 0 || len(p.h3) != 0 {
		t.Errorf("summary of a clean run has tables %q, blocks %q, sections %q", p.rows, p.suggestions, p.h3)
	}
	if !strings.Contains(string(src), "No gaps found.") || p.badges[0] != "status: completed" {
		t.Errorf("summary:\n%s", src)
	}
	if got := d.links(); !slices.Equal(got, []string{"t.md"}) {
		t.Errorf("links = %q, want the tutorial, relative to the repository", got)
	}
}

func TestSummaryHostileText(t *testing.T) {
	for i, h := range hostile {
		t.Run(fmt.Sprintf("%02d", i), func(t *testing.T) {
			r := hostileReport(h)
			d, p := readSummary(t, RenderSummary(r))
			flat := mdtext.Flatten(h)
			if p.title != "SMILE: "+strings.Join(strings.Fields(flat), " ") {
				t.Errorf("title = %q", p.title)
			}
			if len(p.rows) != 2 || !slices.Equal(p.rows[1], []string{"major", "3", flat}) {
				t.Errorf("table = %q, want one row with the title verbatim", p.rows)
			}
			if len(d.levels(4)) != 0 || len(d.rawHTML()) != 0 {
				t.Errorf("hostile text made structure: H4 %q, HTML %q", d.levels(4), d.rawHTML())
			}
			for _, l := range d.links() {
				if l != "tutorial.md" && l != "tutorial.md#L3" {
					t.Errorf("hostile text made a link to %q", l)
				}
			}
		})
	}
}
