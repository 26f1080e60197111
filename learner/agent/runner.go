package agent

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/smile-loop/smile/status/wire"

	"github.com/smile-loop/smile/learner/prompt"
	"github.com/smile-loop/smile/learner/provider"
	"github.com/smile-loop/smile/learner/recovery"
	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/status"
)

// Runner plays the Student and the Mentor with a Backend: it is the
// provider.Provider of every model-backed provider. The zero value of each
// field but Backend is a sensible default.
type Runner struct {
	Backend Backend
	// LookPath finds the CLI; nil means exec.LookPath.
	LookPath func(file string) (string, error)
	// Backoff retries API failures; zero means DefaultBackoff.
	Backoff Backoff
	// Sleep waits between retries; nil means a timer.
	Sleep func(context.Context, time.Duration) error
	// Getenv and Environ read the container's environment; nil means os's.
	Getenv  func(string) string
	Environ func() []string
	// Heartbeat is the interval between progress posts; zero means half the
	// step timeout, between 1 s and 15 s.
	Heartbeat time.Duration
	Now       func() time.Time
}

var _ provider.Provider = Runner{}

func (r Runner) backoff() Backoff {
	if r.Backoff.Tries == 0 {
		return DefaultBackoff
	}
	return r.Backoff
}

func (r Runner) getenv(k string) string {
	if r.Getenv != nil {
		return r.Getenv(k)
	}
	return os.Getenv(k)
}

func (r Runner) environ() []string {
	if r.Environ != nil {
		return r.Environ()
	}
	return os.Environ()
}

func (r Runner) now() time.Time {
	if r.Now != nil {
		return r.Now()
	}
	return time.Now()
}

// Student is part of the provider.Provider interface. Its error is set only
// when the provider could not do its work (a missing CLI, refused
// credentials, an API that stayed down); the result then says so too.
func (r Runner) Student(ctx context.Context, task *wire.Task, env provider.Env) (*wire.StudentResultRequest, error) {
	a, err := r.start(ctx, task, env, status.RoleStudent)
	if err != nil {
		return nil, err
	}
	defer a.close()
	if a.tutErr != nil {
		return a.studentFailed(fmt.Sprintf("The tutorial cannot be read: %v", a.tutErr), nil), nil
	}
	text, err := prompt.BuildStudent(prompt.Student{Task: task, Tutorial: a.tut, WorkDir: env.WorkDir,
		Tools: r.Backend.Tools(status.RoleStudent), ImageMode: r.Backend.ImageMode()})
	if err != nil {
		return nil, err
	}
	a.setStep("student: following the tutorial", 0)
	var answer *recovery.StudentAnswer
	err = a.converse(ctx, a.call(text), prompt.StudentSchema, func(s string) error {
		ans, perr := recovery.Student(s)
		if perr == nil {
			answer = ans
		}
		return perr
	})
	if err != nil {
		return a.studentError(err)
	}
	return a.studentResult(answer), nil
}

// studentError turns a failed conversation into the Student's result.
func (a *attempt) studentError(err error) (*wire.StudentResultRequest, error) {
	reason, providerErr := a.explain(err)
	res := a.studentFailed(reason, err)
	return res, providerErr
}

// explain words a failure for the result, and says whether it is the
// provider's (returned as the wrapper's error) or the attempt's.
func (a *attempt) explain(err error) (string, error) {
	name := a.r.Backend.Name()
	var unreadable *UnreadableError
	var apiErr *APIError
	switch {
	case errors.As(err, &unreadable):
		return fmt.Sprintf("The %s's answer could not be read (E20): %v. The raw answers are in the audit log.", a.role, unreadable), nil
	case errors.Is(err, ErrTimeout):
		return fmt.Sprintf("The %s did not answer within %d seconds (invocationTimeoutSeconds.%s); %s was stopped (E13).", a.role, a.llm.TimeoutSeconds, a.role, name), nil
	case errors.Is(err, ErrAuth):
		return fmt.Sprintf("Authentication failed for %s: %s. Set %s in the controller's environment.", name, detail(err), keyHint(name, a.llm.APIKeyEnv)), err
	case errors.Is(err, ErrTransient) && errors.As(err, &apiErr) && apiErr.AfterTools:
		return fmt.Sprintf("The %s API stayed unavailable, so this is unresolvable (E11): %s. It failed after the model had run tools, so %s was not run again in the folder that run had changed.", name, detail(err), name), err
	case errors.Is(err, ErrTransient) && errors.As(err, &apiErr):
		return fmt.Sprintf("The %s API stayed unavailable after retries with backoff, so this is unresolvable (E11): %s", name, detail(err)), err
	}
	return fmt.Sprintf("%s failed: %v", name, err), err
}

func detail(err error) string {
	var apiErr *APIError
	if errors.As(err, &apiErr) && apiErr.Message != "" {
		if apiErr.HTTPStatus != 0 {
			return fmt.Sprintf("HTTP %d: %s", apiErr.HTTPStatus, apiErr.Message)
		}
		return apiErr.Message
	}
	return err.Error()
}

func keyHint(name spec.Provider, apiKeyEnv string) string {
	if keys := name.Info().KeyVariables; name != spec.ProviderOpenAI && len(keys) > 0 {
		return keys[0]
	}
	if apiKeyEnv != "" {
		return apiKeyEnv
	}
	return "the API key variable"
}

