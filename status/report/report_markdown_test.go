package report

import (
	"bytes"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/smile-loop/smile/internal/textutil"

	"github.com/smile-loop/smile/status/report/mdtext"

	"github.com/smile-loop/smile/status"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	extast "github.com/yuin/goldmark/extension/ast"
	gmhtml "github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// gfm reads reports as GitHub does (tables, strikethrough, autolinks) and
// renders raw HTML, so injected HTML would show.
var gfm = goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithRendererOptions(gmhtml.WithUnsafe()))

// mdDoc is a parsed report, cut into sections by its headings.
type mdDoc struct {
	t        *testing.T
	src      []byte
	root     ast.Node
	headings []heading
	// blocks[h2] are the top-level blocks under a second-level heading
	// (including its third-level headings).
	blocks map[string][]ast.Node
}

type heading struct {
	level int
	text  string
}

func parseMD(t *testing.T, src []byte) *mdDoc {
	t.Helper()
	d := &mdDoc{t: t, src: src, root: gfm.Parser().Parse(text.NewReader(src)), blocks: map[string][]ast.Node{}}
	h2 := ""
	for n := d.root.FirstChild(); n != nil; n = n.NextSibling() {
		if h, ok := n.(*ast.Heading); ok {
			d.headings = append(d.headings, heading{h.Level, d.text(h)})
			if h.Level <= 2 {
				h2 = d.text(h)
				continue
			}
		}
		d.blocks[h2] = append(d.blocks[h2], n)
	}
	return d
}

var tag = regexp.MustCompile(`<[^>]*>`)

// text is what a reader sees of a node: its HTML without tags.
func (d *mdDoc) text(n ast.Node) string {
	var buf bytes.Buffer
	if err := gfm.Renderer().Render(&buf, d.src, n); err != nil {
		d.t.Fatal(err)
	}
	return strings.TrimSpace(html.UnescapeString(tag.ReplaceAllString(buf.String(), "")))
}

func (d *mdDoc) levels(level int) []string {
	var out []string
	for _, h := range d.headings {
		if h.level == level {
			out = append(out, h.text)
		}
	}
	return out
}

// tables are the tables in a section, as rows of cell texts (header first).
func (d *mdDoc) tables(section string) [][][]string {
	var out [][][]string
	for _, n := range d.blocks[section] {
		tbl, ok := n.(*extast.Table)
		if !ok {
			continue
		}
		var rows [][]string
		for r := tbl.FirstChild(); r != nil; r = r.NextSibling() {
			var cells []string
			for c := r.FirstChild(); c != nil; c = c.NextSibling() {
				cells = append(cells, d.text(c))
			}
			rows = append(rows, cells)
		}
		out = append(out, rows)
	}
	return out
}

// gapLists are the lists right under each gap's heading, as item texts.
func (d *mdDoc) gapLists() [][]string {
	var out [][]string
	var prev ast.Node
	for _, n := range d.blocks["Gaps Identified"] {
		if l, ok := n.(*ast.List); ok && prev != nil && prev.Kind() == ast.KindHeading {
			var items []string
			for it := l.FirstChild(); it != nil; it = it.NextSibling() {
				items = append(items, d.text(it))
			}
			out = append(out, items)
		}
		prev = n
	}
	return out
}

func (d *mdDoc) links() []string {
	var out []string
	_ = ast.Walk(d.root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if l, ok := n.(*ast.Link); ok && entering {
			out = append(out, string(util.UnescapePunctuations(l.Destination)))
		}
		return ast.WalkContinue, nil
	})
	return out
}

// rawHTML is every piece of raw HTML in the document.
func (d *mdDoc) rawHTML() []string {
	var out []string
	_ = ast.Walk(d.root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.HTMLBlock:
			var b strings.Builder
			for i := 0; i < n.Lines().Len(); i++ {
				seg := n.Lines().At(i)
				b.Write(seg.Value(d.src))
			}
			out = append(out, b.String())
		case *ast.RawHTML:
			var b strings.Builder
			for i := 0; i < n.Segments.Len(); i++ {
				seg := n.Segments.At(i)
				b.Write(seg.Value(d.src))
			}
			out = append(out, b.String())
		}
		return ast.WalkContinue, nil
	})
	return out
}

var sections = []string{"Summary", "Gaps Identified", "Timeline", "Mentor Notes", "Audit Trail", "Recommendations"}

