package session

import (
	"strings"
	"testing"
)

// Captured from bash 5.2 (Debian bookworm) after
// x=$'a\nb'; arr=(1 "two words"); declare -A m=([k]=v); export E; export F=1
const bashVars = `declare -- BASH="/usr/bin/bash"
declare -r BASHOPTS="checkwinsize:cmdhist"
declare -i BASHPID
declare -ar BASH_VERSINFO=([0]="5" [1]="2" [2]="15" [3]="1" [4]="release" [5]="x86_64-pc-linux-gnu")
declare -x E
declare -ir EUID="0"
declare -x F="1"
declare -x HOME="/root"
declare -- IFS=$' \t\n'
declare -x OLDPWD
declare -a PIPESTATUS=([0]="0")
declare -ir PPID="0"
declare -x PWD="/"
declare -i RANDOM
declare -r SHELLOPTS="braceexpand:hashall:interactive-comments"
declare -- _="ll"
declare -a arr=([0]="1" [1]="two words")
declare -A m=([k]="v" )
declare -- x=$'a\nb'
declare -- multi="line one
line two"
declare -r RO="fixed"
declare -- __smile_rc="0"
`

func TestParseBashDump(t *testing.T) {
	st, err := parseBashDump(bashVars, "greet () \n{ \n    echo hi\n}\n", "alias ll='ls -l'\n", "shopt -u autocd\nshopt -u login_shell\nset -o errexit\nset +o xtrace\n")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"F", "HOME", "IFS", "arr", "m", "x", "multi", "RO"} {
		if !st.Set(name) {
			t.Errorf("%s should be set", name)
		}
	}
	for _, name := range []string{"E", "OLDPWD", "BASH", "EUID", "PPID", "PWD", "RANDOM", "_", "__smile_rc", "PIPESTATUS"} {
		if st.Set(name) {
			t.Errorf("%s should not be set", name)
		}
	}
	for _, want := range []string{`declare -x F="1"`, `declare -a arr=([0]="1" [1]="two words")`, `declare -A m=([k]="v" )`,
		"declare -- multi=\"line one\nline two\"", `declare -x E`, `declare -r RO="fixed"`, "greet () \n{", "alias ll='ls -l'"} {
		if !strings.Contains(st.body, want) {
			t.Errorf("restore body lacks %q:\n%s", want, st.body)
		}
	}
	for _, unwanted := range []string{"BASHOPTS", "EUID", "PPID", "PWD=", "__smile_rc", "RANDOM", "BASH_VERSINFO", "SHELLOPTS"} {
		if strings.Contains(st.body, unwanted) {
			t.Errorf("restore body keeps %q:\n%s", unwanted, st.body)
		}
	}
	if want := "shopt -u autocd 2>/dev/null\nset -o errexit 2>/dev/null\nset +o xtrace 2>/dev/null\n"; st.options != want {
		t.Errorf("options = %q, want %q", st.options, want)
	}
}

func TestParseShDump(t *testing.T) {
	// busybox ash: set, export -p, alias (dash prints aliases without "alias ").
	vars := "F='1'\nFUNCNAME=''\nHOME='/'\nIFS=' \t\n'\nLINENO=''\nPPID='0'\nPWD='/'\nx='a\nb'\n"
	exports := "export E\nexport F='1'\nexport HOME='/'\nexport PWD='/'\n"
	st, err := parseShDump(vars, exports, "ll='ls -l'\nalias la='ls -a'\n", "set +o errexit\nset -o noglob\n")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"F", "HOME", "IFS", "x"} {
		if !st.Set(name) {
			t.Errorf("%s should be set", name)
		}
	}
	for _, name := range []string{"E", "PPID", "PWD", "LINENO", "FUNCNAME"} {
		if st.Set(name) {
			t.Errorf("%s should not be set", name)
		}
	}
	for _, want := range []string{"F='1'\n", "x='a\nb'\n", "export E\n", "export F\n", "alias ll='ls -l'\n", "alias la='ls -a'\n"} {
		if !strings.Contains(st.body, want) {
			t.Errorf("restore body lacks %q:\n%s", want, st.body)
		}
	}
	if strings.Contains(st.body, "PPID") || strings.Contains(st.body, "export PWD") {
		t.Errorf("restore body keeps special variables:\n%s", st.body)
	}
}

func TestScript(t *testing.T) {
	st := State{Cwd: "/workspace/work/it's here", body: "declare -x F=\"1\"\n", options: "set -o errexit 2>/dev/null\n"}
	got := st.script(true, "/workspace/work")
	for _, want := range []string{
		"unset BASH_ENV\n",
		`command cd -- '/workspace/work/it'\''s here' 2>/dev/null || command cd -- '/workspace/work'`,
		"declare -x F=\"1\"\n",
		">|/dev/fd/60",
		"exec 3<&-\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("script lacks %q:\n%s", want, got)
		}
	}
	// Options come after the trap: errexit must not stop the restore itself.
	if strings.Index(got, "set -o errexit") < strings.Index(got, "trap ") {
		t.Errorf("options restored before the save trap:\n%s", got)
	}
	if f, err := parse(got); err != nil || len(f.Stmts) == 0 {
		t.Errorf("script does not parse: %v", err)
	}
}
