// Package chosenname fills in the names a page leaves to its reader. A
// page of notes often gives a command's general form with a placeholder for
// a name the reader picks (`sqlite3 <db>.sqlite3`, `mkdir <project>`) and
// then uses that name in later forms (`sqlite3 <db>.sqlite3 .dump >
// <dump>.sql`). A reader picks a name and types it each time; skipping
// every such command leaves the page untested. So when a form makes what
// its placeholder names (shell.Creates, or a database it opens), that
// placeholder is a name of the reader's choosing: the Student fills it in
// with its own word, the same everywhere on the page. A placeholder one
// letter off a chosen one is filled with its own word too, so the page's
// slip shows as the failure a reader meets. A placeholder for something
// that must exist already (a URL, a host, a user, a key, a commit) is
// never filled.
package chosenname

import (
	"regexp"
	"slices"
	"strings"

	"github.com/smile-loop/smile/learner/literal/codelang"
	"github.com/smile-loop/smile/learner/literal/destination"
	"github.com/smile-loop/smile/learner/literal/placeholder"
	"github.com/smile-loop/smile/learner/literal/rule"
	"github.com/smile-loop/smile/learner/literal/shell"
	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/spec/markdown"
)

// Rule is that reading.
var Rule = rule.Register(rule.Rule{ID: "name.reader-chosen", Scope: rule.ScopeStep,
	Doc: "a placeholder for a name the reader picks, which a form of the page makes (`sqlite3 <db>.sqlite3`, `mkdir <project>`), is filled with its own word wherever the page uses it, and the form is run"})

// Filled is one command line the Student fills in.
type Filled struct {
	Line int
	// Tokens are the placeholders filled (`<db>`), and Maker the line of
	// the form that makes the first one.
	Tokens []string
	Maker  int
}

// token is a placeholder in angle brackets or single braces, one word.
var token = regexp.MustCompile(`<(\pL[\pL\pN_.-]*)>|\{(\pL[\pL\pN_-]*)\}`)

// mustExist are words of a placeholder for what the reader must already
// have, which no name of their own can stand for.
var mustExist = map[string]bool{"url": true, "uri": true, "repo": true, "repository": true, "host": true, "hostname": true,
	"server": true, "ip": true, "address": true, "port": true, "user": true, "username": true, "email": true, "mail": true,
	"password": true, "passwd": true, "token": true, "key": true, "secret": true, "id": true, "hash": true, "commit": true,
	"sha": true, "version": true, "remote": true, "origin": true, "pid": true, "container": true, "image": true}

// Fill returns the page with its chosen names filled in (a copy; tut is
// left as it is) and the lines it filled.
func Fill(tut *spec.Tutorial) (*spec.Tutorial, []Filled) {
	chosen := map[string]int{} // placeholder -> line of the form that makes it
	var templates []markdown.CodeLine
	for _, b := range tut.Blocks {
		if b.Kind != markdown.BlockCode || b.Lang != "" && !codelang.IsShellish(b.Lang) {
			continue
		}
		for _, l := range b.Code {
			if placeholder.Template(command(l.Text)) != "" && token.MatchString(l.Text) {
				templates = append(templates, l)
			}
		}
	}
	for _, l := range templates {
		cmd := command(l.Text)
		filled := fillAll(cmd)
		for _, m := range token.FindAllStringSubmatch(cmd, -1) {
			if _, ok := chosen[m[0]]; !ok && ownName(inner(m)) && makes(filled, word(inner(m))) {
				chosen[m[0]] = l.Line
			}
		}
	}
	for _, l := range templates {
		for _, m := range token.FindAllStringSubmatch(l.Text, -1) {
			if _, ok := chosen[m[0]]; ok || !ownName(inner(m)) {
				continue
			}
			for c, line := range chosen {
				if destination.OneLetterOff(strings.Trim(c, "<>{}"), inner(m)) {
					chosen[m[0]] = line
					break
				}
			}
		}
	}
	return rewrite(tut, templates, chosen)
}

// rewrite fills in each template line whose every placeholder is chosen
// and that is no template once filled.
func rewrite(tut *spec.Tutorial, templates []markdown.CodeLine, chosen map[string]int) (*spec.Tutorial, []Filled) {
	byLine := map[int]Filled{}
	for _, l := range templates {
		ms := token.FindAllString(l.Text, -1)
		all := !slices.ContainsFunc(ms, func(t string) bool { _, ok := chosen[t]; return !ok })
		if !all || placeholder.Template(command(fillAll(l.Text))) != "" {
			continue
		}
		byLine[l.Line] = Filled{Line: l.Line, Tokens: ms, Maker: chosen[ms[0]]}
	}
	if len(byLine) == 0 {
		return tut, nil
	}
	c := *tut
	c.Blocks = slices.Clone(tut.Blocks)
	var out []Filled
	for i, b := range c.Blocks {
		if b.Kind != markdown.BlockCode {
			continue
		}
		code := slices.Clone(b.Code)
		changed := false
		for k, l := range code {
			if f, ok := byLine[l.Line]; ok {
				code[k].Text, changed = fillAll(l.Text), true
				out = append(out, f)
			}
		}
		if changed {
			text := make([]string, len(code))
			for k, l := range code {
				text[k] = l.Text
			}
			b.Code, b.Text = code, strings.Join(text, "\n")+"\n"
			c.Blocks[i] = b
		}
	}
	return &c, out
}

// command is a code line without its prompt.
func command(line string) string {
	return strings.TrimPrefix(strings.TrimSpace(line), "$ ")
}

func inner(m []string) string { return m[1] + m[2] }

// word is what the Student types for a placeholder: its own word, in
// letters a file name can hold.
func word(in string) string {
	var b strings.Builder
	for _, r := range in {
		switch {
		case r < 128 && (r == '_' || r == '-' || r == '.' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'):
			b.WriteRune(r)
		case r >= 128 && b.Len() == 0:
			b.WriteString("name")
		}
	}
	if b.Len() == 0 {
		return "name"
	}
	return b.String()
}

func fillAll(text string) string {
	return token.ReplaceAllStringFunc(text, func(t string) string {
		return word(inner(token.FindStringSubmatch(t)))
	})
}

// ownName: none of the placeholder's words is something that must exist.
func ownName(in string) bool {
	for _, w := range strings.FieldsFunc(strings.ToLower(in), func(r rune) bool { return r == '_' || r == '-' || r == '.' || r == ' ' }) {
		if mustExist[w] {
			return false
		}
	}
	return true
}

// makes: the filled form makes a file or folder whose name holds w, or
// opens (and so makes) a database file named with it.
func makes(filled, w string) bool {
	for _, f := range strings.Fields(filled) {
		f = strings.Trim(f, `'"<>`)
		if strings.Contains(f, w) && shell.Creates(filled, f) {
			return true
		}
	}
	if words := strings.Fields(filled); len(words) > 1 && words[0] == "sqlite3" {
		for _, a := range words[1:] {
			if !strings.HasPrefix(a, "-") {
				return strings.Contains(a, w)
			}
		}
	}
	return false
}
