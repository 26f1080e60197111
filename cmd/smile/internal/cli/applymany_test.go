package cli

import (
	"errors"
	"testing"

	"github.com/smile-loop/smile/cmd/smile/internal/gate"

	"github.com/smile-loop/smile/status"
)

// The exit of many runs is the worst: 1 (not run) over 3 (inconclusive)
// over 2 (gaps) over 0.
func TestWorstExit(t *testing.T) {
	done := func(phase status.Phase, sev ...status.Severity) *applied {
		run := &status.Run{Status: status.Status{Phase: phase}}
		for _, s := range sev {
			run.Status.Gaps = append(run.Status.Gaps, status.Gap{Severity: s})
		}
		return &applied{run: run}
	}
	code := func(err error) int {
		var ee *exitError
		if err == nil {
			return 0
		}
		if errors.As(err, &ee) {
			return ee.code
		}
		return -1
	}
	clean := done(status.PhaseCompleted)
	gaps := done(status.PhaseCompleted, status.SeverityMajor)
	broken := done(status.PhaseError)
	failed := &applied{failed: errors.New("loop already running")}
	for _, tt := range []struct {
		runs []*applied
		on   status.Severity
		want int
	}{
		{[]*applied{clean, clean}, status.SeverityMinor, 0},
		{[]*applied{clean, gaps}, status.SeverityMinor, 2},
		{[]*applied{clean, gaps}, status.SeverityCritical, 0},
		{[]*applied{gaps, broken, clean}, status.SeverityMinor, 1},
		{[]*applied{broken, gaps}, status.SeverityMinor, 1},
		{[]*applied{clean, failed}, status.SeverityMinor, 1},
		{[]*applied{clean, done(status.PhaseMaxIterations)}, status.SeverityCritical, 2},
		{[]*applied{gaps, done(status.PhaseInconclusive), clean}, status.SeverityMinor, 3},
		{[]*applied{done(status.PhaseInconclusive), broken}, status.SeverityMinor, 1},
	} {
		if got := code(worstExit(tt.runs, gate.Gate{Min: tt.on}, nil)); got != tt.want {
			t.Errorf("worstExit(%d runs, fail-on %s) = %d, want %d", len(tt.runs), tt.on, got, tt.want)
		}
	}
}
