package e2e

import (
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

type wantGap struct {
	category string
	line     string // the tutorial line's text; its number is looked up
	severity string
}

// TestLoop runs fixture tutorials through the literal learner on the real
// engine and checks every gap's category and exact line.
func TestLoop(t *testing.T) {
	smileBinaries(t)
	baseImage(t)
	tests := []struct {
		name       string
		exit       int
		status     string
		iterations int
		gaps       []wantGap
		check      func(t *testing.T, dir string, r report)
	}{{
		// Every ask flag off: the Student records each problem and goes on,
		// so one run meets a planted gap of every category.
		name: "all-gaps", exit: 2, status: "completed", iterations: 1,
		gaps: []wantGap{
			{"missing_image", "![architecture](images/architecture.png)", "minor"},
			{"missing_dependency", "jq --version", "major"},
			{"permission_denied", "./run.sh", "major"},
			{"missing_file", "cat notes.txt", "major"},
			{"undefined_variable", `cd "$PROJECT_DIR"`, "major"},
			{"timeout", "sleep 30", "major"},
			{"output_mismatch", "goodbye", "minor"},
			// The python block names no file: skipped, and reported where
			// `cat app.py` finds nothing.
			{"ambiguous_instruction", "cat app.py", "major"},
			{"command_failure", "sh -c 'exit 3'", "major"},
		},
	}, {
		name: "clean", exit: 0, status: "completed", iterations: 1,
		check: func(t *testing.T, dir string, r report) {
			if len(r.AuditTrail.Commands) < 4 || len(r.AuditTrail.Files) != 1 {
				t.Errorf("audit: %d commands, %d files; want every command and the one file", len(r.AuditTrail.Commands), len(r.AuditTrail.Files))
			}
			for _, c := range r.AuditTrail.Commands {
				if c.ExitCode != 0 {
					t.Errorf("command %q exited %d in a clean tutorial", c.Command, c.ExitCode)
				}
			}
		},
	}, {
		// The Mentor gets the Student past a misspelt file name (ln -s), a
		// folder the tutorial never creates (mkdir -p) and a script never made
		// executable (chmod +x), one per iteration; then it completes.
		name: "workarounds", exit: 2, status: "completed", iterations: 4,
		gaps: []wantGap{
			{"missing_file", "cat conifg.yaml", "major"},
			{"missing_file", "cd logs", "major"},
			{"permission_denied", "./start.sh", "major"},
		},
		check: func(t *testing.T, dir string, r report) {
			notes := map[string]bool{}
			for _, n := range r.MentorNotes {
				notes[n.Resolution+": "+n.Workaround] = true
			}
			for _, want := range []string{"ln -s", "mkdir -p logs", "chmod +x"} {
				found := false
				for n := range notes {
					found = found || strings.Contains(n, want)
				}
				if !found {
					t.Errorf("no mentor workaround with %q in %v", want, notes)
				}
			}
			replayed := 0
			for _, c := range r.AuditTrail.Commands {
				if c.Workaround {
					replayed++
				}
			}
			if replayed != 6 { // ln in iterations 2-4, mkdir in 3-4, chmod in 4
				t.Errorf("workarounds replayed %d times, want 6", replayed)
			}
		},
	}, {
		// Nothing sets $APP_HOME: the Mentor cannot help; the loop ends.
		name: "blocker", exit: 2, status: "blocker", iterations: 1,
		gaps: []wantGap{{"undefined_variable", `cd "$APP_HOME"`, "critical"}},
	}, {
		// A missing command the image's package manager has: the Mentor's
		// workaround installs it. Whether the install works offline depends on
		// the mirror; the gap and the advice do not.
		name: "missing-dependency", exit: 2,
		gaps: []wantGap{{"missing_dependency", "jq -r .name data.json", ""}},
		check: func(t *testing.T, dir string, r report) {
			if len(r.MentorNotes) == 0 || !strings.Contains(r.MentorNotes[0].Workaround, "apt-get install -y") ||
				!strings.Contains(r.MentorNotes[0].Workaround, "jq") {
				t.Errorf("mentor notes %+v, want an apt-get install of jq", r.MentorNotes)
			}
		},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := copyFixture(t, tc.name)
			res := smile(t, dir, nil, 8*time.Minute, "apply", "-f", "run.yaml", "--wait")
			if res.code != tc.exit {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", res.code, tc.exit, res.stdout, res.stderr)
			}
			if !strings.Contains(res.stdout, "report: "+runFile(dir, tc.name, "smile-report.md")) {
				t.Errorf("stdout does not say where the report is:\n%s", res.stdout)
			}
			r := readReport(t, runFile(dir, tc.name, "smile-report.json"))
			if tc.status != "" && r.Summary.Status != tc.status {
				t.Errorf("status %s, want %s", r.Summary.Status, tc.status)
			}
			if tc.iterations != 0 && r.Summary.Iterations != tc.iterations {
				t.Errorf("iterations %d, want %d", r.Summary.Iterations, tc.iterations)
			}
			var got, want []string
			for _, g := range r.Gaps {
				got = append(got, g.Category+"@"+strconv.Itoa(g.Location.LineNumber))
				if g.Location.Quote == "" || g.Problem == "" || g.SuggestedFix == "" {
					t.Errorf("gap %d lacks a quote, problem or fix: %+v", g.ID, g)
				}
			}
			tutorial := filepath.Join(dir, "tutorial.md")
			for _, g := range tc.gaps {
				want = append(want, g.category+"@"+strconv.Itoa(lineOf(t, tutorial, g.line)))
			}
			sort.Strings(got)
			sort.Strings(want)
			if strings.Join(got, " ") != strings.Join(want, " ") {
				t.Fatalf("gaps (category@line):\n got  %v\n want %v", got, want)
			}
			for _, g := range tc.gaps {
				if g.severity == "" {
					continue
				}
				line := lineOf(t, tutorial, g.line)
				for _, rg := range r.Gaps {
					if rg.Category == g.category && rg.Location.LineNumber == line && rg.Severity != g.severity {
						t.Errorf("gap %s at line %d: severity %s, want %s", g.category, line, rg.Severity, g.severity)
					}
				}
			}
			for _, f := range []string{"smile-report.md", "smile-audit.log"} {
				if fi, err := os.Stat(runFile(dir, tc.name, f)); err != nil || fi.Size() == 0 {
					t.Errorf("%s missing or empty: %v", f, err)
				}
			}
			if tc.check != nil {
				tc.check(t, dir, r)
			}
		})
	}
}

