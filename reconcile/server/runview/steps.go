package runview

import (
	"fmt"
	"slices"

	"github.com/smile-loop/smile/status"
)

// Mark is what the dashboard says became of one code block.
type Mark string

// The marks of a code block.
const (
	// MarkPassed: the Student ran, wrote or compared it and no gap is in it.
	MarkPassed Mark = "passed"
	// MarkFailed: a gap of the run is in it.
	MarkFailed Mark = "failed"
	// MarkRun: the attempt at work has gone past it (not judged yet).
	MarkRun Mark = "run"
	// MarkRunning: the attempt at work is in it now.
	MarkRunning Mark = "running"
	// MarkSkipped: the Student did not follow it, for Reason.
	MarkSkipped Mark = "skipped"
	// MarkNotReached: the Student stopped before it.
	MarkNotReached Mark = "not_reached"
	// MarkPending: the attempt at work has not come to it yet.
	MarkPending Mark = "pending"
	// MarkUnknown: the learner did not say what it did with it (a
	// model-backed learner reports no coverage).
	MarkUnknown Mark = "unknown"
)

// Block is one code block of the page, by its first and last lines (its
// fences).
type Block struct {
	Line    int `json:"line"`
	EndLine int `json:"endLine,omitempty"`
}

// Step is one code block with its mark.
type Step struct {
	Block
	Mark Mark `json:"mark"`
	// Reason says why a block was skipped or failed (the gap's title).
	Reason string `json:"reason,omitempty"`
	// DurationMs is how long the block's commands ran in the last attempt
	// that ran any of them; Commands counts them (0: none ran).
	DurationMs int64 `json:"durationMs"`
	Commands   int   `json:"commands"`
	// Iteration is the attempt the duration comes from.
	Iteration int `json:"iteration,omitempty"`
}

// StepsInput is what the marks are made from.
type StepsInput struct {
	Status *status.Status
	// Blocks are the page's code blocks as the dashboard renders them: the
	// blocks when no attempt has reported its coverage yet.
	Blocks []Block
	// Audits are the attempts' audits (their commands carry lines and
	// durations).
	Audits []status.Audit
	// CurrentLine is the line the attempt at work last reported (0: none).
	CurrentLine int
}

// Steps marks every code block: from the last Student attempt's coverage
// when there is one, else from the page's blocks; a run in progress marks
// the block at its current line running, those above it run and those below
// pending.
func Steps(in StepsInput) []Step {
	st := in.Status
	cov := lastCoverage(st)
	live := !st.Phase.Terminal() && st.Attempt != nil && st.Attempt.Role == status.RoleStudent && in.CurrentLine > 0
	var out []Step
	if cov != nil && len(cov.BlockList) > 0 && !live {
		for _, b := range cov.BlockList {
			out = append(out, judged(st, b))
		}
	} else {
		for _, b := range in.Blocks {
			out = append(out, unjudged(st, b, in.CurrentLine, live))
		}
	}
	for i := range out {
		out[i].DurationMs, out[i].Commands, out[i].Iteration = duration(in.Audits, out[i].Block)
	}
	return out
}

// lastCoverage is the coverage of the last Student attempt that reported
// one: what the Student last did with each block.
func lastCoverage(st *status.Status) *status.Coverage {
	for i := len(st.History) - 1; i >= 0; i-- {
		if c := st.History[i].StudentOutput.Coverage; c != nil {
			return c
		}
	}
	return nil
}

// judged marks a block from its coverage and the run's gaps.
func judged(st *status.Status, b status.BlockCoverage) Step {
	s := Step{Block: Block{Line: b.Line, EndLine: b.EndLine}}
	switch {
	case b.Outcome.Exercised():
		s.Mark = MarkPassed
		if g, ok := gapIn(st.Gaps, s.Block); ok {
			s.Mark, s.Reason = MarkFailed, gapTitle(g)
		}
	case b.Outcome == status.OutcomeSkipped:
		s.Mark, s.Reason = MarkSkipped, b.Reason
	case b.Outcome == status.OutcomeAlternative:
		s.Mark, s.Reason = MarkSkipped, "another variant of a step the Student followed"
		if b.Reason != "" {
			s.Reason = b.Reason
		}
	default:
		s.Mark = MarkNotReached
		if g, ok := gapIn(st.Gaps, s.Block); ok {
			s.Mark, s.Reason = MarkFailed, gapTitle(g)
		}
	}
	return s
}

// unjudged marks a block no coverage speaks of: by where the attempt at
// work is, or by the gaps once the run ended.
func unjudged(st *status.Status, b Block, current int, live bool) Step {
	s := Step{Block: b}
	end := max(b.EndLine, b.Line)
	switch {
	case live && current >= b.Line && current <= end:
		s.Mark = MarkRunning
	case live && current > end:
		s.Mark = MarkRun
	case live:
		s.Mark = MarkPending
	case st.Phase.Terminal():
		s.Mark = MarkUnknown
		if g, ok := gapIn(st.Gaps, b); ok {
			s.Mark, s.Reason = MarkFailed, gapTitle(g)
		}
	default:
		s.Mark = MarkPending
	}
	return s
}

// gapIn finds the first gap whose line is in the block.
func gapIn(gaps []status.Gap, b Block) (status.Gap, bool) {
	end := max(b.EndLine, b.Line)
	i := slices.IndexFunc(gaps, func(g status.Gap) bool {
		return g.Location.LineNumber >= b.Line && g.Location.LineNumber <= end
	})
	if i < 0 {
		return status.Gap{}, false
	}
	return gaps[i], true
}

func gapTitle(g status.Gap) string {
	if g.Title != "" {
		return fmt.Sprintf("%s gap: %s", g.Severity, g.Title)
	}
	return fmt.Sprintf("%s gap: %s", g.Severity, g.Category)
}

// duration sums the tutorial's commands run in the block by the last
// Student attempt that ran any (the Mentor's workarounds are not the
// block's).
func duration(audits []status.Audit, b Block) (ms int64, n, iteration int) {
	end := max(b.EndLine, b.Line)
	for _, a := range audits {
		for _, c := range a.Commands {
			if c.Workaround || c.Line < b.Line || c.Line > end || (c.Role != "" && c.Role != status.RoleStudent) {
				continue
			}
			if c.Iteration > iteration {
				ms, n, iteration = 0, 0, c.Iteration
			}
			if c.Iteration == iteration {
				ms += c.DurationMs
				n++
			}
		}
	}
	return ms, n, iteration
}
