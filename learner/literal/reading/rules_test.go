package reading_test

import (
	"testing"

	"github.com/smile-loop/smile/learner/literal/ruletest"
)

// The placement rules' fixtures: testdata/*.md (see package ruletest).
func TestRuleFixtures(t *testing.T) { ruletest.Run(t, "testdata") }

// Every rule this package registers has a fixture.
func TestEveryRuleHasAFixture(t *testing.T) {
	ruletest.HasFixtures(t, "testdata", "platform.section", "platform.label", "platform.other-tool", "text.crontab", "text.slash-comment", "text.ellipsis", "text.other-syntax", "text.cursor", "lang.inferred", "prose.command", "prose.command-alone", "file.cat-shows", "repl.session", "text.not-commands", "file.current", "input.defaults", "file.named-later", "usage.supposed-file", "file.shebang-script", "file.editor", "book.hidden-lines", "book.include", "lang.unparsable-shell", "prose.prompted-line", "file.headers", "file.editor-own-text", "file.used-later", "text.editor-key", "prose.reference-entry", "input.program-reads", "file.run-after", "section.reference", "output.labelled", "text.quoted-lines", "file.prose-edit", "file.run-as-before", "file.named-after", "name.reader-chosen", "repl.opened-in-block", "lang.shell-in-other-tag", "file.sentence-wraps", "exercise.answer-first", "file.editor-transcript")
}
