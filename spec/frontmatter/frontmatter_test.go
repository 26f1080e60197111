package frontmatter

import (
	"errors"
	"reflect"
	"testing"

	"github.com/smile-loop/smile/spec"
)

func TestParse(t *testing.T) {
	page := "---\ntitle: Survey\nsmile:\n  runners:\n    sql: sqlite3 survey.db\n  setup:\n    - touch survey.csv\n    - mkdir -p out\n---\n# Survey\n"
	ps, err := Parse("page.md", page)
	if err != nil {
		t.Fatal(err)
	}
	want := spec.PageSteering{Runners: map[string]string{"sql": "sqlite3 survey.db"}, Setup: []string{"touch survey.csv", "mkdir -p out"}, Line: 3}
	if !reflect.DeepEqual(ps, want) {
		t.Errorf("got %+v, want %+v", ps, want)
	}
	for name, page := range map[string]string{
		"no front matter":            "# Title\n\n---\nsmile: x\n---\n",
		"front matter without smile": "---\ntitle: x\n---\n# T\n",
		"front matter not YAML":      "---\n{{ site generator }}: [\n---\n# T\n",
		"TOML without smile":         "+++\ntitle = \"x\"\n+++\n# T\n",
	} {
		if ps, err := Parse("page.md", page); err != nil || ps.Line != 0 || ps.Runners != nil || ps.Setup != nil {
			t.Errorf("%s: got %+v, %v; want nothing and no error", name, ps, err)
		}
	}
}

func TestParsePageSteeringErrors(t *testing.T) {
	for _, c := range []struct{ name, page, want string }{
		{"unknown key with a hint", "---\nsmile:\n  runner:\n    sql: sqlite3\n---\n",
			`page.md:3:3: smile front matter: unknown key "runner" under smile: (did you mean "runners"?)`},
		{"unknown key without a hint", "---\nsmile:\n  theme: dark\n---\n",
			`page.md:3:3: smile front matter: unknown key "theme" under smile: (known: runners, setup)`},
		{"not a mapping", "---\nsmile: yes\n---\n", `page.md:2:8: smile front matter: smile: must be a mapping of runners and setup`},
		{"runners a list", "---\nsmile:\n  runners:\n    - sqlite3\n---\n",
			`page.md:4:5: smile front matter: smile.runners must map a code block's language to the program its blocks are typed into`},
		{"blank runner", "---\nsmile:\n  runners:\n    sql: \"\"\n---\n",
			`page.md:4:10: smile front matter: smile.runners.sql must name the program its blocks are typed into`},
		{"setup a string", "---\nsmile:\n  setup: make data\n---\n", `page.md:3:10: smile front matter: smile.setup must be a list of commands`},
		{"TOML", "+++\ntitle = \"x\"\n[smile]\nsetup = [\"x\"]\n+++\n", `page.md:3:1: smile front matter: SMILE reads its settings from YAML front matter (---), not TOML (+++)`},
		{"broken YAML with smile", "---\nsmile:\n  runners: [\n---\n", "page.md:2:1: smile front matter: the front matter is not valid YAML"},
	} {
		_, err := Parse("page.md", c.page)
		if err == nil || !errors.Is(err, spec.ErrFrontMatter) || len(err.Error()) < len(c.want) || err.Error()[:len(c.want)] != c.want {
			t.Errorf("%s: got %v\nwant %s", c.name, err, c.want)
		}
	}
}

func TestMergeRunnersPageWins(t *testing.T) {
	got := spec.MergeRunners(map[string]string{"sql": "sqlite3 a.db", "perl": "perl"}, map[string]string{"sql": "sqlite3 b.db"})
	if want := map[string]string{"sql": "sqlite3 b.db", "perl": "perl"}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if spec.MergeRunners(nil, nil) != nil {
		t.Error("no runners anywhere must stay nil")
	}
}
