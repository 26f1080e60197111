package reconcile

import (
	"strings"
	"testing"

	"github.com/smile-loop/smile/reconcile/internal/plantest"
	"github.com/smile-loop/smile/reconcile/planner"

	"github.com/smile-loop/smile/status"
)

func TestDecideBudget(t *testing.T) {
	spent := func(phase status.Phase, usd float64) *status.Run {
		run := plantest.RunIn(phase, 2)
		run.Status.Cost = &status.Cost{Calls: 3, USD: usd}
		return run
	}
	d := plantest.Desired()
	d.Config.BudgetUSD = 0.50
	tests := []struct {
		name   string
		run    *status.Run
		budget float64
		action planner.Action
		phase  status.Phase
	}{
		{"budget spent: no next Student", spent(status.PhaseRunningStudent, 0.50), 0.50, planner.ActBudget, status.PhaseError},
		{"budget spent: no Mentor either", spent(status.PhaseRunningMentor, 0.73), 0.50, planner.ActBudget, status.PhaseError},
		{"under budget", spent(status.PhaseRunningStudent, 0.49), 0.50, planner.ActStartStudent, status.PhaseWaitingForStudent},
		{"no budget", spent(status.PhaseRunningStudent, 99), 0, planner.ActStartStudent, status.PhaseWaitingForStudent},
		// An attempt that is running is not cut short: its result is applied.
		{"spent while waiting", spent(status.PhaseWaitingForStudent, 0.9), 0.50, planner.ActWait, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d.Config.BudgetUSD = tt.budget
			p := planner.Decide(planner.Input{Now: t0, Desired: d, Run: tt.run, Observed: planner.Observed{Containers: plantest.Running("c-student")}})
			if p.Action != tt.action || p.Phase != tt.phase {
				t.Fatalf("plan = %+v, want %s -> %s", p, tt.action, tt.phase)
			}
			if tt.phase == status.PhaseError && (p.Reason != status.ReasonBudgetExceeded || !strings.Contains(p.Message, "reaches its budgetUsd of $0.50")) {
				t.Errorf("plan = %+v", p)
			}
		})
	}
}

func TestProviderKeysComeFromTheEnvironment(t *testing.T) {
	env := map[string]string{"ANTHROPIC_API_KEY": "sk-ant-x", "TEAM_KEY": "k2", "OPENAI_API_KEY": "sk-other"}
	r := &Reconciler{LookupEnv: func(k string) (string, bool) { v, ok := env[k]; return v, ok }}
	cfg := plantest.Desired().Config
	cfg.LLMProvider = "claude"
	if got := r.keyEnv(cfg); len(got) != 1 || got[0] != "ANTHROPIC_API_KEY=sk-ant-x" {
		t.Errorf("claude keys = %q", got)
	}
	cfg.LLMProvider, cfg.OpenAI.APIKeyEnv = "openai", "TEAM_KEY"
	if got := r.keyEnv(cfg); len(got) != 1 || got[0] != "TEAM_KEY=k2" {
		t.Errorf("openai keys = %q (only the configured variable)", got)
	}
	cfg.LLMProvider = "literal"
	if got := r.keyEnv(cfg); len(got) != 0 {
		t.Errorf("literal keys = %q", got)
	}
}