func TestMarkdownStructure(t *testing.T) {
	run, in := sampleRun(), sampleInput()
	r := BuildReport(run, in)
	d := parseMD(t, RenderMarkdown(r))

	if got := d.levels(1); !slices.Equal(got, []string{"SMILE Loop Report: Quickstart: Hello SMILE"}) {
		t.Errorf("H1 = %q, want one with the tutorial name", got)
	}
	if got := d.levels(2); !slices.Equal(got, sections) {
		t.Errorf("H2 = %q, want %q", got, sections)
	}
	wantH3 := []string{}
	for _, g := range run.Status.Gaps {
		wantH3 = append(wantH3, fmt.Sprintf("Gap %d: %s", g.ID, g.Title))
	}
	wantH3 = append(wantH3, "Commands", "Files Written", "LLM Calls")
	if got := d.levels(3); !slices.Equal(got, wantH3) {
		t.Errorf("H3 = %q, want %q", got, wantH3)
	}

	lists := d.gapLists()
	if len(lists) != len(run.Status.Gaps) {
		t.Fatalf("%d gap lists, want %d", len(lists), len(run.Status.Gaps))
	}
	for i, g := range run.Status.Gaps {
		want := fmt.Sprintf(`Location: Line %d - "%s"`, g.Location.LineNumber, g.Location.Quote)
		if lists[i][0] != want {
			t.Errorf("gap %d location = %q, want %q", g.ID, lists[i][0], want)
		}
		if !slices.Contains(lists[i], "Severity: "+string(g.Severity)) || !slices.Contains(lists[i], "Category: "+string(g.Category)) {
			t.Errorf("gap %d list %q lacks its severity or category", g.ID, lists[i])
		}
	}
	wantLinks := []string{"tutorial.md#L12", "tutorial.md#L14", "tutorial.md#L20", "tutorial.md#L30"}
	if got := d.links(); !slices.Equal(got, wantLinks) {
		t.Errorf("links = %q, want %q", got, wantLinks)
	}

	timeline := d.tables("Timeline")
	if len(timeline) != 1 {
		t.Fatalf("Timeline has %d tables, want 1", len(timeline))
	}
	if got := timeline[0][0]; !slices.Equal(got, []string{"Time", "Iteration", "Event", "Details"}) {
		t.Errorf("timeline header = %q", got)
	}
	if rows := timeline[0][1:]; len(rows) != len(run.Status.Timeline) {
		t.Errorf("timeline has %d rows, want %d", len(rows), len(run.Status.Timeline))
	} else {
		for i, e := range r.Timeline {
			want := []string{logTime(e.Timestamp), fmt.Sprint(e.Iteration), e.Event, e.Details}
			if !slices.Equal(rows[i], want) {
				t.Errorf("timeline row %d = %q, want %q", i, rows[i], want)
			}
		}
	}

	audit := d.tables("Audit Trail")
	if len(audit) != 3 {
		t.Fatalf("Audit Trail has %d tables, want commands, files, LLM calls", len(audit))
	}
	for i, n := range []int{6, 2, 1} {
		if got := len(audit[i]) - 1; got != n {
			t.Errorf("audit table %d has %d rows, want %d", i, got, n)
		}
	}
	if got := audit[0][2]; !slices.Equal(got, []string{"1", "student", "12", "jq .name data.json", "127", "35ms", "bash: jq: command not found"}) {
		t.Errorf("command row = %q", got)
	}
	if got := audit[0][3][1]; got != "student (workaround)" {
		t.Errorf("workaround command's role = %q, want it marked", got)
	}

	var recs []string
	for _, n := range d.blocks["Recommendations"] {
		if l, ok := n.(*ast.List); ok && l.IsOrdered() {
			for it := l.FirstChild(); it != nil; it = it.NextSibling() {
				recs = append(recs, d.text(it))
			}
		}
	}
	if len(recs) != len(r.Recommendations) {
		t.Fatalf("%d recommendations rendered, want %d", len(recs), len(r.Recommendations))
	}
	for i, rec := range r.Recommendations {
		if want := rec.Category + ": " + rec.Description; recs[i] != want {
			t.Errorf("recommendation %d = %q, want %q", i+1, recs[i], want)
		}
	}

	for _, h := range d.rawHTML() {
		if !strings.HasPrefix(h, "<details>\n<summary>Output of ") && h != "</details>\n" {
			t.Errorf("unexpected raw HTML %q", h)
		}
	}
}

