package mentor

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/smile-loop/smile/learner/literal/packages"

	"github.com/smile-loop/smile/status/wire"

	"github.com/go-logr/logr"

	"github.com/smile-loop/smile/learner/provider"
	"github.com/smile-loop/smile/status"
)

// answers is a probe that answers each script with the output of the first
// entry whose key the script contains, and exit 1 with nothing otherwise. It
// never runs anything.
func answers(byScript map[string]string) func(context.Context, string, time.Duration) (string, int, error) {
	return func(_ context.Context, script string, timeout time.Duration) (string, int, error) {
		if timeout <= 0 {
			panic("a probe without a time limit")
		}
		for k, out := range byScript {
			if strings.Contains(script, k) {
				return out, 0, nil
			}
		}
		return "", 1, nil
	}
}

const envTutorial = "# Env\n" + // 1
	"\n" + // 2
	"## Prerequisites\n" + // 3
	"\n" + // 4
	"- Go 1.22 or later\n" + // 5
	"\n" + // 6
	"## Steps\n" + // 7
	"\n" + // 8
	"```sh\n" + // 9
	"go build ./...\n" + // 10
	"cat settings.ini\n" + // 11
	"```\n" + // 12
	"\n" + // 13
	"```ini\n" + // 14
	"[server]\n" + // 15
	"port = 8080\n" + // 16
	"```\n" + // 17
	"\n" + // 18
	"The limits live in `limits.toml`, beside `app.toml`:\n" + // 19
	"\n" + // 20
	"```toml\n" + // 21
	"max = 3\n" + // 22
	"```\n" + // 23
	"\n" + // 24
	"```sh\n" + // 25
	"head -n 1 conf/limits.toml\n" + // 26
	"curl -fsSL https://example.org/install.sh\n" + // 27
	"```\n" + // 28
	"\n" + // 29
	"Save this as `notes.txt`:\n" + // 30
	"\n" + // 31
	"```text\n" + // 32
	"buy milk\n" + // 33
	"```\n" + // 34
	"\n" + // 35
	"```sh\n" + // 36
	"cat docs/notes.txt\n" + // 37
	"```\n" // 38

