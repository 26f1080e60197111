package report

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/smile-loop/smile/status"
)

func TestFormatFileNames(t *testing.T) {
	want := map[string]string{
		"md": "smile-report.md", "json": "smile-report.json", "sarif": "smile-report.sarif",
		"github": "smile-report.github.txt", "junit": "smile-report.junit.xml", "summary": "smile-report.summary.md",
	}
	if len(Formats) != len(want) {
		t.Errorf("Formats = %q, want the %d formats", Formats, len(want))
	}
	for _, f := range Formats {
		if got := FormatFileName(f); got != want[f] {
			t.Errorf("FormatFileName(%q) = %q, want %q", f, got, want[f])
		}
	}
	if FormatFileName("pdf") != "" {
		t.Errorf("an unknown format has a file name")
	}
	if FormatFileName(FormatMarkdown) != ReportMarkdownFile || FormatFileName(FormatJSON) != ReportJSONFile {
		t.Errorf("md and json are not the files WriteReports writes")
	}
}

func TestRenderFormat(t *testing.T) {
	r := BuildReport(sampleRun(), sampleInput())
	js, _ := RenderJSON(r)
	sarif, _ := RenderSARIF(r)
	junitXML, _ := RenderJUnit(r)
	want := map[string][]byte{
		"md": RenderMarkdown(r), "json": js, "sarif": sarif, "github": RenderGitHub(r), "junit": junitXML, "summary": RenderSummary(r),
	}
	for _, f := range Formats {
		got, err := RenderFormat(f, r)
		if err != nil || !bytes.Equal(got, want[f]) || len(got) == 0 {
			t.Errorf("RenderFormat(%q) = %d bytes, %v; want its renderer's %d bytes", f, len(got), err, len(want[f]))
		}
	}
	_, err := RenderFormat("html", r)
	if !errors.Is(err, ErrUnknownFormat) {
		t.Fatalf("RenderFormat(html) error = %v, want ErrUnknownFormat", err)
	}
	for _, f := range append([]string{`"html"`}, Formats...) {
		if !strings.Contains(err.Error(), f) {
			t.Errorf("error %q does not name %s", err, f)
		}
	}
}

func TestParseFormats(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
		err  bool
	}{
		{"sarif,github,summary", []string{"sarif", "github", "summary"}, false},
		{" md , JSON ,md,, ", []string{"md", "json"}, false},
		{"", nil, false},
		{"sarif,pdf", nil, true},
	} {
		got, err := ParseFormats(tc.in)
		if (err != nil) != tc.err || !slices.Equal(got, tc.want) {
			t.Errorf("ParseFormats(%q) = %q, %v; want %q (error: %v)", tc.in, got, err, tc.want, tc.err)
		}
		if err != nil && (!errors.Is(err, ErrUnknownFormat) || !strings.Contains(err.Error(), `"pdf"`)) {
			t.Errorf("ParseFormats(%q) error %q, want ErrUnknownFormat naming the format", tc.in, err)
		}
	}
}

