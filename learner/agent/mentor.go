package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/smile-loop/smile/status/wire"

	"github.com/smile-loop/smile/learner/prompt"
	"github.com/smile-loop/smile/learner/provider"
	"github.com/smile-loop/smile/learner/recovery"
	"github.com/smile-loop/smile/status"
)

// Mentor is part of the provider.Provider interface.
func (r Runner) Mentor(ctx context.Context, task *wire.Task, env provider.Env) (*wire.MentorResultRequest, error) {
	a, err := r.start(ctx, task, env, status.RoleMentor)
	if err != nil {
		return nil, err
	}
	defer a.close()
	if a.tutErr != nil {
		return a.mentorFailed(fmt.Sprintf("The tutorial cannot be read: %v", a.tutErr)), nil
	}
	text, err := prompt.BuildMentor(prompt.Mentor{Task: task, Tutorial: a.tut, WorkDir: env.WorkDir,
		Tools: r.Backend.Tools(status.RoleMentor), Web: r.Backend.Web()})
	if err != nil {
		return nil, err
	}
	line := 0
	if task.StudentOutput != nil {
		line = task.StudentOutput.Line
	}
	a.setStep("mentor: reading the Student's question", line)
	var answer *recovery.MentorAnswer
	var lastRaw string
	err = a.converse(ctx, a.call(text), prompt.MentorSchema, func(s string) error {
		lastRaw = s
		ans, perr := recovery.Mentor(s)
		if perr == nil {
			answer = ans
		}
		return perr
	})
	var unreadable *UnreadableError
	switch {
	case errors.As(err, &unreadable) && strings.TrimSpace(lastRaw) != "":
		// The seed's Mentor answers in text: notes that are not JSON are
		// still notes.
		answer = &recovery.MentorAnswer{Notes: strings.TrimSpace(lastRaw), Resolution: recovery.ResolutionProceed}
	case err != nil:
		reason, providerErr := a.explain(err)
		return a.mentorFailed(reason), providerErr
	}
	return a.mentorResult(answer), nil
}

func (a *attempt) mentorResult(ans *recovery.MentorAnswer) *wire.MentorResultRequest {
	adv := &wire.MentorAdvice{
		Category:     status.Category(ans.Category),
		Resolution:   status.Resolution(ans.Resolution),
		Workaround:   strings.TrimSpace(ans.Workaround),
		SuggestedFix: ans.SuggestedFix,
	}
	studentLine := 0
	if so := a.task.StudentOutput; so != nil {
		studentLine = so.Line
		if adv.Category == "" {
			for _, f := range so.Findings {
				if f.Asked {
					adv.Category = f.Category
				}
			}
		}
	}
	adv.Line = a.place(ans.Quote, "", ans.Line).Line
	if adv.Line == 0 {
		adv.Line = studentLine
	}
	a.env.Log.Info("Mentor answered", "resolution", string(adv.Resolution), "line", adv.Line, "recoveredBy", string(ans.Method))
	return &wire.MentorResultRequest{MentorOutput: ans.Notes, Timestamp: a.r.now().UTC(), Advice: adv, Audit: &a.audit}
}

func (a *attempt) mentorFailed(reason string) *wire.MentorResultRequest {
	a.env.Log.Info("Mentor cannot answer", "reason", reason)
	line := 0
	if a.task.StudentOutput != nil {
		line = a.task.StudentOutput.Line
	}
	return &wire.MentorResultRequest{
		MentorOutput: "The Mentor could not answer: " + reason,
		Timestamp:    a.r.now().UTC(),
		Advice:       &wire.MentorAdvice{Line: line, Resolution: status.ResolutionUnresolvable},
		Audit:        &a.audit,
	}
}
