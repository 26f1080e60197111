package cli

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/smile-loop/smile/spec/runfile"
	"github.com/smile-loop/smile/status"
	"github.com/smile-loop/smile/status/store"
)

// threeRuns fabricates alpha (completed, one gap), beta (applied, no status
// yet) and gamma (running, its manifest in docs/intro) in a temp folder and
// loads them as get does.
func threeRuns(t *testing.T) (dir string, objs []Object) {
	t.Helper()
	dir = t.TempDir()
	fabricateIn(t, dir, "docs/intro", "gamma", func(run *status.Run) {
		run.Status.Phase, run.Status.Iteration = status.PhaseRunningStudent, 1
		run.Status.Cost = &status.Cost{Calls: 2, USD: 0.0123, Estimated: true}
	})
	fabricate(t, dir, "alpha", completed)
	fabricate(t, dir, "beta", nil)
	objs, err := loadObjects(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	return dir, objs
}

// table splits printed rows into their cells; cols are the byte offsets at
// which the header's columns start.
func table(t *testing.T, out string) (rows [][]string, cols []int) {
	t.Helper()
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	for i, l := range lines {
		rows = append(rows, strings.Fields(l))
		if i == 0 {
			for j := range l {
				if l[j] != ' ' && (j == 0 || l[j-1] == ' ') {
					cols = append(cols, j)
				}
			}
		}
	}
	return rows, cols
}

func TestPrintObjectsTable(t *testing.T) {
	_, objs := threeRuns(t)
	now := t0.Add(5*time.Minute + 12*time.Second)
	tests := []struct {
		name      string
		format    string
		noHeaders bool
		want      [][]string
	}{
		{"default", "", false, [][]string{
			{"NAME", "PHASE", "RESULT", "ITERATION", "GAPS", "COVERAGE", "AGE"},
			{"alpha", "Completed", "GapsFound", "2", "1", "9/14", "5m12s"},
			{"beta", "Pending", "-", "0", "0", "-", "<unknown>"},
			{"gamma", "RunningStudent", "-", "1", "0", "-", "5m12s"},
		}},
		{"wide", "wide", false, [][]string{
			{"NAME", "PHASE", "RESULT", "ITERATION", "GAPS", "COVERAGE", "AGE", "FOLDER", "PROVIDER", "TUTORIAL", "COST", "REASON", "REPORT"},
			{"alpha", "Completed", "GapsFound", "2", "1", "9/14", "5m12s", ".", "literal", "tutorial.md", "-", "Completed", "/tmp/out/smile-report.md"},
			{"beta", "Pending", "-", "0", "0", "-", "<unknown>", ".", "literal", "tutorial.md", "-", "-", "-"},
			{"gamma", "RunningStudent", "-", "1", "0", "-", "5m12s", "docs/intro", "literal", "tutorial.md", "~$0.0123", "-", "-"},
		}},
		{"no headers", "", true, [][]string{
			{"alpha", "Completed", "GapsFound", "2", "1", "9/14", "5m12s"},
			{"beta", "Pending", "-", "0", "0", "-", "<unknown>"},
			{"gamma", "RunningStudent", "-", "1", "0", "-", "5m12s"},
		}},
		{"wide without headers", "wide", true, [][]string{
			{"alpha", "Completed", "GapsFound", "2", "1", "9/14", "5m12s", ".", "literal", "tutorial.md", "-", "Completed", "/tmp/out/smile-report.md"},
			{"beta", "Pending", "-", "0", "0", "-", "<unknown>", ".", "literal", "tutorial.md", "-", "-", "-"},
			{"gamma", "RunningStudent", "-", "1", "0", "-", "5m12s", "docs/intro", "literal", "tutorial.md", "~$0.0123", "-", "-"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := printObjects(&buf, objs, tt.format, tt.noHeaders, now); err != nil {
				t.Fatal(err)
			}
			rows, cols := table(t, buf.String())
			if got, want := len(rows), len(tt.want); got != want {
				t.Fatalf("%d lines, want %d:\n%s", got, want, buf.String())
			}
			for i := range rows {
				if strings.Join(rows[i], " ") != strings.Join(tt.want[i], " ") {
					t.Errorf("line %d = %q, want %q", i+1, rows[i], tt.want[i])
				}
			}
			if tt.noHeaders {
				return
			}
			// Every cell starts where its header does.
			lines := strings.Split(buf.String(), "\n")
			for i, l := range lines[1 : len(lines)-1] {
				for c, at := range cols {
					if at >= len(l) || !strings.HasPrefix(l[at:], tt.want[i+1][c]) {
						t.Errorf("line %d: column %s does not start at offset %d:\n%s", i+2, tt.want[0][c], at, buf.String())
					}
				}
			}
		})
	}
}

func TestPrintObjectsName(t *testing.T) {
	_, objs := threeRuns(t)
	var buf bytes.Buffer
	if err := printObjects(&buf, objs, "name", false, t0); err != nil {
		t.Fatal(err)
	}
	want := "smilerun.smile.dev/alpha\nsmilerun.smile.dev/beta\nsmilerun.smile.dev/gamma\n"
	if buf.String() != want {
		t.Errorf("-o name printed %q, want %q", buf.String(), want)
	}
}

// decode reads -o json or -o yaml output into a generic value.
func decode(t *testing.T, format, out string) map[string]any {
	t.Helper()
	var v map[string]any
	var err error
	if format == "json" {
		err = json.Unmarshal([]byte(out), &v)
	} else {
		err = runfile.UnmarshalYAML([]byte(out), &v, false)
	}
	if err != nil {
		t.Fatalf("-o %s output does not parse: %v\n%s", format, err, out)
	}
	return v
}

func field(v any, path ...string) any {
	for _, p := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[p]
	}
	return v
}

func TestPrintObjectsWhole(t *testing.T) {
	_, objs := threeRuns(t)
	for _, format := range []string{"json", "yaml"} {
		t.Run(format+" one object", func(t *testing.T) {
			var buf bytes.Buffer
			if err := printObjects(&buf, objs[:1], format, false, t0); err != nil {
				t.Fatal(err)
			}
			if strings.Contains(buf.String(), secretToken) {
				t.Fatalf("-o %s printed the run's token:\n%s", format, buf.String())
			}
			v := decode(t, format, buf.String())
			checks := []struct {
				path []string
				want any
			}{
				{[]string{"apiVersion"}, "smile.dev/v1alpha1"},
				{[]string{"kind"}, "SmileRun"},
				{[]string{"metadata", "name"}, "alpha"},
				{[]string{"metadata", "uid"}, "uid-alpha"},
				{[]string{"metadata", "creationTimestamp"}, "2026-11-22T10:00:00Z"},
				{[]string{"spec", "llmProvider"}, "literal"},
				{[]string{"spec", "tutorial"}, "tutorial.md"},
				{[]string{"spec", "studentBehavior", "timeoutSeconds"}, float64(30)},
				{[]string{"status", "phase"}, "Completed"},
				{[]string{"status", "iteration"}, float64(2)},
				{[]string{"status", "reason"}, "Completed"},
				{[]string{"status", "report", "markdown"}, "/tmp/out/smile-report.md"},
				{[]string{"status", "token"}, nil},
			}
			for _, c := range checks {
				if got := field(v, c.path...); got != c.want {
					t.Errorf("%s = %#v, want %#v", strings.Join(c.path, "."), got, c.want)
				}
			}
			gaps, _ := field(v, "status", "gaps").([]any)
			if len(gaps) != 1 || field(gaps[0], "location", "lineNumber") != float64(35) {
				t.Errorf("status.gaps = %v, want the gap at line 35", gaps)
			}
			conds, _ := field(v, "status", "conditions").([]any)
			if len(conds) != 2 || field(conds[1], "type") != "Succeeded" || field(conds[1], "status") != "False" || field(conds[1], "reason") != "GapsFound" {
				t.Errorf("status.conditions = %v, want Ready and Succeeded=False/GapsFound", conds)
			}
		})
		t.Run(format+" several objects", func(t *testing.T) {
			var buf bytes.Buffer
			if err := printObjects(&buf, objs, format, false, t0); err != nil {
				t.Fatal(err)
			}
			if strings.Contains(buf.String(), secretToken) {
				t.Fatalf("-o %s printed a run's token:\n%s", format, buf.String())
			}
			v := decode(t, format, buf.String())
			if field(v, "kind") != "List" || field(v, "apiVersion") != "v1" {
				t.Errorf("several objects print as kind %v, apiVersion %v; want a v1 List", field(v, "kind"), field(v, "apiVersion"))
			}
			items, _ := field(v, "items").([]any)
			var names []string
			for _, it := range items {
				names = append(names, field(it, "metadata", "name").(string))
				if field(it, "kind") != "SmileRun" {
					t.Errorf("item %v is not a SmileRun", field(it, "metadata", "name"))
				}
			}
			if strings.Join(names, ",") != "alpha,beta,gamma" {
				t.Errorf("items = %v, want alpha, beta, gamma", names)
			}
			if field(items[1], "status") != nil {
				t.Errorf("beta has no state file yet but prints a status: %v", field(items[1], "status"))
			}
		})
	}
}

// TestGetCommand runs `smile get` end to end on fabricated state: program
// output on stdout, nothing found on stderr with exit 0, no token anywhere.
func TestGetCommand(t *testing.T) {
	dir, _ := threeRuns(t)
	empty := t.TempDir()
	tests := []struct {
		name       string
		args       []string
		code       int
		stdout     []string // substrings, in order
		stderr     string   // substring; "" means empty
		stdoutNone bool
	}{
		{"table", []string{"get", "--dir", dir}, 0, []string{"NAME", "alpha", "Completed", "beta", "Pending", "gamma", "RunningStudent"}, "", false},
		{"one by name", []string{"get", "alpha", "-o", "name", "--dir", dir}, 0, []string{"smilerun.smile.dev/alpha\n"}, "", false},
		{"json", []string{"get", "-o", "json", "--dir", dir}, 0, []string{`"name": "alpha"`, `"kind": "List"`}, "", false},
		{"yaml", []string{"get", "gamma", "-o", "yaml", "--dir", dir}, 0, []string{"kind: SmileRun", "name: gamma", "phase: RunningStudent"}, "", false},
		{"from a subfolder", []string{"get", "-o", "name", "--dir", filepath.Join(dir, "docs", "intro")}, 0,
			[]string{"smilerun.smile.dev/alpha\nsmilerun.smile.dev/beta\nsmilerun.smile.dev/gamma\n"}, "", false},
		{"describe from a subfolder", []string{"describe", "alpha", "--dir", filepath.Join(dir, "docs")}, 0, []string{"Name:", "alpha"}, "", false},
		{"nothing found", []string{"get", "--dir", empty}, 0, nil, "No resources found\n", true},
		{"unknown name", []string{"get", "nope", "--dir", dir}, 1, nil, "error: smilerun \"nope\" not found\n", true},
		{"unknown format", []string{"get", "-o", "xml", "--dir", dir}, 1, nil, "error: unknown output format \"xml\"", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runMain(t, tt.args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d (stderr %q)", code, tt.code, stderr)
			}
			if tt.stdoutNone && stdout != "" {
				t.Errorf("stdout = %q, want nothing", stdout)
			}
			rest := stdout
			for _, s := range tt.stdout {
				i := strings.Index(rest, s)
				if i < 0 {
					t.Fatalf("stdout lacks %q (in order):\n%s", s, stdout)
				}
				rest = rest[i+len(s):]
			}
			if tt.stderr == "" && stderr != "" || !strings.HasPrefix(stderr, tt.stderr) {
				t.Errorf("stderr = %q, want %q", stderr, tt.stderr)
			}
			if strings.Contains(stdout+stderr, secretToken) {
				t.Errorf("printed the run's token")
			}
		})
	}
}

