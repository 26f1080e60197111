// Package codelang knows the languages of a page's code blocks: the language an
// info string names (InfoLang), which languages are shell scripts and which
// terminal sessions, whether an info-string word is a file name instead, and
// a language's name in a finding and the file extensions it is saved with.
package codelang

import (
	"regexp"
	"strings"

	"github.com/smile-loop/smile/spec/markdown"
)

// Shell and Console are the info-string languages of shell scripts and of
// terminal sessions (commands after prompts, with their output).
var (
	Shell   = set("sh", "bash", "shell", "zsh", "ksh", "shellscript", "posix")
	Console = set("console", "shell-session", "shellsession", "sh-session", "bash-session", "terminal")
)

// IsShellish says a language is a shell script's or a terminal session's.
func IsShellish(lang string) bool { return Shell[lang] || Console[lang] }

func set(names ...string) map[string]bool {
	m := map[string]bool{}
	for _, n := range names {
		m[n] = true
	}
	return m
}

// InfoLang is the language of a code block's info string, without any file
// name attached to it. A MyST code directive's language is its argument
// (```{code-block} python```); another directive's is its name.
func InfoLang(info string) string {
	if d, ok := markdown.MySTDirective(info); ok {
		if !d.Code() {
			return d.Name
		}
		info = d.Arg
	}
	fields := strings.Fields(info)
	if len(fields) == 0 {
		return ""
	}
	first := strings.ToLower(strings.TrimPrefix(strings.TrimSuffix(fields[0], "}"), "{"))
	first = strings.TrimPrefix(first, ".")
	first, _, _ = strings.Cut(first, ",")
	if lang, _, ok := strings.Cut(first, ":"); ok {
		return lang
	}
	if IsFileName(first) {
		return "" // ```app.py```: a file, language unknown
	}
	return first
}

// fileName is an info-string word that is a file, not a language:
// a name with an extension or a path.
var fileName = regexp.MustCompile(`^(?:[\w.~-]*/)*[\w~-][\w.~-]*\.[A-Za-z0-9]+$|^(?:[\w.~-]*/)+[\w.~-]+$`)

// IsFileName says an info-string word is a file, not a language.
func IsFileName(word string) bool { return fileName.MatchString(word) }

// Name is a code block's language as a finding names it: "untagged"
// for a block with none.
func Name(lang string) string {
	if lang == "" {
		return "untagged"
	}
	return lang
}

// Extensions maps a code block language to the file extensions it is
// saved with, to guess which file an unexplained block was meant to be: a
// language's companion files too (C++ headers, OCaml interfaces), and a
// site's tag for runnable snippets of a language (ocamltop) that a sentence
// may still name a file for.
var Extensions = map[string][]string{
	"python": {".py"}, "py": {".py"}, "go": {".go"}, "javascript": {".js", ".mjs", ".cjs"}, "js": {".js", ".mjs", ".cjs"},
	"typescript": {".ts"}, "ts": {".ts"}, "yaml": {".yaml", ".yml"}, "yml": {".yaml", ".yml"}, "json": {".json"},
	"toml": {".toml"}, "ini": {".ini", ".cfg", ".conf"}, "html": {".html"}, "css": {".css"}, "c": {".c", ".h"},
	"cpp": {".cpp", ".cc", ".cxx", ".hpp", ".h", ".hh", ".hxx"}, "java": {".java"}, "ruby": {".rb"}, "rb": {".rb"}, "rust": {".rs"},
	"php": {".php"}, "sql": {".sql"}, "xml": {".xml"}, "dockerfile": {"Dockerfile"}, "makefile": {"Makefile"}, "make": {"Makefile"}, "mk": {"Makefile"},
	"perl": {".pl", ".pm"}, "pl": {".pl"}, "lua": {".lua"}, "r": {".r", ".R"}, "haskell": {".hs"}, "hs": {".hs"},
	"elixir": {".ex", ".exs"}, "erlang": {".erl", ".hrl"}, "kotlin": {".kt"}, "swift": {".swift"}, "scala": {".scala"},
	"julia": {".jl"}, "csharp": {".cs"}, "cs": {".cs"}, "ocaml": {".ml", ".mli"}, "ocamltop": {".ml"}, "clojure": {".clj"}, "dart": {".dart"},
	"pascal": {".pas", ".pp"}, "fortran": {".f90", ".f95", ".f"}, "crystal": {".cr"}, "lisp": {".lisp", ".lsp"}, "scheme": {".scm"},
	"racket": {".rkt"}, "fsharp": {".fs", ".fsx"}, "cobol": {".cob", ".cbl"}, "nasm": {".asm"}, "asm": {".asm", ".s"},
	"zig": {".zig"}, "nim": {".nim"}, "tcl": {".tcl"}, "awk": {".awk"}, "sed": {".sed"}, "jsx": {".jsx"}, "tsx": {".tsx"},
	"markdown": {".md"}, "md": {".md"}, "csv": {".csv"}, "c++": {".cpp", ".cc", ".cxx", ".hpp", ".h", ".hh", ".hxx"},
	// Servers' configuration languages.
	"nginx": {".conf"}, "apache": {".conf", ".htaccess"}, "apacheconf": {".conf", ".htaccess"}, "caddy": {"Caddyfile"},
	"caddyfile": {"Caddyfile"}, "systemd": {".service", ".timer", ".socket"}, "properties": {".properties"},
	"cmake": {"CMakeLists.txt", ".cmake"}, "meson": {"meson.build"}, "gradle": {".gradle"}, "groovy": {".groovy", ".gradle"},
}

// Clients are the programs a language's blocks are typed into when nothing
// on the page places them: Redis's commands (`SET greeting hello`) are
// redis-cli's input, whatever the fence says.
var Clients = map[string]string{"redis": "redis-cli"}
