package patience

import (
	"testing"

	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/status"
)

func TestDecide(t *testing.T) {
	all := spec.DefaultConfig().StudentBehavior // every trigger on, 3 retries, low
	with := func(mod func(*spec.StudentBehavior)) spec.StudentBehavior {
		b := all
		mod(&b)
		return b
	}
	medium := with(func(b *spec.StudentBehavior) { b.PatienceLevel = spec.PatienceMedium })
	high := with(func(b *spec.StudentBehavior) { b.PatienceLevel = spec.PatienceHigh })
	tests := []struct {
		name     string
		category status.Category
		behavior spec.StudentBehavior
		note     status.Resolution
		want     Decision
	}{
		{"low asks at once", status.CategoryMissingDependency, all, "", Decision{Attempts: 1, Ask: true}},
		{"medium retries maxRetriesBeforeHelp times", status.CategoryCommandFailure, medium, "", Decision{Attempts: 3, Ask: true}},
		{"high retries twice as many", status.CategoryTimeout, high, "", Decision{Attempts: 6, Ask: true}},
		{"text problems are not retried", status.CategoryUndefinedVariable, high, "", Decision{Attempts: 1, Ask: true}},
		{"output mismatch is not retried", status.CategoryOutputMismatch, high, "", Decision{Attempts: 1, Ask: true}},
		{"missing image never asks", status.CategoryMissingImage, all, "", Decision{Attempts: 1}},
		{"proceed note records and goes on", status.CategoryOutputMismatch, all, status.ResolutionProceed, Decision{Attempts: 1}},
		{"workaround note still asks when it fails again", status.CategoryMissingDependency, all, status.ResolutionWorkaround, Decision{Attempts: 1, Ask: true}},
		{"askOnMissingDependency off", status.CategoryMissingDependency, with(func(b *spec.StudentBehavior) { b.AskOnMissingDependency = false }), "", Decision{Attempts: 1}},
		{"askOnTimeout off", status.CategoryTimeout, with(func(b *spec.StudentBehavior) { b.AskOnTimeout = false; b.PatienceLevel = spec.PatienceHigh }), "", Decision{Attempts: 1}},
		{"askOnAmbiguousInstruction off: ambiguous", status.CategoryAmbiguousInstruction, with(func(b *spec.StudentBehavior) { b.AskOnAmbiguousInstruction = false }), "", Decision{Attempts: 1}},
		{"askOnAmbiguousInstruction off: undefined variable", status.CategoryUndefinedVariable, with(func(b *spec.StudentBehavior) { b.AskOnAmbiguousInstruction = false }), "", Decision{Attempts: 1}},
		{"askOnCommandFailure off: permission", status.CategoryPermissionDenied, with(func(b *spec.StudentBehavior) { b.AskOnCommandFailure = false }), "", Decision{Attempts: 1}},
		{"askOnCommandFailure off: missing file", status.CategoryMissingFile, with(func(b *spec.StudentBehavior) { b.AskOnCommandFailure = false }), "", Decision{Attempts: 1}},
		{"askOnCommandFailure off: output", status.CategoryOutputMismatch, with(func(b *spec.StudentBehavior) { b.AskOnCommandFailure = false }), "", Decision{Attempts: 1}},
		{"askOnCommandFailure does not govern dependencies", status.CategoryMissingDependency, with(func(b *spec.StudentBehavior) { b.AskOnCommandFailure = false }), "", Decision{Attempts: 1, Ask: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Decide(tt.category, tt.behavior, tt.note); got != tt.want {
				t.Errorf("decide = %+v, want %+v", got, tt.want)
			}
		})
	}
}