// A watch prints rows one at a time, long after the header: each must line
// up with the header printed first, whatever its phase or result.
func TestWatchRowsAlignWithHeader(t *testing.T) {
	_, objs := threeRuns(t)
	now := t0.Add(5*time.Minute + 12*time.Second)
	var buf bytes.Buffer
	// The first listing shows every run still Pending: the narrowest rows.
	pending := make([]Object, len(objs))
	for i, obj := range objs {
		pending[i] = obj
		pending[i].Status = nil
	}
	o := &getOptions{}
	first := tableRows(pending, false, now)
	widths := columnWidths(first, pending)
	if err := writeTable(&buf, first, widths); err != nil {
		t.Fatal(err)
	}
	for _, obj := range objs { // then rows with longer phases and results
		if err := o.printWatchRow(&buf, obj, widths); err != nil {
			t.Fatal(err)
		}
	}
	_, cols := table(t, buf.String())
	lines := strings.Split(strings.TrimRight(buf.String(), "\n"), "\n")
	for _, l := range lines[1:] {
		for c, at := range cols {
			if at > len(l) || (at > 0 && l[at-1] != ' ') || l[at] == ' ' {
				t.Errorf("column %d does not start at offset %d in %q:\n%s", c, at, l, buf.String())
			}
		}
	}
}

