package transcript_test

import (
	"testing"

	"github.com/smile-loop/smile/learner/literal/ruletest"
	"github.com/smile-loop/smile/learner/literal/transcript"
)

// The transcript rules' fixtures: testdata/*.md (see package ruletest).
func TestRuleFixtures(t *testing.T) { ruletest.Run(t, "testdata") }

// Every prompt rule and every rule of a program's input has a fixture.
func TestEveryRuleHasAFixture(t *testing.T) {
	var ids []string
	for _, p := range transcript.Prompts {
		ids = append(ids, p.ID)
	}
	ids = append(ids, transcript.RuleTypedAfter.ID, transcript.RuleAfterStart.ID, transcript.RuleIntroduced.ID, transcript.RuleProseStart.ID,
		transcript.RuleBareLang.ID, transcript.RuleBareStep.ID, transcript.RuleBareProse.ID, transcript.RulePrintedOver.ID, transcript.RuleArrowNote.ID)
	ruletest.HasFixtures(t, "testdata", ids...)
}
