package depend

import (
	"strings"

	"github.com/smile-loop/smile/learner/literal/shell"
	"mvdan.cc/sh/v3/syntax"
)

// builtin names are the shell's own: they start no program.
var builtin = map[string]bool{
	"cd": true, "pushd": true, "popd": true, "echo": true, "printf": true, "export": true, "source": true, ".": true,
	"eval": true, "alias": true, "read": true, "set": true, "unset": true, "test": true, "[": true, "[[": true,
	"true": true, "false": true, "exit": true, "return": true, "shift": true, "local": true, "declare": true,
	"type": true, "hash": true, "wait": true, "jobs": true, "kill": true, "trap": true, "umask": true, "ulimit": true,
}

// installers are package managers with the word that installs.
var installers = map[string][]string{
	"apt-get": {"install"}, "apt": {"install"}, "dnf": {"install"}, "yum": {"install"}, "apk": {"add"},
	"zypper": {"install", "in"}, "pacman": {"-S"}, "brew": {"install"}, "pip": {"install"}, "pip3": {"install"},
	"npm": {"install", "i"}, "pnpm": {"add", "install"}, "yarn": {"add"}, "gem": {"install"}, "cargo": {"install"},
	"go": {"install"}, "conda": {"install"}, "pipx": {"install"},
}

// installed: the packages a package manager's install command names (a
// package that is a program makes that program).
func installed(name string, rest []string) ([]string, bool) {
	verbs, ok := installers[name]
	if !ok {
		return nil, false
	}
	for i, a := range rest {
		for _, v := range verbs {
			if a == v {
				var pkgs []string
				for _, p := range withoutFlags(rest[i+1:]) {
					p = strings.SplitN(p, "@", 2)[0] // go install x@latest
					if f := strings.FieldsFunc(p, func(r rune) bool { return r == '=' || r == '<' || r == '>' }); len(f) > 0 {
						p = f[0]
					}
					if i := strings.LastIndexByte(p, '/'); i >= 0 {
						p = p[i+1:]
					}
					pkgs = append(pkgs, p)
				}
				return pkgs, true
			}
		}
	}
	return nil, false
}

// words are the arguments as the shell sees them: a word with an
// expansion only the running shell can spell is "".
func words(args []*syntax.Word) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = literal(a)
	}
	return out
}

// literal is a word without expansions, its quotes removed ("" when it
// has any).
func literal(w *syntax.Word) string {
	s, _ := shell.Literal(w)
	return s
}

func withoutFlags(args []string) []string {
	var out []string
	for _, a := range args {
		if !strings.HasPrefix(a, "-") || a == "-" {
			out = append(out, a)
		}
	}
	return out
}

// pathLike: a word that could name a file or folder (not empty, a flag, a
// URL, an assignment or a mode such as +x).
func pathLike(w string) bool {
	return w != "" && !strings.HasPrefix(w, "-") && !strings.HasPrefix(w, "+") && !strings.Contains(w, "://") &&
		!strings.ContainsAny(w, "=\n \t@:") && w != "."
}

// local: a word that addresses this machine (a request to a server the page
// started).
func local(w string) bool {
	for _, h := range []string{"localhost", "127.0.0.1", "0.0.0.0", "[::1]"} {
		if strings.Contains(w, h) {
			return true
		}
	}
	return false
}