// hostile is tutorial, Student and Mentor text that would break a report
// that pasted it in.
var hostile = []string{
	"a `code` span, ``double`` ones and ` an unbalanced one",
	"pipes | in | text \\| and a backslash pipe \\|",
	"# not a heading",
	"line one\n# heading on line two\n## another\n### and a third",
	"<script>alert('x')</script> and <img src=x onerror=alert(1)>",
	"**bold** _em_ [link](http://evil.example) ![img](x.png) ~~strike~~ &amp; $x$ <!-- c -->",
	"```\nfenced\n```",
	"~~~~\ntilde fenced ``` inside\n~~~~",
	"| a | b |\n| --- | --- |\n| c | d |",
	"- list\n1. ordered\n> quote\n---\n===",
	"trailing backslash \\",
	"`",
	"``` ` ``",
	"    indented code\n\ttabbed",
	"\x1b[31mred\x1b[0m and a NUL \x00 byte",
	"[x]: http://evil.example\n[x]",
	"<details><summary>x</summary>",
	"ends with a closing sequence ##",
}

func hostileReport(h string) *Report {
	run := &status.Run{Metadata: status.Metadata{Name: "hostile"}, Status: status.Status{
		Phase: status.PhaseBlocker, Iteration: 1, Reason: "StudentBlocked", Message: h,
		Gaps: []status.Gap{{
			ID: 1, Title: h, Category: status.CategoryCommandFailure, Severity: status.SeverityMajor,
			Location: status.GapLocation{LineNumber: 3, Quote: h}, Problem: h, SuggestedFix: h, Iteration: 1, Command: h,
		}},
		Timeline:    []status.TimelineEntry{{Timestamp: t0, Iteration: 1, Event: h, Details: h}},
		MentorNotes: []status.MentorNote{{Iteration: 1, Question: h, Answer: h, Workaround: h, SuggestedFix: h}},
		History:     []status.IterationRecord{{Iteration: 1, StudentOutput: status.StudentOutput{Line: 3, Quote: h, CurrentStep: h}}},
	}}
	return BuildReport(run, ReportInput{
		TutorialPath: "tutorial.md", TutorialTitle: h, Now: t0,
		Audits: []status.Audit{{
			Commands: []status.AuditCommand{{Iteration: 1, Role: status.RoleStudent, Line: 3, Command: h, ExitCode: 1, Output: "output:\n" + h, StartedAt: t0}},
			Files:    []status.AuditFile{{Iteration: 1, Line: 3, Path: h, Action: "create", Bytes: 1, WrittenAt: t0}},
			LLMCalls: []status.LLMCall{{Iteration: 1, Role: status.RoleMentor, Provider: "literal", Model: h, StartedAt: t0}},
		}},
	})
}

