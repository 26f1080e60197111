package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/smile-loop/smile/status"
)

// TestMainErrors: every failure prints `error: ...` on stderr (cobra may add
// a "Did you mean" hint), nothing on stdout, and exits 1; flags and arguments
// cobra rejects too.
func TestMainErrors(t *testing.T) {
	dir := t.TempDir()
	fabricate(t, dir, "gamma", func(run *status.Run) { run.Status.Phase = status.PhaseRunningStudent })
	missing := filepath.Join(dir, "missing.yaml")
	tests := []struct {
		name string
		args []string
		want string // stderr's first line starts with it
	}{
		{"unknown command", []string{"bogus"}, `error: unknown command "bogus" for "smile"`},
		{"unknown flag", []string{"--bogus"}, "error: unknown flag: --bogus"},
		{"unknown flag of a command", []string{"get", "--bogus"}, "error: unknown flag: --bogus"},
		{"unknown shorthand", []string{"get", "-z"}, "error: unknown shorthand flag: 'z' in -z"},
		{"flag without its value", []string{"get", "-o"}, "error: flag needs an argument: 'o' in -o"},
		{"bad boolean", []string{"apply", "-f", missing, "--wait=maybe"}, `error: invalid argument "maybe" for "--wait" flag`},
		{"apply without -f", []string{"apply"}, `error: required flag(s) "filename" not set`},
		{"apply of a missing manifest", []string{"apply", "-f", missing, "--wait"}, "error: read manifest: "},
		{"apply with a bad --fail-on", []string{"apply", "-f", missing, "--fail-on", "severe"}, "error: --fail-on must be critical, major, minor or none"},
		{"apply with an argument", []string{"apply", "-f", missing, "extra"}, "error: smile apply takes manifests after -f: `smile apply -f extra`"},
		{"apply of a manifest without -f", []string{"apply", "run.yaml", "--wait"}, "error: smile apply takes manifests after -f: `smile apply -f run.yaml`"},
		{"apply of two manifests without -f", []string{"apply", "a.yaml", "b.yaml"}, "error: smile apply takes manifests after -f: `smile apply -f a.yaml -f b.yaml`"},
		{"get with two names", []string{"get", "a", "b", "--dir", dir}, "error: accepts at most 1 arg(s), received 2"},
		{"describe without a name", []string{"describe", "--dir", dir}, "error: accepts 1 arg(s), received 0"},
		{"describe of an unknown run", []string{"describe", "nope", "--dir", dir}, `error: smilerun "nope" not found`},
		{"stop of an unknown run", []string{"stop", "nope", "--dir", dir}, `error: smilerun "nope" not found`},
		{"stop with no controller", []string{"stop", "gamma", "--dir", dir}, "error: no controller is running the loop of gamma"},
		{"delete of an unknown run", []string{"delete", "nope", "--dir", dir}, `error: smilerun "nope" not found`},
		{"logs of an unknown run", []string{"logs", "nope", "--dir", dir}, `error: smilerun "nope" not found`},
		{"init with an argument", []string{"init", "somewhere"}, `error: unknown command "somewhere" for "smile init"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runMain(t, tt.args...)
			if code != ExitError {
				t.Errorf("exit %d, want 1", code)
			}
			if stdout != "" {
				t.Errorf("stdout = %q, want nothing", stdout)
			}
			if first, _, _ := strings.Cut(stderr, "\n"); !strings.HasPrefix(first, tt.want) || !strings.HasSuffix(stderr, "\n") {
				t.Errorf("stderr = %q, want a line starting with %q", stderr, tt.want)
			}
			if strings.Contains(stderr, "Usage:") {
				t.Errorf("an error prints the usage: %q", stderr)
			}
		})
	}
}

func TestMainSuccess(t *testing.T) {
	dir := t.TempDir()
	fabricate(t, dir, "alpha", completed)
	tests := []struct {
		name   string
		args   []string
		stdout string
	}{
		{"version", []string{"version"}, "smile " + Version + "\n"},
		{"stop of an ended run", []string{"stop", "alpha", "--dir", dir}, "smilerun.smile.dev/alpha already ended (Completed)\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runMain(t, tt.args...)
			if code != ExitOK || stdout != tt.stdout || stderr != "" {
				t.Errorf("exit %d, stdout %q, stderr %q; want 0, %q and nothing", code, stdout, stderr, tt.stdout)
			}
		})
	}
}