func TestWriteFormats(t *testing.T) {
	w, tries := countWrites(t, nil)
	r := BuildReport(sampleRun(), sampleInput())
	dir := filepath.Join(t.TempDir(), "out") // created on demand
	var fallback bytes.Buffer
	formats := []string{FormatSARIF, FormatGitHub, FormatSummary, FormatJUnit}

	paths, err := w.WriteFormats(dir, r, formats, &fallback)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, f := range formats {
		path := filepath.Join(dir, FormatFileName(f))
		want = append(want, path)
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		rendered, _ := RenderFormat(f, r)
		if !bytes.Equal(got, rendered) {
			t.Errorf("%s differs from its rendering", path)
		}
		if tries[FormatFileName(f)] != 1 {
			t.Errorf("%s written in %d tries", f, tries[FormatFileName(f)])
		}
	}
	if !slices.Equal(paths, want) {
		t.Errorf("paths = %q, want %q", paths, want)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != len(formats) {
		t.Errorf("dir holds %d entries, want only the %d reports (no temporary files)", len(entries), len(formats))
	}
	if fallback.Len() != 0 {
		t.Errorf("fallback got %d bytes on success", fallback.Len())
	}
}

func TestWriteFormatsRetriesThenFallsBack(t *testing.T) {
	w, tries := countWrites(t, func(path string, try int) bool {
		// The SARIF never lands; the summary fails once, then lands.
		return filepath.Base(path) == FormatFileName(FormatSARIF) || (filepath.Base(path) == FormatFileName(FormatSummary) && try == 1)
	})
	dir := t.TempDir()
	r := BuildReport(sampleRun(), sampleInput())
	var fallback bytes.Buffer

	paths, err := w.WriteFormats(dir, r, []string{FormatSARIF, FormatSummary}, &fallback)
	if err == nil || !strings.Contains(err.Error(), "smile-report.sarif") || !strings.Contains(err.Error(), dir) || strings.Contains(err.Error(), "\n") {
		t.Fatalf("err = %v, want one line naming the folder and the SARIF file", err)
	}
	if tries["smile-report.sarif"] != 3 || tries["smile-report.summary.md"] != 2 {
		t.Errorf("tries = %v, want sarif 3, summary 2", tries)
	}
	sarif, _ := RenderSARIF(r)
	if !bytes.Equal(fallback.Bytes(), sarif) {
		t.Errorf("fallback got %d bytes, want the SARIF that was not written", fallback.Len())
	}
	if !slices.Equal(paths, []string{filepath.Join(dir, "smile-report.summary.md")}) {
		t.Errorf("paths = %q, want only the summary", paths)
	}
}

func TestWriteFormatsUnknownFormatWritesNothing(t *testing.T) {
	w, tries := countWrites(t, nil)
	dir := t.TempDir()
	paths, err := w.WriteFormats(dir, BuildReport(sampleRun(), sampleInput()), []string{FormatSARIF, "pdf"}, nil)
	if !errors.Is(err, ErrUnknownFormat) || paths != nil {
		t.Fatalf("WriteFormats = %q, %v; want ErrUnknownFormat", paths, err)
	}
	if len(tries) != 0 {
		t.Errorf("files were written before the unknown format was noticed: %v", tries)
	}
}

// No format shows a key, a token or the run's callback token, wherever it
// hides: gaps, the tutorial's lines, the steps, the path.
func TestEveryFormatRedactsSecrets(t *testing.T) {
	secrets := []string{"sk-proj-abc123def456ghi789jkl", "sk-ant-api03-AbCdEfGhIjKlMnOpQrSt", "AIzaSyA1234567890abcdefghijklmnopqrstuv", "ghp_abcdefghijklmnopqrstuvwxyz0123", sampleToken}
	run := sampleRun()
	st := &run.Status
	st.Message = "the key " + secrets[1] + " was rejected"
	st.Gaps[0].Title = "Uses " + secrets[0]
	st.Gaps[0].Location.Quote = "curl -H 'Authorization: Bearer " + secrets[3] + "' https://api"
	st.Gaps[0].Problem = "OPENAI_API_KEY=" + secrets[0] + " rejected"
	st.Gaps[0].Command = st.Gaps[0].Location.Quote
	st.Gaps[0].SuggestedFix = "Add `export GEMINI_API_KEY=" + secrets[2] + "` before line 12."
	st.Gaps[3].SuggestedFix = "Add `chmod +x run.sh` before running it (token " + sampleToken + ")."
	in := sampleInput()
	in.SourcePath = "docs/" + secrets[3] + ".md"
	// Line 30 holds a key the gap's quote does not: the suggestion quotes it.
	in.TutorialContent = strings.Repeat("\n", 11) + "```sh\n" + st.Gaps[0].Location.Quote + "\n" + strings.Repeat("\n", 16) + "./run.sh --key " + secrets[2] + "\n```\n"
	in.Steps = []ReportStep{{Line: 12, Kind: StepCommand, Text: "echo " + secrets[1] + " " + sampleToken}, {Line: 40, Kind: StepCommand, Text: "export ANTHROPIC_API_KEY=" + secrets[1]}}
	r := BuildReport(run, in)
	for _, f := range Formats {
		out, err := RenderFormat(f, r)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range secrets {
			if bytes.Contains(out, []byte(s)) {
				t.Errorf("%s holds secret %q", f, s)
			}
		}
		if !bytes.Contains(out, []byte(status.Redacted)) && !bytes.Contains(out, []byte(escapeData(status.Redacted))) {
			t.Errorf("%s shows no %s mark", f, status.Redacted)
		}
	}

	// A report built elsewhere (read back, or by hand) is redacted when
	// rendered too.
	hand := &Report{
		TutorialName: "Using " + secrets[0],
		Summary:      ReportSummary{Status: ReportError, Message: "OPENAI_API_KEY=" + secrets[0]},
		Gaps: []status.Gap{{ID: 1, Title: secrets[1], Category: status.CategoryPermissionDenied, Severity: status.SeverityMinor,
			Location: status.GapLocation{LineNumber: 2, Quote: "./run.sh"}, Command: "./run.sh", Problem: "key " + secrets[2],
			SuggestedFix: "Add `chmod +x run.sh` before line 2."}},
		SourcePath:  "t.md",
		SourceLines: map[int]string{2: "./run.sh --key " + secrets[3]},
		InCode:      map[int]bool{2: true},
		Steps:       []ReportStep{{Line: 9, Kind: StepCommand, Text: "export ANTHROPIC_API_KEY=" + secrets[1]}},
		StopLine:    2,
	}
	for _, f := range Formats {
		out, err := RenderFormat(f, hand)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range secrets {
			if bytes.Contains(out, []byte(s)) {
				t.Errorf("%s of a hand-built report holds secret %q", f, s)
			}
		}
	}
	if hand.SourceLines[2] != "./run.sh --key "+secrets[3] {
		t.Errorf("rendering changed the report it was given")
	}
}

func TestRepoRelativePath(t *testing.T) {
	root := t.TempDir()
	if err := os.Mkdir(filepath.Join(root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(root, "docs", "guides", "quick start.md")
	if got := RepoRelativePath(file); got != "docs/guides/quick start.md" {
		t.Errorf("RepoRelativePath = %q", got)
	}
	// A worktree or submodule has a .git file, not a folder.
	sub := filepath.Join(root, "vendor", "lib")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(sub, ".git"), []byte("gitdir: ../../.git/modules/lib\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := RepoRelativePath(filepath.Join(sub, "README.md")); got != "README.md" {
		t.Errorf("RepoRelativePath in a submodule = %q", got)
	}
	outside := t.TempDir()
	if RepoRelativePath(filepath.Dir(outside)) == "" {
		if got := RepoRelativePath(filepath.Join(outside, "t.md")); got != "" {
			t.Errorf("RepoRelativePath outside a repository = %q, want \"\"", got)
		}
	}
}

func TestGitHubBlobURL(t *testing.T) {
	env := map[string]string{"GITHUB_SERVER_URL": "https://github.com/", "GITHUB_REPOSITORY": "octo/docs", "GITHUB_SHA": "0123abc"}
	if got := GitHubBlobURL(func(k string) string { return env[k] }); got != "https://github.com/octo/docs/blob/0123abc/" {
		t.Errorf("GitHubBlobURL = %q", got)
	}
	delete(env, "GITHUB_SHA")
	if got := GitHubBlobURL(func(k string) string { return env[k] }); got != "" {
		t.Errorf("GitHubBlobURL outside Actions = %q, want \"\"", got)
	}
}
