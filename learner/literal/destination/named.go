package destination

import (
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/smile-loop/smile/learner/literal/codelang"
)

var mentionedFile = regexp.MustCompile(FileToken)

// FilesNamed lists the distinct file names in text that fit.
func FilesNamed(text string, fits func(string) bool) []string {
	var out []string
	for _, loc := range mentionedFile.FindAllStringIndex(text, -1) {
		m := text[loc[0]:loc[1]]
		if inAddress(text, loc[0], m) {
			continue // a URL's path or a host's: no file of the reader's
		}
		n := CleanFileName(m)
		if n == "" || !codelang.IsFileName(path.Base(n)) && !WellKnown(path.Base(n)) || !fits(n) {
			continue
		}
		if v := varPrefix.FindStringSubmatch(n); v != nil && strings.Contains(text, "$"+n) {
			n = "$" + n // `$GOPATH/src/app/main.go`: under the folder the variable holds
		}
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// hostPart is a path whose first element is a host name (`github.com/...`).
var hostPart = regexp.MustCompile(`^(?:[a-z0-9-]+\.)+(?:com|org|net|io|dev|edu|gov|co|app|de|fr|es|it|ru|jp|cn|uk|nl|pl|br|in)/`)

// inAddress: the match at start is part of an address, not a file: it
// follows a URL's scheme (`https:` then `//host/path`), or its first element
// is a host name.
func inAddress(text string, start int, m string) bool {
	return strings.HasPrefix(m, "//") || start > 0 && text[start-1] == ':' || hostPart.MatchString(strings.ToLower(strings.Trim(m, "`")))
}

// varPrefix: a path whose first part is a variable's name once its `$`
// is taken away (GOPATH/src/...).
var varPrefix = regexp.MustCompile(`^[A-Z_][A-Z0-9_]*/`)

// commentStart is a line comment or a block comment's opening, in the
// languages code blocks are written in.
var commentStart = regexp.MustCompile(`^\s*(?:#|//|--|;+|%|/\*|<!--|\(\*|\{-)\s*`)

// LineComment is the text of a line when it is a comment (not a #! line nor
// a C preprocessor's line), else "".
func LineComment(line string) string {
	if strings.HasPrefix(strings.TrimSpace(line), "#!") || !commentStart.MatchString(line) || preprocessor.MatchString(line) {
		return ""
	}
	return commentStart.ReplaceAllString(line, "")
}

// preprocessor: a C preprocessor's line (`#include <stdio.h>`), which
// starts with `#` and is no comment.
var preprocessor = regexp.MustCompile(`^\s*#\s*(?:include|define|undef|if|ifdef|ifndef|elif|else|endif|pragma|import|error|warning|line)\b`)

// Part is one file of a block that holds several, each under a comment that
// is its name: lines [From, To) of the block's code.
type Part struct {
	Path     string
	From, To int
}

// headerLabel is what may come before the name in a header comment:
// "file:", "filename:", in the languages pages are written in.
var headerLabel = regexp.MustCompile(`(?i)^(?:file(?:name)?|datei(?:name)?|fichier|archivo|arquivo|file\s+name|ファイル(?:名)?|文件(?:名)?|파일(?:명)?|файл)\s*[:：]\s*`)

// commentEnd is a block comment's closing.
var commentEnd = regexp.MustCompile(`\s*(?:\*/|-->|\*\)|-\})\s*$`)

// header is the file a line names when the line is a comment that is only
// a file's name (`// hello.h`, `# file: app/models.py`, `/* main.c */`).
func header(line string, fits func(string) bool) string {
	c := LineComment(line)
	if c == "" {
		return ""
	}
	c = headerLabel.ReplaceAllString(commentEnd.ReplaceAllString(strings.TrimSpace(c), ""), "")
	c = strings.Trim(c, "`*\"' ")
	if c == "" || strings.ContainsAny(c, " \t") {
		return ""
	}
	if names := FilesNamed(c, fits); len(names) == 1 && (names[0] == c || path.Base(names[0]) == path.Base(c)) {
		return names[0]
	}
	return ""
}

// Parts splits a block that holds several files, each opened by a comment
// that is only its name (a header file then its source, a module then its
// test): its first line must be such a header, and at least one more, after
// a blank line, must name another file. nil when the block is one file.
func Parts(code []string, fits func(string) bool) []Part {
	if len(code) == 0 {
		return nil
	}
	first := header(code[0], fits)
	if first == "" {
		return nil
	}
	parts := []Part{{Path: first}}
	for i := 1; i < len(code); i++ {
		if strings.TrimSpace(code[i-1]) != "" {
			continue
		}
		name := header(code[i], fits)
		if name == "" || slices.ContainsFunc(parts, func(p Part) bool { return p.Path == name }) {
			continue
		}
		parts[len(parts)-1].To = i
		parts = append(parts, Part{Path: name, From: i})
	}
	if len(parts) < 2 {
		return nil
	}
	parts[len(parts)-1].To = len(code)
	return parts
}

// OneLetterOff: two names a single letter apart (added, dropped or changed).
func OneLetterOff(a, b string) bool {
	if a == b || len(a)-len(b) > 1 || len(b)-len(a) > 1 {
		return false
	}
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	j, k := len(a), len(b)
	for j > i && k > i && a[j-1] == b[k-1] {
		j--
		k--
	}
	return j-i <= 1 && k-i <= 1
}

// ShellFile: a file written in the shell's syntax (a script, a Bats test,
// direnv's .envrc, a start-up file).
func ShellFile(name string) bool {
	switch path.Ext(name) {
	case ".sh", ".bash", ".zsh", ".ksh", ".bats", ".envrc":
		// Bats test files and direnv's are written in the shell's syntax.
		return true
	}
	switch path.Base(name) {
	case ".bashrc", ".bash_profile", ".profile", ".zshrc":
		return true
	}
	return false
}
