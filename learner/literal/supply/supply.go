// Package supply finds the sentences of a page that say its reader has the
// page's files from elsewhere (a book's folder of example files, data
// downloaded at a lesson's setup, a folder an earlier lesson left the reader
// in): a file the page reads but never creates is then the reader's to
// have, not a step the page forgot.
package supply

import (
	"regexp"
	"strings"

	"github.com/smile-loop/smile/learner/literal/prose"
	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/spec/markdown"
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

// Before is the last sentence before line that says where the
// tutorial's files come from; false when none does.
func Before(t *spec.Tutorial, line int) (Supply, bool) {
	if t == nil {
		return Supply{}, false
	}
	return In(t.Blocks, line)
}

// In is the last sentence of blocks before line that says where the
// tutorial's files come from.
func In(blocks []markdown.Block, line int) (Supply, bool) {
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
