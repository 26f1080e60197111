package reading

import (
	"strings"
	"testing"

	_ "github.com/smile-loop/smile/spec/frontmatter" // pages read with their front matter

	"github.com/smile-loop/smile/spec/spectest"
)

// TestAnnotationsWinOverTheProse: each annotation turns a block into what it
// says, even where the prose says otherwise.
func TestAnnotationsWinOverTheProse(t *testing.T) {
	md := "# Shop\n\n" +
		"Run this to clean up:\n\n<!-- smile: skip -->\n```bash\nrm -rf ~/shop\n```\n\n" + // run → skip (6)
		"You should see:\n\n<!-- smile: file=schema.sql -->\n```sql\ncreate table t(x);\n```\n\n" + // output → file (13)
		"Open the database:\n\n```bash\nsqlite3 shop.db\n```\n\n" + // a command (20)
		"<!-- smile: stdin -->\n```sql\n.read schema.sql\n```\n\n" + // input to it (24)
		"<!-- smile: run-in=\"sqlite3 shop.db\" -->\n```sql\nselect count(*) from t;\n```\n\n" + // typed into sqlite3 (29)
		"<!-- smile: output -->\n```bash\n0\n```\n\n" + // shell → output (34)
		"<!-- smile: exit=1 timeout=20 cwd=data -->\n```bash\ngrep missing notes.txt\n```\n\n" + // (39)
		"<!-- smile: background ready=\"listening\" -->\n```bash\npython3 -m http.server\n```\n" // (44)
	steps := Plan(spectest.Tutorial(t, md))
	at := func(line int) Step {
		for _, s := range steps {
			if s.Line == line {
				return s
			}
		}
		t.Fatalf("no step at line %d: %+v", line, steps)
		return Step{}
	}
	if s := at(6); s.Kind != StepSkip || !strings.Contains(s.Why, "annotation at line 5") || s.Annotation != "line 5: skip" {
		t.Errorf("skip: %+v", s)
	}
	if s := at(13); s.Kind != StepWrite || s.File.Path != "schema.sql" || s.File.Append || s.Content != "create table t(x);\n" {
		t.Errorf("file: %+v", s)
	}
	if s := at(20); s.Kind != StepRun || s.Stdin != ".read schema.sql\n" || !strings.Contains(s.Why, "typed into it") {
		t.Errorf("stdin: the command before it gets the block as input: %+v", s)
	}
	for _, s := range steps {
		if s.Line >= 23 && s.Line <= 26 {
			t.Errorf("stdin: the input block is a step of its own: %+v", s)
		}
	}
	if s := at(29); s.Kind != StepRun || s.Command.Text != "sqlite3 shop.db" || s.Stdin != "select count(*) from t;\n" {
		t.Errorf("run-in: %+v", s)
	}
	if s := at(35); s.Kind != StepCompare || len(s.Expected) != 1 || s.Expected[0].Text != "0" {
		t.Errorf("output: %+v", s)
	}
	if s := at(40); s.Kind != StepRun || !s.ExpectFail || s.ExpectExit != 1 || s.TimeoutSeconds != 20 || s.Dir != "data" ||
		s.Annotation != "line 38: exit=1, line 38: cwd=data, line 38: timeout=20" {
		t.Errorf("exit, timeout, cwd: %+v", s)
	}
	if s := at(45); !s.Background || len(s.Shown) != 1 || s.Shown[0].Text != "listening" {
		t.Errorf("background, ready: %+v", s)
	}
}

// TestSkipRegion: every block between skip-start and skip-end is skipped,
// and the blocks around it are read as usual.
func TestSkipRegion(t *testing.T) {
	md := "```bash\necho before\n```\n\n<!-- smile: skip-start -->\n\n```bash\necho one\n```\n\nThen:\n\n```bash\necho two\n```\n\n<!-- smile: skip-end -->\n\n```bash\necho after\n```\n"
	var kinds []string
	for _, s := range Plan(spectest.Tutorial(t, md)) {
		kinds = append(kinds, string(s.Kind))
	}
	if got := strings.Join(kinds, " "); got != "run skip skip run" {
		t.Errorf("kinds = %s, want run skip skip run", got)
	}
}

func TestInFolder(t *testing.T) {
	if got := InFolder("", "ls"); got != "ls" {
		t.Errorf("InFolder(\"\") = %q", got)
	}
	if got := InFolder("my site's", "ls"); got != "( cd -- 'my site'\\''s' || exit\nls\n)" {
		t.Errorf("InFolder = %q", got)
	}
}

// TestRunnersTypeUnplacedBlocksIntoTheirProgram: smile.json's runners give a
// block the reader could not place a program to be typed into; a block the
// prose names a file for keeps that reading.
func TestRunnersTypeUnplacedBlocksIntoTheirProgram(t *testing.T) {
	md := "# Shop\n\nSave this as `schema.sql`:\n\n```sql\ncreate table t(x);\n```\n\nCount the rows:\n\n```sql\nselect count(*) from t;\n```\n"
	tut := spectest.Tutorial(t, md)
	if s := Plan(tut); len(s) != 2 || s[1].Kind != StepAmbiguous {
		t.Fatalf("without runners the second block is one the reader cannot place: %+v", s)
	}
	steps := PlanWith(tut, Options{Runners: map[string]string{"sql": "sqlite3 shop.db"}})
	if len(steps) != 2 || steps[0].Kind != StepWrite || steps[0].File.Path != "schema.sql" {
		t.Fatalf("the named file stays a file: %+v", steps)
	}
	if s := steps[1]; s.Kind != StepRun || s.Command.Text != "sqlite3 shop.db" || s.Stdin != "select count(*) from t;\n" ||
		!strings.Contains(s.Why, "runners") {
		t.Errorf("runner: %+v", s)
	}
}

// TestPageRunnersFromFrontMatter: the page's own `smile: runners:` place its
// blocks as smile.json's do, and win over smile.json's for the same
// language.
func TestPageRunnersFromFrontMatter(t *testing.T) {
	md := "---\ntitle: Shop\nsmile:\n  runners:\n    sql: sqlite3 page.db\n---\n# Shop\n\nCount the rows:\n\n```sql\nselect count(*) from t;\n```\n"
	tut := spectest.Tutorial(t, md)
	for _, o := range []Options{{}, {Runners: map[string]string{"sql": "sqlite3 config.db"}}} {
		steps := PlanWith(tut, o)
		if len(steps) != 1 || steps[0].Kind != StepRun || steps[0].Command.Text != "sqlite3 page.db" ||
			!strings.Contains(steps[0].Why, "the page's front matter (line 3)") {
			t.Errorf("with options %+v: %+v", o, steps)
		}
	}
}
