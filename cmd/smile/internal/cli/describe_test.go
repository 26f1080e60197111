package cli

import (
	"bytes"
	"strings"
	"testing"
	"time"
	"unicode"
)

// section returns the lines of out from the one starting with title up to
// the next line that is not indented (a new section).
func section(out, title string) []string {
	var lines []string
	in := false
	for _, l := range strings.Split(out, "\n") {
		switch {
		case strings.HasPrefix(l, title):
			in = true
		case in && !strings.HasPrefix(l, " "):
			return lines
		case in:
			lines = append(lines, l)
		}
	}
	return lines
}

func TestDescribe(t *testing.T) {
	dir := t.TempDir()
	fabricate(t, dir, "alpha", completed)
	out := describeText(t, dir, "alpha", t0.Add(5*time.Minute+12*time.Second))
	if strings.Contains(out, secretToken) {
		t.Fatalf("describe printed the run's token:\n%s", out)
	}
	lines := strings.Split(out, "\n")
	if f := strings.Fields(lines[0]); len(f) != 2 || f[0] != "Name:" || f[1] != "alpha" {
		t.Errorf("first line = %q, want Name: alpha", lines[0])
	}

	t.Run("keys are Title Case, nested by two spaces", func(t *testing.T) {
		wantLines := []string{ // key and value, with the exact indent
			"API Version: smile.dev/v1alpha1",
			"Kind: SmileRun",
			"Generation: 1",
			"Spec:",
			"  LLM Provider: literal",
			"  Max Iterations: 3",
			"  Student Behavior:",
			"    Timeout Seconds: 30",
			"  Tutorial: tutorial.md",
			"Status:",
			"  Phase: Completed",
			"  Iteration: 2",
			"  Observed Generation: 1",
			"  Reason: Completed",
			"  Message: the Student completed the tutorial in iteration 2",
			"  Coverage: SMILE exercised 9 of 14 code blocks (64%): 7 run, 1 written, 1 compared; 5 skipped, 0 not reached",
			"  Report: /tmp/out/smile-report.md",
		}
		var got []string
		for _, l := range lines {
			indent := l[:len(l)-len(strings.TrimLeft(l, " "))]
			got = append(got, indent+strings.Join(strings.Fields(l), " "))
		}
		rest := got
		for _, w := range wantLines {
			i := indexOf(rest, w)
			if i < 0 {
				t.Fatalf("no line %q after the previous ones in:\n%s", w, out)
			}
			rest = rest[i+1:]
		}
		for _, l := range lines {
			if strings.HasPrefix(l, "Conditions:") {
				break
			}
			key, _, _ := strings.Cut(strings.TrimSpace(l), ":")
			for _, word := range strings.Fields(key) {
				if !unicode.IsUpper([]rune(word)[0]) {
					t.Errorf("key %q of line %q is not Title Case", key, l)
				}
			}
		}
	})

	t.Run("settings in force with their source", func(t *testing.T) {
		rows := section(out, "Settings:")
		want := map[string][]string{"llmProvider": {`"literal"`, "manifest"}, "maxIterations": {"3", "manifest"}, "timeout": {"1800", "default"},
			"minCoverage": {"0.5", "default"}}
		found := 0
		for _, r := range rows {
			f := strings.Fields(r)
			if w, ok := want[f[0]]; ok {
				found++
				if len(f) != 3 || f[1] != w[0] || f[2] != w[1] {
					t.Errorf("settings row %q, want %s %v", r, f[0], w)
				}
			}
		}
		if found != len(want) {
			t.Errorf("Settings lacks %v:\n%s", want, out)
		}
	})

	t.Run("conditions table", func(t *testing.T) {
		rows := section(out, "Conditions:")
		if len(rows) != 4 {
			t.Fatalf("Conditions has %d lines, want header, rule and 2 rows:\n%s", len(rows), out)
		}
		if h := strings.Fields(rows[0]); strings.Join(h[:3], " ") != "Type Status Reason" {
			t.Errorf("Conditions header = %q, want Type Status Reason first", rows[0])
		}
		want := [][]string{{"Ready", "True", "Completed", "5m12s", "ago"}, {"Succeeded", "False", "GapsFound", "5m10s", "ago"}}
		for i, w := range want {
			if f := strings.Fields(rows[i+2]); strings.Join(f[:5], " ") != strings.Join(w, " ") {
				t.Errorf("condition row %d = %q, want %q", i+1, f, w)
			}
		}
		if !strings.HasSuffix(rows[3], "the Student completed the tutorial with 1 gap (1 major)") {
			t.Errorf("condition row = %q, want its message last", rows[3])
		}
	})

	t.Run("gaps and events", func(t *testing.T) {
		gaps := section(out, "Gaps:")
		if len(gaps) != 3 || strings.Join(strings.Fields(gaps[2]), " ") != "35 major permission_denied Script is not executable" {
			t.Errorf("Gaps section = %q, want the gap at line 35", gaps)
		}
		events := section(out, "Events:")
		if len(events) != 5 {
			t.Fatalf("Events has %d lines, want header, rule and 3 events:\n%s", len(events), out)
		}
		if f := strings.Fields(events[2]); strings.Join(f[:3], " ") != "5m12s 0 RunStarted" {
			t.Errorf("first event = %q, want age, iteration, RunStarted", f)
		}
		if f := strings.Fields(events[4]); strings.Join(f[:3], " ") != "5m10s 2 LoopEnded" {
			t.Errorf("last event = %q, want age, iteration, LoopEnded", f)
		}
	})
}

func TestDescribeWithoutStatus(t *testing.T) {
	dir := t.TempDir()
	fabricate(t, dir, "fresh", nil)
	out := describeText(t, dir, "fresh", t0)
	if !strings.HasPrefix(out, "Name:") || !strings.Contains(out, "  LLM Provider:") {
		t.Errorf("describe of a run with no status lacks its name or spec:\n%s", out)
	}
	noneYet := false
	for _, l := range strings.Split(out, "\n") {
		noneYet = noneYet || strings.Join(strings.Fields(l), " ") == "Status: <none yet>"
	}
	if !noneYet || strings.Contains(out, "Conditions:") {
		t.Errorf("want Status: <none yet> and no Conditions:\n%s", out)
	}
}

func TestDescribeCommand(t *testing.T) {
	dir := t.TempDir()
	fabricate(t, dir, "alpha", completed)
	code, stdout, stderr := runMain(t, "describe", "alpha", "--dir", dir)
	if code != 0 || stderr != "" || !strings.HasPrefix(stdout, "Name:") {
		t.Errorf("describe alpha: exit %d, stderr %q, stdout:\n%s", code, stderr, stdout)
	}
	code, stdout, stderr = runMain(t, "describe", "nope", "--dir", dir)
	if code != 1 || stdout != "" || stderr != "error: smilerun \"nope\" not found\n" {
		t.Errorf("describe nope: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

func indexOf(lines []string, s string) int {
	for i, l := range lines {
		if l == s {
			return i
		}
	}
	return -1
}

// describeText loads the named run of dir and returns what describe prints
// for it at now.
func describeText(t *testing.T, dir, name string, now time.Time) string {
	t.Helper()
	objs, err := loadObjects(dir, []string{name})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	describe(&buf, objs[0], now)
	return buf.String()
}
