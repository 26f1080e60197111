package shell

import (
	"path"
	"regexp"
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

// shellRunners are the shells that run a script file named as their first
// argument that is not an option.
var shellRunners = map[string]bool{"bash": true, "sh": true, "zsh": true, "dash": true, "ksh": true}

// langRunners run a program file of their language the same way.
var langRunners = map[string]bool{"python": true, "python3": true, "node": true, "ruby": true, "perl": true, "php": true, "lua": true}

// RunsScript reports the script file a one-program command runs (`bash
// script.sh arg`, `python3 main.py`, `./script.sh`) and the program it runs
// it with ("" for `./file`, which runs it by its #! line). ok is false for
// anything else: a pipeline, a chain, an inline program (`bash -c`).
func RunsScript(command string) (file, runner string, ok bool) {
	calls := Calls(command)
	if len(calls) != 1 || len(calls[0]) == 0 {
		return "", "", false
	}
	words := calls[0]
	if strings.HasPrefix(words[0], "./") && len(words[0]) > 2 {
		return words[0][2:], "", true
	}
	if !shellRunners[words[0]] && !langRunners[words[0]] {
		return "", "", false
	}
	for _, w := range words[1:] {
		switch {
		case w == "-c" || w == "-e" || w == "-m" || w == "-s":
			return "", "", false // an inline program, a module, the standard input
		case strings.HasPrefix(w, "-"):
			continue
		case strings.ContainsAny(w, "$`*?") || strings.ContainsAny(w, " \t"):
			return "", "", false
		}
		return strings.TrimPrefix(w, "./"), words[0], true
	}
	return "", "", false
}

// IsShell reports whether runner is a shell (bash, sh, ...).
func IsShell(runner string) bool { return shellRunners[runner] }

// scriptArg is a program's file argument: a name with a source or script
// extension.
var scriptArg = regexp.MustCompile(`^[\w./~-]+\.(?:js|mjs|cjs|ts|py|rb|pl|php|sh|go|rs|java|jar|lua|ex|exs|R|jl|dart|kt|swift)$`)

// ScriptArg reports whether a command's word names a source or script file
// (`app.js`, `./tools/run.sh`).
func ScriptArg(word string) bool { return scriptArg.MatchString(word) }
