package round

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func loadTestdata(t *testing.T) *Round {
	t.Helper()
	r, err := Load(filepath.Join("testdata", "round1"))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestLoad(t *testing.T) {
	r := loadTestdata(t)
	if r.Number != 1 || r.Learner != "0000000" {
		t.Errorf("round %d, learner %q; want 1, 0000000", r.Number, r.Learner)
	}
	var names []string
	for _, p := range r.Pages {
		names = append(names, p.Name)
	}
	if want := []string{"kettle-basics", "saucer-howto", "teapot-guide"}; !reflect.DeepEqual(names, want) {
		t.Errorf("pages %v; want %v (sorted across the files)", names, want)
	}
	k := r.Pages[0]
	if want := filepath.Join("testdata", "round1", "alpha.yaml") + ":6"; k.Source != want {
		t.Errorf("source %q; want %q", k.Source, want)
	}
	if !k.Completes() || k.Blocks != 6 || k.Result.Status != "blocker" || len(k.Reported) != 4 || k.Reported[2].Label != LabelEnvironment {
		t.Errorf("kettle-basics decoded as %+v", k)
	}
	if got := k.RealGaps[1].Lines(); !reflect.DeepEqual(got, []int{40, 31}) {
		t.Errorf("the second real gap's lines are %v; want [40 31]", got)
	}
	if len(r.Warnings) != 0 {
		t.Errorf("warnings on a consistent round: %q", r.Warnings)
	}
}

// A page as the protocol writes it, with room for one broken field.
const goodPage = `round: 5
learner: abc
pages:
  - name: one-page
    url: https://github.com/o/r/blob/1111111111111111111111111111111111111111/a.md
    repo: o/r
    commit: 1111111111111111111111111111111111111111
    path: a.md
    readerCompletes: true
    blocks: 2
    exercised: 1
    result: {status: blocker, iterations: 1, gaps: 1}
    reported:
      - {line: 4, category: command_failure, label: real, why: "x"}
    realGaps:
      - {line: 4, category: missing_step, found: true, why: "y"}
`

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name      string
		old, new  string // replaced in goodPage
		wantError string
	}{
		{"bad label", "label: real", "label: right", `f.yaml:14: page 1 (one-page) reported 1: bad label "right": want real, environment or wrong`},
		{"no label", "label: real, ", "", "f.yaml:14: page 1 (one-page) reported 1: no label"},
		{"no commit", "    commit: 1111111111111111111111111111111111111111\n", "", "f.yaml:4: page 1 (one-page): no commit"},
		{"short commit", "commit: 1111111111111111111111111111111111111111", "commit: 1111", `f.yaml:7: page 1 (one-page): commit "1111"`},
		{"no url", "    url: https://github.com/o/r/blob/1111111111111111111111111111111111111111/a.md\n", "", "f.yaml:4: page 1 (one-page): no url"},
		{"no name", "  - name: one-page\n    url:", "  - url:", "f.yaml:4: page 1: no name"},
		{"bad name", "name: one-page", "name: One_Page", `page 1 (One_Page): name "One_Page"`},
		{"no readerCompletes", "    readerCompletes: true\n", "", "no readerCompletes"},
		{"exercised above blocks", "exercised: 1", "exercised: 3", "f.yaml:11: page 1 (one-page): exercised 3 of 2 blocks"},
		{"misspelt key", "    realGaps:", "    realgaps:", `f.yaml:15: page 1 (one-page): unknown key "realgaps"`},
		{"unknown key in a gap", "found: true,", "fonud: true,", `f.yaml:16: page 1 (one-page) realGaps 1: unknown key "fonud"`},
		{"type error", "blocks: 2", "blocks: many", "f.yaml:10: invalid YAML: cannot unmarshal !!str `many` into int"},
		{"syntax error", "    reported:\n", "    reported: [\n", "f.yaml:13: invalid YAML: did not find expected node content"},
		{"bad alsoLines", "found: true,", "alsoLines: [0], found: true,", "f.yaml:16: page 1 (one-page) realGaps 1: alsoLines holds 0"},
		{"no round", "round: 5\n", "", "f.yaml:1: no round number"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text := strings.Replace(goodPage, tt.old, tt.new, 1)
			if text == goodPage {
				t.Fatalf("the test changes nothing: %q not in the page", tt.old)
			}
			_, err := Parse([]byte(text), "f.yaml")
			if err == nil || !strings.Contains(err.Error(), tt.wantError) {
				t.Errorf("error %v; want one containing %q", err, tt.wantError)
			}
		})
	}
	if _, err := Parse([]byte(goodPage), "f.yaml"); err != nil {
		t.Errorf("the good page: %v", err)
	}
}

