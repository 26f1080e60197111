package notshell

import (
	"strings"
	"testing"

	"github.com/smile-loop/smile/spec/markdown"
)

func codeLines(src string) []markdown.CodeLine {
	var lines []markdown.CodeLine
	for i, t := range strings.Split(src, "\n") {
		lines = append(lines, markdown.CodeLine{Line: 10 + i, Text: t})
	}
	return lines
}

func TestOtherSyntax(t *testing.T) {
	for src, want := range map[string]bool{
		"for (i = 0; i < n; i++)":                  true,
		"# a loop\nwhile (x > 0) {\n  x--\n}":      true,
		"hits[$3]++":                               true,
		"n++":                                      true,
		"sum += $2":                                true,
		`printf("%d\n", NF)`:                       true,
		"print(len(words))":                        true,
		"for ((i = 0; i < 3; i++)); do :; done":    false,
		"if ( true ); then echo ok; fi":            false,
		"names[2]=bob":                             false,
		"count=3":                                  false,
		"greet() {\n  echo hi\n}":                  false,
		"ls --all -l":                              false,
		"make -j4 all":                             false,
		"docker run -e A=1 img":                    false,
		"iex(1)> 1 + 1":                            false,
		"irb(main):001:0> 2 ** 5":                  false,
		"awk '{ n[$1]++ } END { print n[\"a\"] }'": false,
		"": false,
	} {
		why, ev := OtherSyntax(codeLines(src))
		if got := ev != nil; got != want {
			t.Errorf("OtherSyntax(%q) = %q, %v; want a piece of another language: %v", src, why, ev, want)
		}
		if ev != nil && (ev.Rule != "text.other-syntax" || ev.Line < 10) {
			t.Errorf("OtherSyntax(%q) evidence %+v", src, *ev)
		}
	}
}
