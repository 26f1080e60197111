package shell

import (
	"path"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Creates reports whether command makes the file or folder name (a path
// relative to where it runs, compared by its first element): `mkdir name`,
// `touch name`, `cp x name`, `git clone URL name`, `cargo new name`, `tee
// name`, `> name`. A page that makes a name itself must not find it there
// already: `mkdir lab` fails when lab exists.
func Creates(command, name string) bool {
	name = firstElement(name)
	if name == "" {
		return false
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(command), "")
	if err != nil {
		return false
	}
	found := false
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Redirect:
			if n.Op == syntax.RdrOut || n.Op == syntax.AppOut || n.Op == syntax.RdrAll || n.Op == syntax.AppAll || n.Op == syntax.RdrClob {
				if lit, ok := Literal(n.Word); ok && firstElement(lit) == name {
					found = true
				}
			}
		case *syntax.CallExpr:
			words := make([]string, 0, len(n.Args))
			for _, w := range n.Args {
				words = append(words, wordText(command, w))
			}
			if slices.ContainsFunc(createdBy(withoutSudo(words)), func(w string) bool { return firstElement(w) == name }) {
				found = true
			}
		}
		return !found
	})
	return found
}

// scaffolders make a project folder with a subcommand (`cargo new NAME`,
// `rails new NAME`, `django-admin startproject NAME`).
var (
	scaffolders   = map[string]bool{"cargo": true, "rails": true, "dotnet": true, "django-admin": true, "composer": true, "npm": true, "yarn": true, "mix": true, "stack": true, "hugo": true, "jekyll": true, "flutter": true, "ng": true, "vue": true, "poetry": true, "uv": true, "npx": true}
	scaffoldVerbs = map[string]bool{"new": true, "init": true, "startproject": true, "startapp": true, "create-project": true, "create": true, "site": true}
)

// createdBy is the words of one simple command that name what it makes.
func createdBy(words []string) []string {
	if len(words) < 2 {
		return nil
	}
	args := operands(words[1:])
	switch path.Base(words[0]) {
	case "mkdir", "touch", "tee", "truncate":
		return args
	case "cp", "mv", "ln", "install", "rsync":
		if len(args) > 1 {
			return args[len(args)-1:]
		}
	case "git":
		if len(args) > 0 && args[0] == "clone" {
			return args[1:]
		}
	}
	if scaffolders[path.Base(words[0])] {
		for i, a := range args {
			if scaffoldVerbs[a] {
				return args[i+1:]
			}
		}
	}
	return nil
}

// operands drops a command's options (words that start with `-`).
func operands(words []string) []string {
	var out []string
	for _, w := range words {
		if !strings.HasPrefix(w, "-") {
			out = append(out, w)
		}
	}
	return out
}

// firstElement is a relative path's first element (`lab/a.c` is `lab`), ""
// for an absolute path or one that leaves the folder.
func firstElement(p string) string {
	p = path.Clean(strings.TrimPrefix(p, "./"))
	if path.IsAbs(p) || p == "." || p == ".." || strings.HasPrefix(p, "../") || strings.ContainsAny(p, "$`*?[{~") {
		return ""
	}
	first, _, _ := strings.Cut(p, "/")
	return first
}
