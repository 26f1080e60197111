package codelang

import "testing"

func TestInfoLang(t *testing.T) {
	for info, want := range map[string]string{
		"":                     "",
		"Python":               "python",
		"python title=app.py":  "python",
		"{.bash}":              "bash",
		"python:app.py":        "python",
		"app.py":               "",
		"js,linenos":           "js",
		"console":              "console",
		"src/main.rs":          "",
		"shell-session $ echo": "shell-session",
		"{code-block} python":  "python",
		"{code-cell} ipython3": "ipython3",
		"{code}":               "",
		"{eval-rst}":           "eval-rst",
		"{python}":             "python",
	} {
		if got := InfoLang(info); got != want {
			t.Errorf("InfoLang(%q) = %q, want %q", info, got, want)
		}
	}
}

func TestShellishAndFileNames(t *testing.T) {
	if !IsShellish("bash") || !IsShellish("console") || IsShellish("python") {
		t.Errorf("IsShellish: bash and console are, python is not")
	}
	if !IsFileName("app.py") || !IsFileName("src/lib") || IsFileName("python") {
		t.Errorf("IsFileName: app.py and src/lib are files, python is a language")
	}
	if Name("") != "untagged" || Name("go") != "go" {
		t.Errorf("Name: an untagged block and a named one")
	}
}
