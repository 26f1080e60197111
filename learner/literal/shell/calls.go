package shell

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Calls is the words of every simple command of a command line, in order:
// each side of `&&`, `||` and `|`, the commands in a subshell, a block or a
// command substitution. Quotes are removed from literal words; a word that is
// not literal keeps its source text. A leading `sudo` and its options are
// dropped, as in FirstArgs. nil when the line does not parse.
func Calls(command string) [][]string {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(command), "")
	if err != nil {
		return nil
	}
	var calls [][]string
	syntax.Walk(f, func(n syntax.Node) bool {
		call, ok := n.(*syntax.CallExpr)
		if !ok || len(call.Args) == 0 {
			return true
		}
		words := make([]string, 0, len(call.Args))
		for _, w := range call.Args {
			words = append(words, wordText(command, w))
		}
		calls = append(calls, withoutSudo(words))
		return true
	})
	return calls
}

// withoutSudo drops a leading sudo and its options.
func withoutSudo(words []string) []string {
	for len(words) > 1 && words[0] == "sudo" {
		words = words[1:]
		for len(words) > 1 && strings.HasPrefix(words[0], "-") {
			words = words[1:]
		}
	}
	return words
}

// NamesFile reports whether a command of script takes the file name as a
// word (`bash greet.sh`, `chmod +x ./greet.sh`, `cat dir/greet.sh`): a
// block that does is commands about the file, not the file's text.
func NamesFile(script, name string) bool {
	base := path.Base(name)
	for _, call := range Calls(script) {
		for _, w := range call {
			if w == name || w == base || path.Base(w) == base && strings.Contains(w, "/") {
				return true
			}
		}
	}
	return false
}
