package spec

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// Provider names the program that plays the Student and the Mentor.
type Provider string

// The providers. literal needs no model: it follows the tutorial word for word.
const (
	ProviderClaude  Provider = "claude"
	ProviderCodex   Provider = "codex"
	ProviderGemini  Provider = "gemini"
	ProviderLiteral Provider = "literal"
	ProviderOpenAI  Provider = "openai"
)

var providerNames = []string{"claude", "codex", "gemini", "literal", "openai"}

func (p Provider) valid() bool { return slices.Contains(providerNames, string(p)) }

// UnmarshalJSON accepts any letter case (the seed's enums are case-insensitive).
// null leaves the value as it was, like every other field.
func (p *Provider) UnmarshalJSON(b []byte) error {
	v, err := decodeEnum(b, "llmProvider", providerNames)
	if err == nil && v != "" {
		*p = Provider(v)
	}
	return err
}

// Patience says how hard the Student tries on its own before asking for help.
type Patience string

// The patience levels of the seed.
const (
	PatienceLow    Patience = "low"
	PatienceMedium Patience = "medium"
	PatienceHigh   Patience = "high"
)

var patienceNames = []string{"low", "medium", "high"}

func (p Patience) valid() bool { return slices.Contains(patienceNames, string(p)) }

// UnmarshalJSON accepts any letter case; null leaves the value as it was.
func (p *Patience) UnmarshalJSON(b []byte) error {
	v, err := decodeEnum(b, "studentBehavior.patienceLevel", patienceNames)
	if err == nil && v != "" {
		*p = Patience(v)
	}
	return err
}

// Attempts is how many times the Student runs a failing step before it asks
// the Mentor: low asks at the first sign of difficulty, medium after
// maxRetriesBeforeHelp failures, high after twice that many.
func (p Patience) Attempts(maxRetriesBeforeHelp int) int {
	switch p {
	case PatienceMedium:
		return max(1, maxRetriesBeforeHelp)
	case PatienceHigh:
		return max(1, 2*maxRetriesBeforeHelp)
	}
	return 1
}

// EnumError is an enum field holding a value outside its allowed set.
type EnumError struct {
	Field   string
	Value   string
	Allowed []string
}

func (e *EnumError) Error() string {
	return fmt.Sprintf("%s: invalid value %q (allowed: %s)", e.Field, e.Value, strings.Join(e.Allowed, ", "))
}

func enumError(field, value string, allowed []string) error {
	return &EnumError{Field: field, Value: value, Allowed: allowed}
}

// decodeEnum returns the lower-case value of a JSON string, or "" for null.
func decodeEnum(b []byte, field string, allowed []string) (string, error) {
	if string(bytes.TrimSpace(b)) == "null" {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return "", &EnumError{Field: field, Value: string(b), Allowed: allowed}
	}
	v := strings.ToLower(strings.TrimSpace(s))
	if !slices.Contains(allowed, v) {
		return "", &EnumError{Field: field, Value: s, Allowed: allowed}
	}
	return v, nil
}
