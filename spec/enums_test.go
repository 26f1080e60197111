package spec

import (
	"encoding/json"
	"errors"
	"testing"
)

func TestPatienceAttempts(t *testing.T) {
	tests := []struct {
		patience Patience
		retries  int
		want     int
	}{
		// low asks at the first sign of difficulty, whatever the retry budget.
		{PatienceLow, 3, 1},
		{PatienceLow, 10, 1},
		{PatienceLow, 0, 1},
		// medium tries maxRetriesBeforeHelp times.
		{PatienceMedium, 3, 3},
		{PatienceMedium, 1, 1},
		{PatienceMedium, 0, 1},
		{PatienceMedium, -2, 1},
		// high tries twice as hard.
		{PatienceHigh, 3, 6},
		{PatienceHigh, 1, 2},
		{PatienceHigh, 0, 1},
		{PatienceHigh, -1, 1},
		// an unset or unknown level behaves like low.
		{"", 3, 1},
		{"stubborn", 3, 1},
	}
	for _, tt := range tests {
		t.Run(string(tt.patience), func(t *testing.T) {
			if got := tt.patience.Attempts(tt.retries); got != tt.want {
				t.Errorf("Patience(%q).Attempts(%d) = %d, want %d", tt.patience, tt.retries, got, tt.want)
			}
		})
	}
}

func TestPatienceAttemptsGrowWithPatience(t *testing.T) {
	for retries := 1; retries <= 5; retries++ {
		low := PatienceLow.Attempts(retries)
		medium := PatienceMedium.Attempts(retries)
		high := PatienceHigh.Attempts(retries)
		if low > medium || medium >= high {
			t.Errorf("retries=%d: attempts low=%d medium=%d high=%d, want low <= medium < high", retries, low, medium, high)
		}
	}
}

func TestProviderUnmarshalJSON(t *testing.T) {
	tests := []struct {
		in      string
		start   Provider
		want    Provider
		wantErr string
	}{
		{in: `"claude"`, want: ProviderClaude},
		{in: `"Codex"`, want: ProviderCodex},
		{in: `"GEMINI"`, want: ProviderGemini},
		{in: `"Literal"`, want: ProviderLiteral},
		{in: `"openai"`, want: ProviderOpenAI},
		{in: `null`, start: ProviderCodex, want: ProviderCodex},
		{in: `"bard"`, start: ProviderCodex, want: ProviderCodex, wantErr: `llmProvider: invalid value "bard" (allowed: claude, codex, gemini, literal, openai)`},
		{in: `true`, start: ProviderGemini, want: ProviderGemini, wantErr: `llmProvider: invalid value "true" (allowed: claude, codex, gemini, literal, openai)`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			p := tt.start
			err := json.Unmarshal([]byte(tt.in), &p)
			if gotErr := errString(err); gotErr != tt.wantErr {
				t.Errorf("Unmarshal(%s) error = %q, want %q", tt.in, gotErr, tt.wantErr)
			}
			if p != tt.want {
				t.Errorf("Unmarshal(%s) = %q, want %q", tt.in, p, tt.want)
			}
		})
	}
}

func TestPatienceUnmarshalJSON(t *testing.T) {
	tests := []struct {
		in      string
		start   Patience
		want    Patience
		wantErr string
	}{
		{in: `"low"`, want: PatienceLow},
		{in: `"Medium"`, want: PatienceMedium},
		{in: `"HIGH"`, want: PatienceHigh},
		{in: `null`, start: PatienceHigh, want: PatienceHigh},
		{in: `"infinite"`, start: PatienceLow, want: PatienceLow, wantErr: `studentBehavior.patienceLevel: invalid value "infinite" (allowed: low, medium, high)`},
		{in: `2`, start: PatienceLow, want: PatienceLow, wantErr: `studentBehavior.patienceLevel: invalid value "2" (allowed: low, medium, high)`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			p := tt.start
			err := json.Unmarshal([]byte(tt.in), &p)
			if gotErr := errString(err); gotErr != tt.wantErr {
				t.Errorf("Unmarshal(%s) error = %q, want %q", tt.in, gotErr, tt.wantErr)
			}
			if p != tt.want {
				t.Errorf("Unmarshal(%s) = %q, want %q", tt.in, p, tt.want)
			}
		})
	}
}

func TestEnumsMarshalLowerCase(t *testing.T) {
	var cfg Config
	if err := json.Unmarshal([]byte(`{"llmProvider":"Claude","studentBehavior":{"patienceLevel":"HIGH"}}`), &cfg); err != nil {
		t.Fatal(err)
	}
	js, err := json.Marshal(struct {
		P Provider
		L Patience
	}{cfg.LLMProvider, cfg.StudentBehavior.PatienceLevel})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"P":"claude","L":"high"}`; string(js) != want {
		t.Errorf("Marshal = %s, want %s", js, want)
	}
}

func TestEnumErrorIsTyped(t *testing.T) {
	var p Provider
	err := json.Unmarshal([]byte(`"x"`), &p)
	var enum *EnumError
	if !errors.As(err, &enum) {
		t.Fatalf("error %T is not an *EnumError", err)
	}
	want := EnumError{Field: "llmProvider", Value: "x", Allowed: []string{"claude", "codex", "gemini", "literal", "openai"}}
	if enum.Field != want.Field || enum.Value != want.Value || len(enum.Allowed) != len(want.Allowed) {
		t.Errorf("EnumError = %+v, want %+v", *enum, want)
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
