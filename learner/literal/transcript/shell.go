package transcript

import (
	"regexp"
	"strings"

	"github.com/smile-loop/smile/spec/markdown"

	"mvdan.cc/sh/v3/syntax"
)

// incomplete reports whether shell text needs more lines to be a command.
func incomplete(text string) bool {
	if strings.HasSuffix(strings.TrimRight(text, " \t"), `\`) {
		return true
	}
	_, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(text+"\n"), "")
	return err != nil && syntax.IsIncomplete(err)
}

var (
	// styleTag: the markup animated-terminal widgets put in a transcript to colour it.
	styleTag = regexp.MustCompile(`(?i)</?(?:font|span|b|u|i|em|strong)\b[^>]*>`)
	entities = strings.NewReplacer("&apos;", "'", "&quot;", `"`, "&lt;", "<", "&gt;", ">", "&amp;", "&", "&#39;", "'")
)

// plainTranscript removes colouring markup from a transcript, so that its
// commands and output read as they appear in a terminal.
func plainTranscript(lines []markdown.CodeLine) []markdown.CodeLine {
	marked := false
	for _, l := range lines {
		if styleTag.MatchString(l.Text) {
			marked = true
			break
		}
	}
	if !marked {
		return lines
	}
	out := make([]markdown.CodeLine, len(lines))
	for i, l := range lines {
		out[i] = markdown.CodeLine{Line: l.Line, Text: entities.Replace(styleTag.ReplaceAllString(l.Text, ""))}
	}
	return out
}

var (
	// promptFolder: the folder a `host:folder$ ` or `user@host:folder$ ` prompt shows.
	promptFolder = regexp.MustCompile(`^\s*(?:\([\w.-]+\)\s+)?(?:[\w.-]+@)?[\w.-]+:([~/][^\s$]*)\$`)
	// bracketFolder: the folder's name a `[user@host folder]$ ` prompt shows;
	// nameFolder: the one a `folder$ ` prompt is.
	bracketFolder = regexp.MustCompile(`^\s*(?:\([\w.-]+\)\s+)?\[[\w.-]+@[\w.-]+\s+([^\]\s]+)\][$#]`)
	nameFolder    = regexp.MustCompile(`^\s*(?:\([\w.-]+\)\s+)?(\w[\w.-]*)\$ `)
	// cdName moves into one folder named relative to the current one.
	cdName = regexp.MustCompile(`^cd\s+[\w.-]+/?$`)
)

// intoOwnHome notes each command's prompt folder and reads a transcript's `cd NAME` from a folder outside the home
// (`/home`) whose next prompt shows `~`: the author went into their own home
// folder, whose name is theirs; the reader goes into their own, so the
// command becomes `cd ~`.
func intoOwnHome(runs []Run, lines []markdown.CodeLine) {
	folder := map[int]string{}
	for _, l := range lines {
		for _, re := range []*regexp.Regexp{promptFolder, bracketFolder, nameFolder} {
			if m := re.FindStringSubmatch(l.Text); m != nil {
				folder[l.Line] = m[1]
				break
			}
		}
	}
	for i := range runs {
		runs[i].Command.Folder = folder[runs[i].Command.Line]
	}
	for i := 0; i+1 < len(runs); i++ {
		c := &runs[i].Command
		from, to := folder[c.Line], folder[runs[i+1].Command.Line]
		if strings.HasPrefix(from, "/") && to == "~" && cdName.MatchString(strings.TrimSpace(c.Text)) && strings.TrimSpace(c.Text) != "cd .." {
			c.Text = "cd ~"
		}
	}
}

// parses reports whether text is a complete shell command.
func parses(text string) bool {
	_, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(text+"\n"), "")
	return err == nil
}
