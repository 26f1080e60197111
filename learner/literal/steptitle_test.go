package literal

import (
	"fmt"
	"testing"

	"github.com/smile-loop/smile/learner/literal/reading"
)

func TestStepTitleNamesTheFileWritten(t *testing.T) {
	name := func(line int) string { return fmt.Sprintf("line %d: ```python", line) }
	for _, tt := range []struct {
		st   reading.Step
		want string
	}{
		{reading.Step{Kind: reading.StepWrite, Line: 16, File: reading.Destination{Path: "hello.sh"}}, "line 16: write hello.sh"},
		{reading.Step{Kind: reading.StepWrite, Line: 20, File: reading.Destination{Path: "app/log.txt", Append: true}}, "line 20: append to app/log.txt"},
		{reading.Step{Kind: reading.StepRun, Line: 7}, "line 7: ```python"},
	} {
		if got := stepTitle(tt.st, name); got != tt.want {
			t.Errorf("stepTitle(%+v) = %q, want %q", tt.st, got, tt.want)
		}
	}
}
