package coverage

import (
	"reflect"
	"testing"

	"github.com/smile-loop/smile/learner/literal/reading"
	"github.com/smile-loop/smile/spec/spectest"
	"github.com/smile-loop/smile/status"
)

// The collector keeps the strongest outcome of a block's steps: a block
// one of whose commands ran is run, whatever its other steps came to; a
// step left for want of a failed one is not reached, with its cause.
func TestCoverageCollectorKeepsTheStrongestOutcome(t *testing.T) {
	page := "# Steps\n\n" + // 1
		"```bash\necho one\necho two\n```\n\n" + // 3-6
		"```bash\necho three\n```\n\n" + // 8-10
		"```bash\necho four\n```\n" // 12-14
	tut := spectest.Tutorial(t, page)
	c := New(tut, reading.Plan(tut))
	c.Skipped(5, "the optional part already failed")
	c.Ran(4)
	c.NotReached(9, "it needs the file line 4 failed to make")
	c.Skipped(13, "first reason")
	c.Skipped(13, "second reason")
	got := c.Result(&status.StudentOutput{Status: status.StudentCompleted})
	want := []status.BlockCoverage{
		{Line: 3, EndLine: 6, Outcome: status.OutcomeRun, Lines: 2, Covered: 1},
		{Line: 8, EndLine: 10, Outcome: status.OutcomeNotReached, Reason: "it needs the file line 4 failed to make", Lines: 1},
		{Line: 12, EndLine: 14, Outcome: status.OutcomeSkipped, Reason: "first reason", Lines: 1},
	}
	if !reflect.DeepEqual(got.BlockList, want) {
		t.Errorf("blocks\n  %+v\nwant\n  %+v", got.BlockList, want)
	}
	var nilCollector *Collector
	nilCollector.Ran(4) // a Student built without a page records nothing
	if nilCollector.Result(&status.StudentOutput{}) != nil {
		t.Error("a nil collector gave a coverage")
	}
}