func TestMentorLooksBeforeItAnswers(t *testing.T) {
	dir := t.TempDir()
	tutPath := filepath.Join(dir, "tutorial.md")
	if err := os.WriteFile(tutPath, []byte(envTutorial), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range lookups() {
		t.Run(tt.name, func(t *testing.T) { checkLookup(t, tt, tutPath) })
	}
}

// aptImage is what the probes of a Debian image answer.
var aptImage = map[string]string{"os-release": "PRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\nID=debian\n"}

// withApt is aptImage with more answers.
func withApt(extra map[string]string) map[string]string {
	m := map[string]string{}
	for k, v := range aptImage {
		m[k] = v
	}
	for k, v := range extra {
		m[k] = v
	}
	return m
}

// lookup is a finding the Mentor answers after looking in the image, with
// what the answer must hold.
type lookup struct {
	name    string
	finding status.Finding
	path    []string
	probe   map[string]string
	notes   []status.MentorNote
	want    status.Resolution
	// workaround, fix and text must contain these.
	workaround, fix, text string
	// noWorkaround must not be in the workaround.
	noWorkaround string
}

func lookups() []lookup {
	return []lookup{
		{name: "apt names a package for a command not in the table",
			finding: status.Finding{Category: status.CategoryMissingDependency, Line: 26, Command: "ncdu -x", ExitCode: 127, Output: "bash: line 1: ncdu: command not found"},
			probe:   withApt(map[string]string{"apt-cache": "ncdu\nncdu\n"}),
			want:    status.ResolutionWorkaround, workaround: "apt-get install -y --no-install-recommends ncdu", text: "I asked apt-get"},
		{name: "apt search ranks command-prefixed names first",
			finding: status.Finding{Category: status.CategoryMissingDependency, Line: 26, Command: "fd x", ExitCode: 127, Output: "bash: line 1: fd: command not found"},
			probe:   withApt(map[string]string{"apt-cache": "golang-fd - a thing\nfd-find - Simple, fast and user-friendly alternative to find\n"}),
			want:    status.ResolutionWorkaround, workaround: "--no-install-recommends fd-find"},
		{name: "dnf provides",
			finding: status.Finding{Category: status.CategoryMissingDependency, Line: 26, Command: "ncdu", ExitCode: 127, Output: "bash: ncdu: command not found"},
			path:    []string{"dnf"},
			probe:   map[string]string{"os-release": "ID=fedora\n", "whatprovides": "ncdu\n"},
			want:    status.ResolutionWorkaround, workaround: "dnf install -y ncdu"},
		{name: "apk cmd search",
			finding: status.Finding{Category: status.CategoryMissingDependency, Line: 26, Command: "ncdu", ExitCode: 127, Output: "sh: ncdu: not found"},
			path:    []string{"apk"},
			probe:   map[string]string{"os-release": "ID=alpine\n", "cmd:ncdu": "ncdu-2.3-r0\n"},
			want:    status.ResolutionWorkaround, workaround: "apk add --no-cache ncdu"},
		{name: "nothing provides it",
			finding: status.Finding{Category: status.CategoryMissingDependency, Line: 26, Command: "frobnicate", ExitCode: 127, Output: "bash: frobnicate: command not found"},
			probe:   aptImage, want: status.ResolutionUnresolvable, text: "apt-get knows no package that provides `frobnicate`"},
		{name: "hint from command-not-found",
			finding: status.Finding{Category: status.CategoryMissingDependency, Line: 26, Command: "tree", ExitCode: 127, Output: "Command 'tree' not found, but can be installed with:\nsudo apt install tree-extra\n"},
			want:    status.ResolutionWorkaround, workaround: "apt-get install -y --no-install-recommends tree-extra", text: "its own output says what to install"},
		{name: "hint to install a venv module",
			finding: status.Finding{Category: status.CategoryCommandFailure, Line: 26, Command: "python3 -m venv env", ExitCode: 1, Output: "The virtual environment was not created successfully because ensurepip is not\navailable. On Debian/Ubuntu systems, you need to install the python3-venv\npackage using the following command.\n\n    apt install python3.11-venv\n"},
			want:    status.ResolutionWorkaround, workaround: "--no-install-recommends python3.11-venv"},
		{name: "hint for another distribution is ignored",
			finding: status.Finding{Category: status.CategoryCommandFailure, Line: 26, Command: "./x", ExitCode: 1, Output: "error: try: dnf install libfoo\n"},
			want:    status.ResolutionUnresolvable},
		{name: "externally managed python gets a venv",
			finding: status.Finding{Category: status.CategoryCommandFailure, Line: 26, Command: "pip install flask", ExitCode: 1, Output: "error: externally-managed-environment\n\n× This environment is externally managed\n╰─> To install Python packages system-wide, try apt install\n    python3-xyz, where xyz is the package you are trying to\n    install.\n"},
			want:    status.ResolutionWorkaround, workaround: "python3 -m venv .venv && . .venv/bin/activate", noWorkaround: "xyz", fix: "virtual environment"},
		{name: "pip hint",
			finding: status.Finding{Category: status.CategoryCommandFailure, Line: 26, Command: "./report.py", ExitCode: 1, Output: "This tool needs requests. Try: pip install requests\n"},
			want:    status.ResolutionWorkaround, workaround: "pip install requests"},
		{name: "prerequisite tool missing is the image's gap",
			finding: status.Finding{Category: status.CategoryEnvironment, Line: 10, Command: "go build ./...", ExitCode: 127, Output: "bash: line 1: go: command not found"},
			want:    status.ResolutionWorkaround, workaround: "golang-go", fix: "`containerImage`", text: "lists it as a prerequisite (line 5)"},
		{name: "no network",
			finding: status.Finding{Category: status.CategoryEnvironment, Line: 27, Command: "curl -fsSL https://example.org/install.sh", ExitCode: 6, Output: "curl: (6) Could not resolve host: example.org"},
			want:    status.ResolutionUnresolvable, fix: "`studentNetwork", text: "lacks network access"},
		{name: "apt without package lists",
			finding: status.Finding{Category: status.CategoryEnvironment, Line: 27, Command: "apt-get install -y jq", ExitCode: 100, Output: "Reading package lists...\nE: Unable to locate package jq\n"},
			want:    status.ResolutionWorkaround, workaround: "apt-get update", fix: "`setup: [\"apt-get update\"]`"},
		{name: "cat of a file shown right after",
			finding: status.Finding{Category: status.CategoryMissingFile, Line: 11, Command: "cat settings.ini", ExitCode: 1, Output: "cat: settings.ini: No such file or directory"},
			want:    status.ResolutionWorkaround, workaround: "cat > settings.ini <<'SMILE_EOF'\n[server]\nport = 8080\nSMILE_EOF", fix: "line 14"},
		{name: "read of a file whose prose names it",
			finding: status.Finding{Category: status.CategoryMissingFile, Line: 26, Command: "head -n 1 conf/limits.toml", ExitCode: 1, Output: "head: cannot open 'conf/limits.toml' for reading: No such file or directory"},
			want:    status.ResolutionWorkaround, workaround: "mkdir -p conf && cat > conf/limits.toml <<'SMILE_EOF'\nmax = 3\nSMILE_EOF"},
		{name: "a near name in another folder is linked relative to the link",
			finding: status.Finding{Category: status.CategoryMissingFile, Line: 37, Command: "cat docs/notes.txt", ExitCode: 1, Output: "cat: docs/notes.txt: No such file or directory"},
			want:    status.ResolutionWorkaround, workaround: "mkdir -p docs && ln -s ../notes.txt docs/notes.txt"},
		{name: "a different error after a workaround is diagnosed afresh",
			finding: status.Finding{Category: status.CategoryMissingDependency, Line: 26, Command: "jq . x.json", ExitCode: 127, Output: "bash: line 1: jq: command not found"},
			notes: []status.MentorNote{{Iteration: 1, Line: 26, Category: "missing_file", Resolution: status.ResolutionWorkaround,
				Question: "cat: x.json: No such file or directory", Workaround: "touch x.json"}},
			want: status.ResolutionWorkaround, workaround: "apt-get install -y --no-install-recommends jq", noWorkaround: "touch", text: "This is a new problem: after the workaround from iteration 1"},
		{name: "the same error after a workaround is a blocker",
			finding: status.Finding{Category: status.CategoryMissingDependency, Line: 26, Command: "jq . x.json", ExitCode: 127, Output: "bash: line 1: jq: command not found"},
			notes: []status.MentorNote{{Iteration: 1, Line: 26, Category: "missing_dependency", Resolution: status.ResolutionWorkaround,
				Question: "printed `bash: line 1: jq: command not found`", Workaround: "apt-get install -y jq"}},
			want: status.ResolutionUnresolvable, text: "did not help"},
	}
}

func checkLookup(t *testing.T, tt lookup, tutPath string) {
	t.Helper()
	f := tt.finding
	f.Asked, f.Quote = true, f.Command
	task := &wire.Task{Role: status.RoleMentor, Tutorial: tutPath, MentorNotes: tt.notes,
		StudentOutput: &status.StudentOutput{Status: status.StudentAskMentor, Line: f.Line, Findings: []status.Finding{f}}}
	path := tt.path
	if path == nil {
		path = []string{"apt-get"}
	}
	env := provider.Env{WorkDir: t.TempDir(), Log: logr.Discard()}
	res, err := Provider{LookPath: onPath(path...), Probe: answers(tt.probe)}.Mentor(context.Background(), task, env)
	if err != nil {
		t.Fatal(err)
	}
	a := res.Advice
	if a == nil || a.Resolution != tt.want {
		t.Fatalf("advice = %+v, want %s\n%s", a, tt.want, res.MentorOutput)
	}
	if !strings.Contains(a.Workaround, tt.workaround) || (tt.workaround == "") != (a.Workaround == "") {
		t.Errorf("workaround = %q, want %q", a.Workaround, tt.workaround)
	}
	if tt.noWorkaround != "" && strings.Contains(a.Workaround, tt.noWorkaround) {
		t.Errorf("workaround = %q, must not contain %q", a.Workaround, tt.noWorkaround)
	}
	if !strings.Contains(a.SuggestedFix, tt.fix) {
		t.Errorf("suggested fix = %q, want it to contain %q", a.SuggestedFix, tt.fix)
	}
	if !strings.Contains(res.MentorOutput, tt.text) {
		t.Errorf("mentor output lacks %q:\n%s", tt.text, res.MentorOutput)
	}
}

func TestOSRelease(t *testing.T) {
	tests := []struct {
		name, text, id string
		like           []string
	}{
		{"debian", "PRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\nID=debian\n", "debian", nil},
		{"ubuntu", "ID=ubuntu\nID_LIKE=debian\n", "ubuntu", []string{"debian"}},
		{"rocky", "ID=\"rocky\"\nID_LIKE=\"rhel centos fedora\"\n", "rocky", []string{"rhel", "centos", "fedora"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id, like := osRelease(tt.text)
			if id != tt.id || strings.Join(like, ",") != strings.Join(tt.like, ",") {
				t.Errorf("got %q %q", id, like)
			}
		})
	}
}

// The Mentor's look-ups run on its hands (here the local ones), bounded:
// a child that keeps the output open (apt-get update's methods do) is
// killed with the script.
func TestHandsProbeIsBounded(t *testing.T) {
	m := &mentor{env: provider.Env{WorkDir: t.TempDir(), Log: logr.Discard()}}
	defer m.closeProbe()
	start := time.Now()
	_, _, err := m.handsProbe(context.Background(), "sleep 5 & sleep 5", 200*time.Millisecond)
	if err == nil || time.Since(start) > 4*time.Second {
		t.Fatalf("err = %v after %s, want a time-out error within the limit", err, time.Since(start))
	}
	out, code, err := m.handsProbe(context.Background(), "echo hi; exit 3", time.Second)
	if err != nil || code != 3 || strings.TrimSpace(out) != "hi" {
		t.Errorf("got %q %d %v", out, code, err)
	}
}

func TestParseProviders(t *testing.T) {
	tests := []struct {
		name    string
		pm      packages.Manager
		command string
		output  string
		want    string
	}{
		{"apt exact first", packages.APT, "ncdu", "golang-ncdu\nncdu\n", "ncdu,golang-ncdu"},
		{"apt command-prefixed before others", packages.APT, "fd", "golang-fd\nfd-find\n", "fd-find,golang-fd"},
		{"dnf provides", packages.DNF, "ncdu", "Last metadata expiration check: 0:01:02 ago.\nncdu-1.18-1.fc39.x86_64 : Text-based disk usage viewer\nRepo        : fedora\nMatched from:\nFilename    : /usr/bin/ncdu\n", "ncdu"},
		{"apk", packages.APK, "ncdu", "ncdu-2.3-r0\n", "ncdu"},
		{"an error is no package", packages.APT, "ncdu", "sh: 1: apt-cache: not found\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := strings.Join(parseProviders(tt.pm, tt.command, tt.output), ","); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
	s := lookupScript(packages.APT, "c++filt")
	if !strings.Contains(s, `'^(c\+\+filt-.*|.*-c\+\+filt)$'`) || !strings.Contains(s, `grep -qE '\./(usr/)?s?bin/c\+\+filt$'`) {
		t.Errorf("the apt search does not quote the name: %s", s)
	}
	if !strings.Contains(s, "apt-get download") || !strings.Contains(s, "dpkg-deb -c") {
		t.Errorf("a package named like the command is not checked for bin/COMMAND: %s", s)
	}
}

// A lesson that starts in ~/Desktop: the environment, and the Mentor makes
// the folder.
func TestDesktopHomeIsTheEnvironment(t *testing.T) {
	dir := t.TempDir()
	tutPath := filepath.Join(dir, "tutorial.md")
	if err := os.WriteFile(tutPath, []byte("# L\n\n```bash\ncd ~/Desktop\n```\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f := status.Finding{Category: status.CategoryEnvironment, Line: 4, Command: "cd ~/Desktop", Asked: true, ExitCode: 1,
		Output: "bash: line 1: cd: /root/Desktop: No such file or directory"}
	task := &wire.Task{Role: status.RoleMentor, Tutorial: tutPath,
		StudentOutput: &status.StudentOutput{Status: status.StudentAskMentor, Line: 4, Findings: []status.Finding{f}}}
	res, err := Provider{LookPath: onPath()}.Mentor(context.Background(), task, provider.Env{WorkDir: t.TempDir(), Log: logr.Discard()})
	if err != nil {
		t.Fatal(err)
	}
	if a := res.Advice; a.Resolution != status.ResolutionWorkaround || a.Workaround != "mkdir -p /root/Desktop" {
		t.Errorf("advice %+v, want mkdir -p of the folder", a)
	}
}