func TestMarkdownHostileContent(t *testing.T) {
	for i, h := range hostile {
		t.Run(fmt.Sprintf("%02d", i), func(t *testing.T) {
			src := RenderMarkdown(hostileReport(h))
			d := parseMD(t, src)
			flat := mdtext.Flatten(h)
			if flat == "" {
				t.Fatalf("hostile text %q flattens to nothing", h)
			}

			// The title's whitespace is normalised; nothing else changes.
			title := strings.Join(strings.Fields(flat), " ")
			if got := d.levels(1); !slices.Equal(got, []string{"SMILE Loop Report: " + title}) {
				t.Errorf("H1 = %q, want the one title, verbatim", got)
			}
			if got := d.levels(2); !slices.Equal(got, sections) {
				t.Errorf("H2 = %q, want %q", got, sections)
			}
			if got := d.levels(3); !slices.Equal(got, []string{"Gap 1: " + flat, "Commands", "Files Written", "LLM Calls"}) {
				t.Errorf("H3 = %q", got)
			}
			if got := d.levels(4); len(got) != 0 {
				t.Errorf("H4 = %q, want none", got)
			}
			if lists := d.gapLists(); len(lists) != 1 || lists[0][0] != fmt.Sprintf(`Location: Line 3 - "%s"`, flat) {
				t.Errorf("gap list = %q, want the quote verbatim in its location", lists)
			}
			if got := d.links(); !slices.Equal(got, []string{"tutorial.md#L3"}) {
				t.Errorf("links = %q, want only the gap's line", got)
			}

			timeline := d.tables("Timeline")
			if len(timeline) != 1 || len(timeline[0]) != 2 {
				t.Fatalf("timeline tables = %q, want one table of one row", timeline)
			}
			if want := []string{logTime(t0), "1", flat, flat}; !slices.Equal(timeline[0][1], want) {
				t.Errorf("timeline row = %q, want %q", timeline[0][1], want)
			}
			audit := d.tables("Audit Trail")
			if len(audit) != 3 {
				t.Fatalf("Audit Trail has %d tables, want 3", len(audit))
			}
			// The output cell shows the output's last line, shortened.
			lines := strings.Split(h, "\n")
			lastOut := textutil.Shorten(mdtext.Flatten(lines[len(lines)-1]), 60)
			for i, want := range [][]string{
				{"1", "student", "3", flat, "1", "0s", lastOut},
				{"1", "3", "create", flat, "1"},
				{"1", "mentor", "literal", flat, "0", "0", "0.0000", "0s"},
			} {
				if len(audit[i]) != 2 || !slices.Equal(audit[i][1], want) {
					t.Errorf("audit table %d = %q, want one row %q", i, audit[i], want)
				}
			}
			for _, raw := range d.rawHTML() {
				if !strings.HasPrefix(raw, "<details>\n<summary>Output of ") && raw != "</details>\n" {
					t.Errorf("hostile text became raw HTML: %q", raw)
				}
			}
			// The failed command's output is one code block, whole: nothing in
			// it closes the fence early.
			var outputs []string
			for _, n := range d.blocks["Audit Trail"] {
				if f, ok := n.(*ast.FencedCodeBlock); ok {
					outputs = append(outputs, codeText(d, f))
				}
			}
			if want := mdtext.StripControl("output:\n" + h); len(outputs) != 1 || outputs[0] != want {
				t.Errorf("output blocks = %q, want one with %q", outputs, want)
			}

			var out bytes.Buffer
			if err := gfm.Convert(src, &out); err != nil {
				t.Fatal(err)
			}
			for _, bad := range []string{"<script", "<img", "<h4", "<hr", "<blockquote", "<del", "<em", "<strong>bold", "href=\"x.png", "<a href=\"http://evil.example\">link"} {
				if strings.Contains(out.String(), bad) {
					t.Errorf("rendered HTML contains %q", bad)
				}
			}
		})
	}
}

