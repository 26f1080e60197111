package learner

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/go-logr/logr"
	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/status/wire"

	"github.com/smile-loop/smile/learner/provider"
	"github.com/smile-loop/smile/status"
)

// panicky panics in both roles, as a parser bug would.
type panicky struct{}

func (panicky) Student(context.Context, *wire.Task, provider.Env) (*wire.StudentResultRequest, error) {
	panic("index out of range [3] with length 3")
}

func (panicky) Mentor(context.Context, *wire.Task, provider.Env) (*wire.MentorResultRequest, error) {
	panic(errors.New("assignment to entry in nil map")) // a value, not a string

}

// TestSafePlayTurnsAPanicIntoAResult: a panicking provider yields a result
// that says the wrapper failed, for either role, and an error to exit with.
func TestSafePlayTurnsAPanicIntoAResult(t *testing.T) {
	for _, role := range []status.Role{status.RoleStudent, status.RoleMentor} {
		t.Run(string(role), func(t *testing.T) {
			path, body, err := SafePlay(context.Background(), &wire.Task{Role: role}, panicky{}, providerEnv())
			if !errors.Is(err, ErrPanicked) {
				t.Fatalf("safePlay error = %v, want ErrPanicked", err)
			}
			switch res := body.(type) {
			case *wire.StudentResultRequest:
				if path != wire.PathStudentResult || res.StudentOutput.Status != status.StudentCannotComplete ||
					!strings.Contains(res.StudentOutput.Reason, "the wrapper failed: panic: index out of range") {
					t.Errorf("student result %s %+v", path, res.StudentOutput)
				}
			case *wire.MentorResultRequest:
				if path != wire.PathMentorResult || res.Advice == nil || res.Advice.Resolution != status.ResolutionUnresolvable ||
					!strings.Contains(res.MentorOutput, "the wrapper failed: panic: assignment to entry in nil map") {
					t.Errorf("mentor result %s %+v", path, res)
				}
			default:
				t.Fatalf("body %T", body)
			}
		})
	}
}

func TestPlayProviderUnavailable(t *testing.T) {
	task := &wire.Task{Role: status.RoleStudent, Provider: spec.ProviderGemini}
	p := For(task.Provider)
	path, body, err := Play(context.Background(), task, p, providerEnv())
	if err == nil || path != wire.PathStudentResult {
		t.Fatalf("play = %s, %v", path, err)
	}
	res := body.(*wire.StudentResultRequest)
	if res.StudentOutput.Status != status.StudentCannotComplete || res.StudentOutput.Reason != err.Error() {
		t.Errorf("student result = %+v", res.StudentOutput)
	}
}

func providerEnv() provider.Env {
	return provider.Env{Progress: provider.NoProgress, Log: logr.Discard()}
}