// TestPatience: with a failing step and its trigger on, patience low asks at
// the first failure; high retries 2 x maxRetriesBeforeHelp times first.
func TestPatience(t *testing.T) {
	smileBinaries(t)
	baseImage(t)
	dir := copyFixture(t, "patience")
	line := lineOf(t, filepath.Join(dir, "tutorial.md"), `grep -q needle haystack.txt 2>/dev/null || sh -c 'echo "check failed" >&2; exit 4'`)
	for level, attempts := range map[string]int{"low": 1, "high": 4} {
		res := smile(t, dir, nil, 3*time.Minute, "apply", "-f", "run-"+level+".yaml", "--wait")
		if res.code != 2 {
			t.Fatalf("%s: exit %d\n%s", level, res.code, res.stderr)
		}
		r := readReport(t, filepath.Join(dir, "out-"+level, "smile-report.json"))
		runs := 0
		for _, c := range r.AuditTrail.Commands {
			if c.Line == line && !c.Workaround {
				runs++
			}
		}
		if runs != attempts {
			t.Errorf("patience %s ran the failing step %d times, want %d", level, runs, attempts)
		}
		if r.Summary.Status != "max_iterations" || len(r.Gaps) != 1 || r.Gaps[0].Category != "command_failure" {
			t.Errorf("patience %s: status %s gaps %+v", level, r.Summary.Status, r.Gaps)
		}
	}
}
