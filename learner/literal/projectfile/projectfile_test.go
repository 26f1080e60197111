package projectfile

import "testing"

// Each tool's own message names the project file it looked for; other
// failures (a compile error, a missing source file, the network) are not
// a missing project.
func TestMissing(t *testing.T) {
	for _, tt := range []struct {
		output, want string
	}{
		{"error: could not find `Cargo.toml` in `/workspace/work` or any parent directory\n", "Cargo.toml"},
		{"go: go.mod file not found in current directory or any parent directory; see 'go help modules'", "go.mod"},
		{"npm ERR! code ENOENT\nnpm ERR! enoent Could not read package.json: Error: ENOENT: no such file", "package.json"},
		{"npm error enoent Could not read package.json: Error: ENOENT", "package.json"},
		{"[ERROR] The goal you specified requires a project to execute but there is no POM in this directory (/w).", "pom.xml"},
		{"make: *** No targets specified and no makefile found.  Stop.", "Makefile"},
		{"Could not locate Gemfile", "Gemfile"},
		{"** (Mix) Could not find a Mix.Project, please ensure you are running Mix in a directory with a mix.exs file", "mix.exs"},
		{"error: could not compile `hello` due to previous error", ""},
		{"make: *** No rule to make target 'all'.  Stop.", ""},
		{"cat: Cargo.toml: No such file or directory", ""},
		{"error: failed to get `rand` as a dependency of package `hello`: Couldn't resolve host name", ""},
	} {
		got, ok := Missing(tt.output)
		if got != tt.want || ok != (tt.want != "") {
			t.Errorf("Missing(%q) = %q, %v; want %q", tt.output, got, ok, tt.want)
		}
	}
	if got := Line("warning: x\nerror: could not find `Cargo.toml` in `/w` or any parent directory\nmore"); got != "error: could not find `Cargo.toml` in `/w` or any parent directory" {
		t.Errorf("Line = %q", got)
	}
}