// studentFailed is a cannot_complete result that keeps the audit so far.
func (a *attempt) studentFailed(reason string, err error) *wire.StudentResultRequest {
	out := status.StudentOutput{
		Status:           status.StudentCannotComplete,
		CurrentStep:      "start of the tutorial",
		AttemptedActions: []string{},
		Problem:          reason,
		Reason:           reason,
		Summary:          "The Student could not follow the tutorial: " + reason,
		FilesCreated:     []string{},
		CommandsRun:      commandsOf(a.audit),
	}
	if errors.Is(err, ErrTimeout) {
		if line := a.lastLine(); line > 0 {
			out.Line = line
			out.Quote = strings.TrimSpace(a.tut.LineText(line))
			out.CurrentStep = fmt.Sprintf("line %d: %s", line, out.Quote)
			out.Findings = []status.Finding{{Category: status.CategoryTimeout, Line: line, Quote: out.Quote, Problem: reason}}
		}
	}
	a.env.Log.Info("Cannot complete", "reason", reason)
	return &wire.StudentResultRequest{StudentOutput: out, Timestamp: a.r.now().UTC(), Audit: &a.audit}
}

// studentResult turns the Student's answer into its result, placing every
// problem on the tutorial's lines by its quote.
func (a *attempt) studentResult(ans *recovery.StudentAnswer) *wire.StudentResultRequest {
	out := status.StudentOutput{
		Status:            status.StudentStatus(ans.Status),
		CurrentStep:       ans.CurrentStep,
		AttemptedActions:  ans.AttemptedActions,
		Problem:           ans.Problem,
		QuestionForMentor: ans.QuestionForMentor,
		Reason:            ans.Reason,
		Summary:           ans.Summary,
		FilesCreated:      ans.FilesCreated,
		CommandsRun:       ans.CommandsRun,
	}
	if len(out.CommandsRun) == 0 {
		out.CommandsRun = commandsOf(a.audit)
	}
	where := a.place(ans.Quote, ans.CurrentStep, ans.Line)
	out.Line, out.Quote = where.Line, where.Quote
	for _, f := range ans.Findings {
		loc := a.place(f.Quote, f.Problem, f.Line)
		cat := status.Category(f.Category)
		if cat == "" {
			cat = InferCategory(f.Problem)
		}
		out.Findings = appendFinding(out.Findings, status.Finding{
			Category: cat, Line: loc.Line, Quote: loc.Quote, Problem: f.Problem, SuggestedFix: f.SuggestedFix, Command: f.Command,
		})
	}
	if out.Status != status.StudentCompleted {
		problem := firstOf(ans.Problem, ans.Reason, ans.QuestionForMentor)
		cat := status.Category(ans.Category)
		if cat == "" {
			cat = InferCategory(problem, ans.QuestionForMentor)
		}
		// Asked marks the finding the Student stopped on, to ask or because
		// it could not go on: the gap a loop that does not complete ends on
		// (status.MarkBlocking makes it critical).
		main := status.Finding{Category: cat, Line: out.Line, Quote: out.Quote, Problem: problem, Asked: true}
		if c, ok := a.commandAt(out.Line); ok {
			main.Command, main.ExitCode, main.Output = c.Command, c.ExitCode, c.Output
		}
		out.Findings = appendFinding(out.Findings, main)
	}
	a.env.Log.Info("Student answered", "status", string(out.Status), "line", out.Line, "findings", len(out.Findings), "recoveredBy", string(ans.Method))
	return &wire.StudentResultRequest{StudentOutput: out, Timestamp: a.r.now().UTC(), Audit: &a.audit}
}

// place finds where a quote is in the tutorial; failing that, where the
// step the model named is; failing that, the line number the model gave in
// its JSON, if the tutorial has such a line. Never a number out of prose.
func (a *attempt) place(quote, step string, line int) Location {
	if loc, ok := Locate(a.tut, quote); ok {
		return loc
	}
	if loc, ok := Locate(a.tut, step); ok && loc.How != "closest" {
		return loc
	}
	if a.tut != nil && line > 0 && line <= strings.Count(a.tut.Content, "\n")+1 {
		if text := strings.TrimSpace(a.tut.LineText(line)); text != "" {
			return Location{Line: line, Quote: text, How: "line"}
		}
	}
	if loc, ok := Locate(a.tut, step); ok {
		return loc
	}
	return Location{Quote: strings.TrimSpace(quote)}
}

// commandAt is the last command the model ran from a tutorial line.
func (a *attempt) commandAt(line int) (status.AuditCommand, bool) {
	if line == 0 {
		return status.AuditCommand{}, false
	}
	for i := len(a.audit.Commands) - 1; i >= 0; i-- {
		if c := a.audit.Commands[i]; c.Line == line {
			return c, true
		}
	}
	return status.AuditCommand{}, false
}

// appendFinding adds f unless a finding of its category is already at its
// line (the model often lists its main problem among its findings too).
func appendFinding(list []status.Finding, f status.Finding) []status.Finding {
	for i, g := range list {
		if g.Line == f.Line && g.Category == f.Category {
			if f.Asked {
				list[i].Asked = true
			}
			if list[i].Command == "" {
				list[i].Command, list[i].ExitCode, list[i].Output = f.Command, f.ExitCode, f.Output
			}
			return list
		}
	}
	return append(list, f)
}

func commandsOf(a status.Audit) []string {
	out := []string{}
	for _, c := range a.Commands {
		out = append(out, c.Command)
	}
	return out
}

func firstOf(vs ...string) string {
	for _, v := range vs {
		if strings.TrimSpace(v) != "" {
			return v
		}
	}
	return ""
}

func buildRepair(schema, raw string, err error) (string, error) {
	return prompt.BuildRepair(schema, raw, err)
}