// -o wide's PROVIDER and TUTORIAL are the settings in force: from
// smile.json, or the defaults, when the manifest does not set them.
func TestWideColumnsShowTheSettingsInForce(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "docs/smile.json", `{"llmProvider": "codex", "tutorial": "guide.md"}`)
	writeFile(t, dir, "docs/run.yaml", "apiVersion: smile.dev/v1alpha1\nkind: SmileRun\nmetadata:\n  name: from-config\nspec: {}\n")
	writeFile(t, dir, "bare/run.yaml", "apiVersion: smile.dev/v1alpha1\nkind: SmileRun\nmetadata:\n  name: defaults\nspec: {}\n")
	for _, r := range []struct{ name, folder string }{{"from-config", "docs"}, {"defaults", "bare"}} {
		rec := store.Record{Name: r.name, Manifest: filepath.Join(dir, r.folder, "run.yaml"), StateFile: filepath.Join(dir, store.HomeDir, r.name+".state.json"), AppliedAt: t0}
		if err := (store.Registry{Dir: dir}).Put(rec); err != nil {
			t.Fatal(err)
		}
	}
	objs, err := loadObjects(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][2]string{}
	for _, row := range tableRows(objs, true, t0)[1:] {
		got[row[0]] = [2]string{row[8], row[9]}
	}
	want := map[string][2]string{"from-config": {"codex", "guide.md"}, "defaults": {"claude", "tutorial.md"}}
	for name, w := range want {
		if got[name] != w {
			t.Errorf("%s: PROVIDER, TUTORIAL = %q, want %q", name, got[name], w)
		}
	}
}
