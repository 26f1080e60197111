package literal

import (
	"testing"

	"github.com/smile-loop/smile/learner/literal/reading"
)

func TestCauseFor(t *testing.T) {
	unplaced := []reading.Step{
		{Kind: reading.StepAmbiguous, Line: 5, Lang: "python"},
		{Kind: reading.StepAmbiguous, Line: 10, Lang: "yaml", Names: []string{"settings.conf"}},
		{Kind: reading.StepAmbiguous, Line: 30, Lang: "python"},
	}
	tests := []struct {
		name    string
		missing string
		before  int
		want    int // the blamed block's line, 0 for none
	}{
		{"the prose names the file", "settings.conf", 20, 10},
		{"the prose names it under a path", "./conf/settings.conf", 20, 10},
		{"the language writes files of its kind", "app.py", 20, 5},
		{"the latest block before the failure", "app.py", 40, 30},
		{"blocks after the failure are not blamed", "app.py", 4, 0},
		{"nothing of that kind", "data.csv", 40, 0},
		{"no file named", "", 40, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &student{unplaced: unplaced}
			got, ok := s.causeFor(tt.missing, tt.before)
			if (tt.want == 0) == ok || ok && got.Line != tt.want {
				t.Errorf("causeFor(%q, %d) = line %d, %v; want line %d", tt.missing, tt.before, got.Line, ok, tt.want)
			}
		})
	}
}