func TestLoadFolderErrors(t *testing.T) {
	other := strings.Replace(goodPage, "round: 5", "round: 6", 1)
	tests := []struct {
		name      string
		folder    string
		files     map[string]string
		wantError string
	}{
		{"a page judged twice", "round5", map[string]string{"a.yaml": goodPage, "b.yaml": goodPage},
			"b.yaml:4: page one-page is judged twice (first at "},
		{"files of two rounds", "round5", map[string]string{"a.yaml": goodPage, "b.yaml": strings.Replace(other, "one-page", "two-page", 1)},
			"b.yaml: round 6, but "},
		{"the folder names another round", "round6", map[string]string{"a.yaml": goodPage}, "round 5 in a folder named round6"},
		{"no files", "round5", nil, "holds no *.yaml file"},
		{"an empty file", "round5", map[string]string{"a.yaml": "# started\n"}, "a.yaml: empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), tt.folder)
			if err := os.Mkdir(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			for name, text := range tt.files {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			_, err := Load(dir)
			if err == nil || !strings.Contains(err.Error(), tt.wantError) {
				t.Errorf("error %v; want one containing %q", err, tt.wantError)
			}
		})
	}
}

func TestWarnings(t *testing.T) {
	tests := []struct {
		name     string
		old, new string
		want     []string
	}{
		{"found but no report at its lines", "{line: 4, category: missing_step", "{line: 5, category: missing_step", []string{
			"f.yaml:4: one-page: real gap at line 5 says found, but no reported gap outside environment is at line [5]",
			"f.yaml:4: one-page: the gap at line 4 is labelled real but no real gap has that line"}},
		{"a real label on no real gap's line", "{line: 4, category: missing_step, found: true", "{line: 9, alsoLines: [5], category: missing_step, found: false", []string{
			"the gap at line 4 is labelled real but no real gap has that line"}},
		{"counts disagree", "gaps: 1}", "gaps: 3}", []string{"result says 3 gaps, 1 are judged"}},
		{"found by alsoLines, says not found", "{line: 4, category: missing_step, found: true", "{line: 9, alsoLines: [4], category: missing_step, found: false", []string{
			"says not found, but a reported gap is at line [9 4]: it counts as found"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Parse([]byte(strings.Replace(goodPage, tt.old, tt.new, 1)), "f.yaml")
			if err != nil {
				t.Fatal(err)
			}
			ok := len(r.Warnings) == len(tt.want)
			for i := 0; ok && i < len(tt.want); i++ {
				ok = strings.Contains(r.Warnings[i], tt.want[i])
			}
			if !ok {
				t.Errorf("warnings %q; want %q", r.Warnings, tt.want)
			}
		})
	}
}

func TestScoreLabels(t *testing.T) {
	s := ScoreLabels(loadTestdata(t))
	want := Totals{
		Pages: 3, Reported: 6, Real: 2, Env: 2, Wrong: 2,
		Accusations: 4, AccusedReal: 2,
		EnvFindings: 2, EnvRight: 1, EnvWrong: 1,
		RealGaps: 4, Found: 2, Vacuous: 1,
		Completable: 2, Completed: 1,
		Exercised: 9, Blocks: 14,
	}
	if s.Total != want {
		t.Errorf("totals\n %+v; want\n %+v", s.Total, want)
	}
	saucer := s.Pages[1]
	if saucer.Name != "saucer-howto" || len(saucer.Found) != 1 || saucer.Found[0].Line != 5 {
		t.Errorf("saucer-howto's real gap at 5 is found by the report at its alsoLine 7: %+v", saucer)
	}
	if s.Pages[0].Vacuous || !s.Pages[2].Vacuous {
		t.Errorf("only teapot-guide (completed, nothing exercised) is a vacuous pass: %+v", s.Pages)
	}
}

func TestScoreRuns(t *testing.T) {
	r := loadTestdata(t)
	runs := map[string]Run{
		"kettle-basics": {Status: "completed", Exercised: 5, Gaps: []Gap{
			{Line: 12, Category: "command_failure"},
			{Line: 31, Category: "missing_file", Problem: "no such file"},
			// A labelled line, another category: unjudged.
			{Line: 20, Category: "command_failure"},
			{Line: 25, Category: "environment"},
		}},
		"teapot-guide": {Status: "completed", Exercised: 2, Gaps: []Gap{
			// Labelled nowhere: unjudged, yet its line finds the real gap.
			{Line: 8, Category: "output_mismatch"},
		}},
	}
	s := ScoreRuns(r, runs, map[string]string{"saucer-howto": "no copy"})
	want := Totals{
		Pages: 2, Reported: 5, Real: 1, Env: 1, Unjudged: 3,
		Accusations: 4, AccusedReal: 1, UnjudgedAccusations: 3,
		EnvFindings: 1, EnvRight: 1,
		RealGaps: 3, Found: 3,
		Completable: 2, Completed: 2,
		Exercised: 7, Blocks: 9,
	}
	if s.Total != want {
		t.Errorf("totals\n %+v; want\n %+v", s.Total, want)
	}
	if num, den := s.Total.Precision(); num != 1 || den != 1 {
		t.Errorf("precision %d/%d; want 1/1 (the unjudged left out)", num, den)
	}
	if !reflect.DeepEqual(s.NotScored, []string{"saucer-howto: no copy"}) {
		t.Errorf("not scored %q", s.NotScored)
	}
	k := s.Pages[0]
	if len(k.Unjudged) != 2 || k.Unjudged[0].Line != 31 || k.Unjudged[1].Line != 20 {
		t.Errorf("kettle-basics unjudged %+v; want the gaps at 31 and 20", k.Unjudged)
	}
	var gone []int
	for _, g := range k.Gone {
		gone = append(gone, g.Line)
	}
	if !reflect.DeepEqual(gone, []int{20, 30}) {
		t.Errorf("kettle-basics gone %v; want [20 30]", gone)
	}
}

func TestWrite(t *testing.T) {
	var b bytes.Buffer
	Write(&b, ScoreLabels(loadTestdata(t)))
	for _, want := range []string{
		"first-contact round 1 (labels judge learner 0000000), scored from the labels",
		"TOTAL (3 pages)             6         2     2    2      0         2/2                     9/14              2 yes",
		"precision:    2/4 (50%)",
		"recall:       2/4 (50%)",
		"environment:  2 finding(s): 1 right, 1 wrong",
		"vacuous:      1 pass(es) completed with nothing exercised (teapot-guide)",
		"completion:   1/2 (50%) of the pages a careful reader completes ended completed (not: kettle-basics)",
		"kettle-basics:40,31 missing_file: the config file is used but never created",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("no %q in:\n%s", want, b.String())
		}
	}
	r := loadTestdata(t)
	b.Reset()
	Write(&b, ScoreRuns(r, map[string]Run{"teapot-guide": {Status: "blocker", Gaps: []Gap{{Line: 3, Category: "command_failure", Problem: "exit 1"}}}}, nil))
	for _, want := range []string{
		"scored for this run",
		"; 1 unjudged, left out",
		"unjudged gaps (judge each and add it under the page's reported): 1\n  teapot-guide:3 command_failure: exit 1",
		"pages not scored: 2\n  kettle-basics: not run",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("no %q in:\n%s", want, b.String())
		}
	}
}
