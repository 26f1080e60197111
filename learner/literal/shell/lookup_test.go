package shell

import "testing"

func TestLooksUp(t *testing.T) {
	for cmd, want := range map[string]string{
		"which lua5.4":           "lua5.4",
		"which -a python3":       "python3",
		"command -v node":        "node",
		"type -p git":            "git",
		"whereis gcc":            "gcc",
		"sudo which make":        "make",
		"node --version":         "node",
		"lua -v":                 "lua",
		"go version":             "go",
		"which lua && lua -v":    "",
		"which python3 | head":   "",
		"./build.sh --version":   "",
		"which":                  "",
		"which gcc g++":          "",
		"lua -v script.lua":      "",
		"apt-get install -y lua": "",
		"command node x.js":      "",
	} {
		if got := LooksUp(cmd); got != want {
			t.Errorf("LooksUp(%q) = %q, want %q", cmd, got, want)
		}
	}
}
