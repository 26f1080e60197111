package reading

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/smile-loop/smile/learner/literal/destination"
	"github.com/smile-loop/smile/learner/literal/rule"
	"github.com/smile-loop/smile/spec/markdown"
)

// Books walk through a program first and say where it goes only after the
// walk: "So copy that code into a file called `hello.c` and build it." The
// sentence refers back to code already shown; the block it means is the
// last one the Student could not place whose language the file's name
// fits. That block becomes the file's write, where it stands.
var (
	ruleDeferredName = rule.Register(rule.Rule{ID: "file.named-later", Scope: rule.ScopeSection,
		Doc: "a later sentence that refers back to code shown above and names its file (\"copy that code into hello.c\") places the last unplaced block of the file's language"})
	refersBackTo = regexp.MustCompile(`(?i)\b(?:copy|save|put|paste|store|place|type)\s+(?:all\s+)?(?:that|this|it|the\s+(?:above|previous|program|code|source|example|listing))\b|` +
		`\b(?:copia|guarda|salva|salve|copie|kopiere|speichere|sauvegarde[zr]?|enregistre[zr]?)\s+(?:ese|este|esse|este|das|den|diesen|ce|le|cela)\b|` +
		// The pronoun joined to the verb: "grave-o como", "guárdalo como",
		// "salvalo come", "enregistrez-le sous", "speichere ihn als".
		`\b(?:grav|salv|guard|copi)[ae]-(?:o|a|lo|la)\b|\bgu(?:á|a)rd(?:alo|elo|ala|ela)\b|\bsalva(?:lo|telo)\b|` +
		`\b(?:enregistre[zr]?|sauvegarde[zr]?|copie[zr]?)-le\b|\b(?:speicher|kopier)\w*\s+(?:ihn|es|sie)\s+(?:als|in|unter)\b|` +
		`(?:保存|存)(?:为|為|成)|として保存|(?:로|으로)\s*저장|сохраните\s+(?:его|это|код)`)
)

// placeLater reads paragraph i for a sentence that names, after the fact,
// the file an unplaced block above is; it turns that block's step into the
// file's write.
func (p *planner) placeLater(i int) {
	b := p.blocks[i]
	if b.Kind != markdown.BlockParagraph {
		return
	}
	text := plain(strings.Join(strings.Fields(b.Text), " "))
	m := refersBackTo.FindString(text)
	if m == "" {
		return
	}
	for _, name := range destination.FilesNamed(text, OwnPath) {
		for k := len(p.steps) - 1; k >= 0; k-- {
			s := &p.steps[k]
			if s.Kind == StepWrite && s.File.Path == name {
				break // the page already wrote it
			}
			if s.Kind != StepAmbiguous || !WritesKind(s.Lang, name) {
				continue
			}
			s.Kind, s.File = StepWrite, Destination{Path: name}
			s.Content = p.blockText(s.Line)
			s.Why = fmt.Sprintf("line %d names it after the fact: %q", b.Line, m)
			s.Evidence = append(s.Evidence, ruleDeferredName.At(b.Line, m))
			return
		}
	}
}

// blockText is the text of the code block at line.
func (p *planner) blockText(line int) string {
	for _, b := range p.blocks {
		if b.Kind == markdown.BlockCode && b.Line == line {
			return b.Text
		}
	}
	return ""
}
