package reading

import (
	"regexp"
	"slices"
	"strings"

	"github.com/smile-loop/smile/spec/markdown"

	"github.com/smile-loop/smile/learner/literal/expect"
	"github.com/smile-loop/smile/learner/literal/prose"
	"github.com/smile-loop/smile/learner/literal/rule"
	"github.com/smile-loop/smile/spec"
)

// Supply is a sentence that says the reader has the tutorial's files from
// elsewhere: a book's folder of example files, data downloaded at a
// lesson's setup, a folder an earlier lesson left the reader in. A file the
// tutorial reads but never creates is then the reader's to have, not a step
// the page forgot.
type Supply struct {
	Line     int    // where the sentence is
	Sentence string // the sentence, for the finding
}

// suppliedSentence says where the tutorial's files come from.
var suppliedSentence = regexp.MustCompile(`(?i)` +
	// "The example_files directory has all the files used in the examples."
	`\b(?:has|have|holds|contains?)\s+(?:all\s+)?(?:of\s+)?the\s+(?:\w+\s+){0,2}files\s+(?:used|needed|referenced|mentioned)\b|` +
	// "the data directory you downloaded at the setup"
	`\b(?:you|we)\s+(?:have\s+|just\s+|already\s+)?(?:downloaded|unzipped|unpacked|extracted|cloned)\b|` +
	// "Download the example files", "get the lesson data from"
	`\b(?:download|get|grab|clone|fetch)\s+(?:the\s+|our\s+)?(?:\w+\s+){0,2}(?:example|sample|exercise|lesson|course|companion|book'?s?)[\s_-]?(?:files|data|archive|folder|directory|repository|repo)\b|` +
	// "the sample files are in the book's repository"
	`\b(?:example|sample|exercise|lesson|course|companion)[\s_-]?(?:files|data)\b[^.]{0,80}?\b(?:repository|repo|github|zip|archive|download)|` +
	// "the directory `data/alkanes` that contains six files"
	"\\b(?:directory|folder)\\s+`?[\\w./~-]+`?\\s+(?:that|which)\\s+(?:contains|holds|has)\\b|" +
	// "We should still be in the `data` directory" (an earlier lesson's)
	"\\bstill\\s+(?:be\\s+)?in\\s+(?:the\\s+|our\\s+)?`?[\\w./~-]+`?\\s+(?:directory|folder)\\b")

// suppliedFolder: a path before "directory" or "folder", then what it holds
// ("the `data/birds` directory which only has three files"); not when the
// sentence has the reader make it (makesFolder), nor when it holds nothing.
var suppliedFolder = regexp.MustCompile("(?i)(?:`[\\w./~-]+`|\\b[\\w~-]*/[\\w./~-]+)\\s+(?:directory|folder),?\\s+(?:which|that)\\s+(?:only\\s+|just\\s+|already\\s+)?(?:has|holds|contains)\\s+(?:only\\s+|just\\s+)?(?:a\\s+few|some|several|many|all|the|\\d+|one|two|three|four|five|six|seven|eight|nine|ten)\\b")
var makesFolder = regexp.MustCompile(`(?i)\b(?:create|make|mkdir|set\s+up)\b`)

// SupplyBefore is the last sentence before line that says where the
// tutorial's files come from; false when none does.
func SupplyBefore(t *spec.Tutorial, line int) (Supply, bool) {
	if t == nil {
		return Supply{}, false
	}
	return supplyIn(t.Blocks, line)
}

// supplyIn is the last sentence of blocks before line that says where the
// tutorial's files come from.
func supplyIn(blocks []markdown.Block, line int) (Supply, bool) {
	found, ok := Supply{}, false
	for _, b := range blocks {
		if b.Kind != markdown.BlockParagraph || b.Line >= line {
			continue
		}
		for _, s := range prose.Sentences(strings.Join(strings.Fields(b.Text), " ")) {
			if suppliedSentence.MatchString(s) || suppliedFolder.MatchString(s) && !makesFolder.MatchString(s) {
				found, ok = Supply{Line: b.Line, Sentence: strings.TrimSpace(s)}, true
			}
		}
	}
	return found, ok
}

// catFile is a command that prints one whole file: what it prints is the
// file's content.
var catFile = regexp.MustCompile(`^cat\s+([\w./~-]+)\s*$`)

// ShownFile is a file the tutorial never creates but shows whole, as the
// output of `cat FILE`.
type ShownFile struct {
	Name    string
	Line    int // the line of the `cat` command
	Content string
}

// ShownFiles are the files a tutorial shows with `cat` (a transcript's
// `$ cat table.txt` and the lines after it, or a command followed by its
// output block) and never creates: a book's example files the reader has.
// The first showing of each counts, in the order shown.
func ShownFiles(t *spec.Tutorial) []ShownFile {
	steps := Plan(t)
	created := map[string]bool{}
	for _, st := range steps {
		switch st.Kind {
		case StepWrite:
			if !slices.ContainsFunc(st.Evidence, func(e rule.Evidence) bool { return e.Rule == ruleCatShows.ID }) {
				created[st.File.Path] = true // not the Student's own copy of a listing (file.cat-shows)
			}
		case StepRun:
			for _, w := range strings.Fields(st.Command.Text) {
				if createsFile(st.Command.Text, strings.Trim(w, `'">`)) && !catFile.MatchString(strings.TrimSpace(st.Command.Text)) {
					created[strings.Trim(w, `'">`)] = true
				}
			}
		}
	}
	var out []ShownFile
	seen := map[string]bool{}
	for i, st := range steps {
		if st.Kind != StepRun {
			continue
		}
		m := catFile.FindStringSubmatch(strings.TrimSpace(st.Command.Text))
		if m == nil || seen[m[1]] || created[m[1]] {
			continue
		}
		shown := st.Command.Expected
		if len(shown) == 0 && i+1 < len(steps) && steps[i+1].Kind == StepCompare {
			shown = steps[i+1].Expected
		}
		if !expect.HasExpectation(shown) {
			continue
		}
		var lines []string
		for _, l := range shown {
			lines = append(lines, l.Text)
		}
		seen[m[1]] = true
		content := strings.TrimRight(strings.Join(lines, "\n"), "\n \t") + "\n"
		out = append(out, ShownFile{Name: m[1], Line: st.Command.Line, Content: content})
	}
	return out
}
