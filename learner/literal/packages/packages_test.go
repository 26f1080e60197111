package packages

import (
	"errors"
	"slices"
	"testing"
)

func TestCommandsOf(t *testing.T) {
	if got, want := CommandsOf("golang-go"), []string{"go", "gofmt"}; !slices.Equal(got, want) {
		t.Errorf("CommandsOf(golang-go) = %q, want %q", got, want)
	}
	// A package named like its command does not list itself.
	if got := CommandsOf("jq"); len(got) != 0 {
		t.Errorf("CommandsOf(jq) = %q, want none", got)
	}
	if got, want := CommandsOf("python3"), []string{"python"}; !slices.Contains(got, want[0]) || slices.Contains(got, "python3") {
		t.Errorf("CommandsOf(python3) = %q, want it to hold %q and not python3", got, want)
	}
}

func TestForEachFamily(t *testing.T) {
	for _, tt := range []struct {
		pm   Manager
		want string
	}{{APT, "python-is-python3"}, {APK, "python3"}, {DNF, "python-unversioned-command"}, {YUM, "python-unversioned-command"}} {
		if got := For("python", tt.pm); got != tt.want {
			t.Errorf("For(python, %s) = %q, want %q", tt.pm, got, tt.want)
		}
	}
	// A language's tools come in its package (Elixir's mix, GHC's ghci), and a
	// command's name is not always its package's (clang++ is clang's).
	for cmd, want := range map[string]string{"mix": "elixir", "iex": "elixir", "ghci": "ghc", "erl": "erlang", "ninja": "ninja-build", "clang++": "clang", "irb": "ruby", "rg": "ripgrep", "stack": "haskell-stack"} {
		if got := For(cmd, APT); got != want {
			t.Errorf("For(%s, apt) = %q, want %q", cmd, got, want)
		}
	}
	if got := For("frobnicate", APT); got != "" {
		t.Errorf("For(frobnicate) = %q, want none", got)
	}
}

func TestDetect(t *testing.T) {
	onPath := func(names ...string) func(string) (string, error) {
		return func(name string) (string, error) {
			if slices.Contains(names, name) {
				return "/usr/bin/" + name, nil
			}
			return "", errors.New("not found")
		}
	}
	if pm, ok := Detect(onPath("yum", "dnf")); !ok || pm != DNF {
		t.Errorf("Detect(yum, dnf) = %s, %v; want dnf first", pm, ok)
	}
	if pm, ok := Detect(onPath()); ok {
		t.Errorf("Detect() = %s, want none", pm)
	}
}
