// Package patience decides what the literal Student does about a failing
// step: how many times it runs it, and whether it then stops to ask the
// Mentor, from the category's stuck trigger and the patience level
// (smile.json's studentBehavior).
package patience

import (
	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/status"
)

// AskFlag is the stuck trigger that governs a category. missing_image has
// none: the literal Student notes a missing image and goes on (E07).
func AskFlag(c status.Category, b spec.StudentBehavior) bool {
	switch c {
	case status.CategoryMissingDependency, status.CategoryEnvironment:
		// What the container lacks is a missing dependency of the run, even
		// when the tutorial named it: the Mentor may be able to install it.
		return b.AskOnMissingDependency
	case status.CategoryTimeout:
		return b.AskOnTimeout
	case status.CategoryAmbiguousInstruction, status.CategoryUndefinedVariable:
		return b.AskOnAmbiguousInstruction
	case status.CategoryPermissionDenied, status.CategoryMissingFile, status.CategoryCommandFailure, status.CategoryOutputMismatch:
		return b.AskOnCommandFailure
	}
	return false
}

// Decision is what the Student does about a failing step.
type Decision struct {
	// Attempts is how many times in all a failing command is run.
	Attempts int
	// Ask says whether to stop and ask the Mentor if it still fails.
	Ask bool
}

// Decide applies the stuck triggers and the patience level. A Mentor note
// that lets the step proceed (or found it unresolvable) means: record it and
// go on, without retrying. Otherwise, with the category's trigger on, a
// failing command is run Patience.Attempts(maxRetriesBeforeHelp) times before
// the Student asks; with it off, the failure is recorded once and the Student
// goes on.
func Decide(c status.Category, b spec.StudentBehavior, note status.Resolution) Decision {
	if note == status.ResolutionProceed || note == status.ResolutionUnresolvable || !AskFlag(c, b) {
		return Decision{Attempts: 1}
	}
	attempts := 1
	if Retryable(c) {
		attempts = b.PatienceLevel.Attempts(b.MaxRetriesBeforeHelp)
	}
	return Decision{Attempts: attempts, Ask: true}
}

// Retryable categories come from running a command; running it again may
// give another answer. The others are in the tutorial's text.
func Retryable(c status.Category) bool {
	switch c {
	case status.CategoryMissingDependency, status.CategoryPermissionDenied, status.CategoryMissingFile,
		status.CategoryTimeout, status.CategoryCommandFailure, status.CategoryEnvironment:
		return true
	}
	return false
}
