package cli

import (
	"testing"

	"github.com/smile-loop/smile/status"
	"github.com/smile-loop/smile/status/wire"
)

// stop says what happened once, in words: not "stopped (stopped)".
func TestStopLine(t *testing.T) {
	tests := []struct {
		name string
		res  wire.StopResponse
		want string
	}{
		{"stopped", wire.StopResponse{Stopped: true, FinalState: status.LoopState{Status: "stopped", Iteration: 2}},
			"smilerun.smile.dev/docs stopped after 2 iteration(s)"},
		{"ended otherwise", wire.StopResponse{Stopped: true, FinalState: status.LoopState{Status: "completed", Iteration: 1}},
			"smilerun.smile.dev/docs ended before the stop: completed after 1 iteration(s)"},
		{"still stopping", wire.StopResponse{FinalState: status.LoopState{Status: "running_student", Iteration: 1}},
			"smilerun.smile.dev/docs stopping: the loop ends at its next transition (`smile get docs` shows when)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := stopLine("docs", tt.res); got != tt.want {
				t.Errorf("stopLine = %q, want %q", got, tt.want)
			}
		})
	}
}