// codeText is a code block's content, verbatim.
func codeText(d *mdDoc, f *ast.FencedCodeBlock) string {
	var b strings.Builder
	for i := 0; i < f.Lines().Len(); i++ {
		seg := f.Lines().At(i)
		b.Write(seg.Value(d.src))
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// TestMdCodeCellPipes: GitHub (cmark-gfm) splits a row at a pipe preceded by
// an even number of backslashes, goldmark at any pipe without one before it.
// Every pipe in a cell must be escaped under both rules.
func TestMdCodeCellPipes(t *testing.T) {
	for _, s := range []string{"a | b", `a \| b`, `a \\| b`, `grep 'x\|y' f | wc -l`, `ends \`} {
		cell := mdtext.CodeCell(s)
		for i := 0; i < len(cell); i++ {
			if cell[i] != '|' {
				continue
			}
			n := 0
			for j := i - 1; j >= 0 && cell[j] == '\\'; j-- {
				n++
			}
			if n%2 == 0 {
				t.Errorf("mdtext.CodeCell(%q) = %q: the pipe at %d splits the row", s, cell, i)
			}
		}
		if strings.HasSuffix(cell, `\`) && !strings.HasSuffix(cell, `\\`) {
			t.Errorf("mdtext.CodeCell(%q) = %q ends in a lone backslash", s, cell)
		}
	}
}

func TestMarkdownLinkDestination(t *testing.T) {
	r := hostileReport("x")
	r.Summary.TutorialPath = "docs/my tutorial (v2) <draft>.md"
	d := parseMD(t, RenderMarkdown(r))
	if got := d.links(); !slices.Equal(got, []string{"docs/my tutorial (v2) <draft>.md#L3"}) {
		t.Errorf("links = %q", got)
	}
}

// The Markdown report lives in the run's own .smile/runs/NAME/, not beside
// the tutorial: its links to the tutorial's lines start from where it is
// written, so they open the page (a link to tutorial.md#L12 from there
// pointed at a file that is not there).
func TestMarkdownLinksFromTheReportsFolder(t *testing.T) {
	ws := t.TempDir()
	tutorial := filepath.Join(ws, "docs", "tutorial.md")
	if err := os.MkdirAll(filepath.Dir(tutorial), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(tutorial, []byte("# T\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	in := sampleInput()
	in.TutorialPath, in.TutorialFile = "tutorial.md", tutorial
	out := filepath.Join(ws, ".smile", "runs", "quickstart")
	for _, write := range []func(r *Report) error{
		func(r *Report) error { _, err := WriteReports(out, r, nil); return err },
		func(r *Report) error { _, err := WriteFormats(out, r, []string{"md"}, nil); return err },
	} {
		if err := write(BuildReport(sampleRun(), in)); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(filepath.Join(out, ReportMarkdownFile))
		if err != nil {
			t.Fatal(err)
		}
		links := parseMD(t, data).links()
		if len(links) == 0 || links[0] != "../../../docs/tutorial.md#L12" {
			t.Fatalf("links = %q, want ../../../docs/tutorial.md#L12 first", links)
		}
		for _, l := range links {
			target, _, _ := strings.Cut(l, "#")
			if _, err := os.Stat(filepath.Join(out, filepath.FromSlash(target))); err != nil {
				t.Errorf("link %s from %s opens nothing: %v", l, out, err)
			}
		}
	}
}

func TestMarkdownEmptyReport(t *testing.T) {
	for _, tc := range []struct {
		name  string
		phase status.Phase
		want  []string
	}{
		{"completed", status.PhaseCompleted, []string{"No gaps found.", "No events recorded.", "No mentor notes.", "None: the Student completed the tutorial without finding a gap."}},
		{"error", status.PhaseError, []string{"No gaps found.", "The run stopped with an error"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := RenderMarkdown(BuildReport(&status.Run{Status: status.Status{Phase: tc.phase}}, ReportInput{TutorialPath: "t.md", Now: t0}))
			d := parseMD(t, src)
			if got := d.levels(2); !slices.Equal(got, sections) {
				t.Errorf("H2 = %q, want %q", got, sections)
			}
			for _, w := range tc.want {
				if !strings.Contains(string(src), w) {
					t.Errorf("report lacks %q:\n%s", w, src)
				}
			}
			if n := len(d.tables("Timeline")) + len(d.tables("Audit Trail")); n != 0 {
				t.Errorf("%d empty tables, want none", n)
			}
		})
	}
}

func TestMarkdownFixSnippetInFence(t *testing.T) {
	r := BuildReport(sampleRun(), sampleInput())
	d := parseMD(t, RenderMarkdown(r))
	var code []string
	for _, n := range d.blocks["Gaps Identified"] {
		if f, ok := n.(*ast.FencedCodeBlock); ok {
			code = append(code, string(f.Language(d.src))+": "+d.text(f))
		}
	}
	want := []string{
		"sh: apt-get update && apt-get install -y jq",
		"suggestion: apt-get update && apt-get install -y jq\njq .name data.json",
		"suggestion: chmod +x run.sh\n./run.sh",
	}
	if !slices.Equal(code, want) {
		t.Errorf("code blocks under gaps = %q, want %q", code, want)
	}
	if lists := d.gapLists(); lists[0][len(lists[0])-1] != "Suggested Fix: Install jq before this step:" {
		t.Errorf("fix prose = %q", lists[0][len(lists[0])-1])
	}
}

func TestMdCode(t *testing.T) {
	for _, s := range []string{"plain", "a`b", "``x``", "` x `", " spaced ", "ends`", "a | b", "<b>"} {
		src := []byte("x " + mdtext.Code(s) + " y\n")
		d := parseMD(t, src)
		var got []string
		_ = ast.Walk(d.root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
			if entering && n.Kind() == ast.KindCodeSpan {
				got = append(got, d.text(n))
			}
			return ast.WalkContinue, nil
		})
		if len(got) != 1 || got[0] != strings.TrimSpace(s) && got[0] != s {
			t.Errorf("mdtext.Code(%q) = %s parses to code spans %q", s, mdtext.Code(s), got)
		}
	}
}

func TestHumanDuration(t *testing.T) {
	for _, tc := range []struct {
		ms   int64
		want string
	}{
		{0, "0s"}, {35, "35ms"}, {1234, "1.2s"}, {72_000, "1m12s"}, {60_000, "1m"}, {3_600_000, "1h"}, {11_040_000, "3h4m"},
	} {
		if got := humanDuration(time.Duration(tc.ms) * time.Millisecond); got != tc.want {
			t.Errorf("humanDuration(%dms) = %q, want %q", tc.ms, got, tc.want)
		}
	}
}

// A gap whose fix changes its line gets a suggestion block, right under its
// list, that GitHub can apply as is; other gaps get none.
func TestMarkdownSuggestionBlocks(t *testing.T) {
	content := strings.Repeat("\n", 9) + "```bash\n" + strings.Repeat("\n", 19) + "  ./run.sh\n```\n"
	run := sampleRun()
	run.Status.Gaps = []status.Gap{
		{ID: 1, Title: "Permission denied", Category: status.CategoryPermissionDenied, Severity: status.SeverityCritical,
			Location: status.GapLocation{LineNumber: 30, Quote: "./run.sh"}, Command: "./run.sh", SuggestedFix: "Add `chmod +x run.sh` before line 30."},
		{ID: 2, Title: "Missing file", Category: status.CategoryMissingFile, Severity: status.SeverityMajor,
			Location: status.GapLocation{LineNumber: 31, Quote: "cat data.csv"}, Command: "cat data.csv", SuggestedFix: "Create `data.csv` before line 31."},
	}
	in := sampleInput()
	in.TutorialContent = content
	d := parseMD(t, RenderMarkdown(BuildReport(run, in)))

	var after []string // what follows each gap's list, up to the next heading
	inGap := false
	for _, n := range d.blocks["Gaps Identified"] {
		switch n := n.(type) {
		case *ast.Heading:
			after = append(after, "")
			inGap = true
		case *ast.List:
		case *ast.FencedCodeBlock:
			after[len(after)-1] += string(n.Language(d.src)) + ": " + codeText(d, n)
		case *ast.Paragraph:
			if inGap {
				after[len(after)-1] += d.text(n) + " | "
			}
		}
	}
	want := []string{
		"Suggested change to line 30: Insert chmod +x run.sh above line 30. | suggestion:   chmod +x run.sh\n  ./run.sh",
		"",
	}
	if !slices.Equal(after, want) {
		t.Errorf("under the gaps: %q, want %q", after, want)
	}
}

// A Mentor note's answer is shown without what the note's own lines show:
// the literal Mentor's "Workaround, run before line 35:" lost its block on
// the Answer line and ran into "Suggested fix for the tutorial: ...", which
// the Suggested Fix line then said again.
func TestMarkdownNoteAnswerSaysEachThingOnce(t *testing.T) {
	run := sampleRun()
	fix := "Add `chmod +x ./count.sh` before line 35."
	run.Status.MentorNotes = []status.MentorNote{{Iteration: 1, Line: 35, Resolution: status.ResolutionWorkaround,
		Question:   "At line 35 the tutorial says `./count.sh words.txt`; how do I get permission to do this?",
		Answer:     "Line 35 (`./count.sh words.txt`): `./count.sh` is not executable.\n\nWorkaround, run before line 35:\n```sh\nchmod +x ./count.sh\n```\n\nSuggested fix for the tutorial: " + fix + "\n",
		Workaround: "chmod +x ./count.sh", SuggestedFix: fix}}
	md := string(RenderMarkdown(BuildReport(run, sampleInput())))
	_, notes, _ := strings.Cut(md, "## Mentor Notes")
	notes, _, _ = strings.Cut(notes, "\n## ")
	want := "- **Answer**: Line 35 (`./count.sh words.txt`): `./count.sh` is not executable.\n"
	if !strings.Contains(notes, want) {
		t.Errorf("the notes lack the answer line %q:\n%s", want, notes)
	}
	for _, once := range []string{"chmod +x ./count.sh\n```", "before line 35."} {
		if n := strings.Count(notes, once); n != 1 {
			t.Errorf("the notes say %q %d times, want once:\n%s", once, n, notes)
		}
	}
	if strings.Contains(notes, "run before line 35:") {
		t.Errorf("the notes keep the workaround's introduction without its block:\n%s", notes)
	}
}
