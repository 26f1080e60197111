// Package makerule reads what a Makefile's rules are made from: the
// prerequisites after each target's colon (`hello: hello.c util.h`), the
// files a page that shows the Makefile has the reader write.
package makerule

import (
	"path"
	"regexp"
	"strings"
)

// rule is a rule's line: targets, one or two colons, then the
// prerequisites (not a `:=` assignment, not a recipe's tab-indented line).
var rule = regexp.MustCompile(`(?m)^[^\t#=\s][^:=\n]*::?(.*)$`)

// IsMakefile reports whether a file name is one make reads by itself.
func IsMakefile(name string) bool {
	switch path.Base(name) {
	case "Makefile", "makefile", "GNUmakefile":
		return true
	}
	return false
}

// Prerequisites are the prerequisites of the Makefile text's rules, in
// order, without variables and pattern rules' stems.
func Prerequisites(text string) []string {
	var out []string
	for _, m := range rule.FindAllStringSubmatch(text, -1) {
		if strings.HasPrefix(m[1], "=") {
			continue // VAR := value
		}
		deps, _, _ := strings.Cut(m[1], ";")
		deps, _, _ = strings.Cut(deps, "#")
		for _, w := range strings.Fields(deps) {
			if !strings.ContainsAny(w, "$%") {
				out = append(out, w)
			}
		}
	}
	return out
}

// recipe is a recipe's line: a tab, then a command.
var recipe = regexp.MustCompile(`(?m)^\t\S`)

// Defines reports whether Makefile text has a rule for one of targets or,
// with no targets (plain `make`, which builds the first rule's), a rule
// with a recipe: the text is then the Makefile a `make` asking for them
// reads. A line of make's own output (`make: *** No rule`) is no rule.
func Defines(text string, targets []string) bool {
	var defined []string
	for _, m := range rule.FindAllStringSubmatch(text, -1) {
		if strings.HasPrefix(m[1], "=") {
			continue // VAR := value
		}
		head, _, _ := strings.Cut(m[0], ":")
		for _, t := range strings.Fields(head) {
			if t != "make" && !strings.HasPrefix(t, "make[") {
				defined = append(defined, t)
			}
		}
	}
	if len(targets) == 0 {
		return len(defined) > 0 && recipe.MatchString(text)
	}
	for _, t := range targets {
		for _, d := range defined {
			if t == d {
				return true
			}
		}
	}
	return false
}
