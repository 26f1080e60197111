package kubectlfmt

import "testing"

func TestTitleCase(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"tutorial", "Tutorial"},
		{"maxIterations", "Max Iterations"},
		{"llmProvider", "LLM Provider"},
		{"studentBehavior", "Student Behavior"},
		{"askOnAmbiguousInstruction", "Ask On Ambiguous Instruction"},
		{"keepOnFailure", "Keep On Failure"},
		{"outputDir", "Output Dir"},
		{"Phase", "Phase"},
		{"x", "X"},
		{"baseUrl", "Base URL"},
		{"apiKeyEnv", "API Key Env"},
		{"budgetUsd", "Budget USD"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := TitleCase(tt.in); got != tt.want {
				t.Errorf("TitleCase(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}
