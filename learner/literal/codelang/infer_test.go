package codelang

import (
	"strings"
	"testing"

	"github.com/smile-loop/smile/spec/markdown"
)

func code(text string) []markdown.CodeLine {
	var out []markdown.CodeLine
	for i, l := range strings.Split(text, "\n") {
		out = append(out, markdown.CodeLine{Line: i + 1, Text: l})
	}
	return out
}

func TestInfer(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(1)\n}", "go"},
		{"#include <stdio.h>\nint main(void) { return 0; }", "c"},
		{"fn main() {\n    let x = 5;\n    println!(\"{x}\");\n}", "rust"},
		{"import sys\n\nprint(sys.argv)", "python"},
		{"def greet(name):\n    return 'hi ' + name", "python"},
		{"class Greeter\n  def initialize(name)\n    @name = name\n  end\nend", "ruby"},
		{"const http = require('http');\nconsole.log('up');", "javascript"},
		{"\tcd $GOPATH/src\n\tmkdir mymath", "bash"},
		{"main:\n\tgcc main.c -o main", "makefile"}, // a rule and its tab-indented recipe
		{"%.o: %.c\n\tgcc -c $< -o $@", "makefile"},
		{"$(BIN): main.o\n\tcc -o $@ $^", "makefile"},
		{".PHONY: clean", "makefile"},
		{"Changes to be committed:\n\tnew file: notes.txt", ""}, // git status, not a rule
		{"all clean:\n\trm -f app", "makefile"},
		{"def f():\n\treturn 1", "python"}, // Python indented with a tab
		{"try:\n\timport yaml\nexcept ImportError:\n\tpass", "python"},
		{"url: http://x\n\tmore", ""},
		{"export GOPATH=$HOME/go\n# then build\ngo build ./...", "bash"},
		{"./configure && \\\n  make", "bash"},
		{"SET greeting \"hello\"\nINCRBY visits 5\nLRANGE queue 0 -1", "redis"},
		{"SET greeting hello\nls -l", ""},
		{"Set the value first", ""},
		{"// SumInts adds the values of m.\nfunc SumInts(m map[string]int64) int64 {\n\tvar s int64\n\treturn s\n}", "go"},
		{"get \"/about\" do\n  \"About us\"\nend", "ruby"},
		{"defmodule Greeter do\n  def hi, do: :hi\nend", ""},
		{"func greet(name: String) -> String {\n  return name\n}", ""},
		{"Hello, world!", ""},
		{"perl 5.30.0 built for x86_64", ""},
		{"mymath.a", ""},
		{"frobnicate --all", ""},
		{"port: 8080\ndebug: true", ""},
	} {
		if got := Infer(code(tc.text), nil); got != tc.want {
			t.Errorf("Infer(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
	if got := Infer(code("frobnicate --all"), map[string]bool{"frobnicate": true}); got != "bash" {
		t.Errorf("a program the page names opens a command line: got %q", got)
	}
}
