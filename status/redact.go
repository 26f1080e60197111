package status

import (
	"regexp"
	"strings"
)

// Redacted replaces a secret in every rendered report.
const Redacted = "[REDACTED]"

// keyValueSecret is NAME=value, NAME: value or "NAME": "value" where NAME ends
// in API_KEY, TOKEN, SECRET or PASSWORD (OPENAI_API_KEY, SMILE_TOKEN,
// x-api-key, db_password, ...).
var keyValueSecret = regexp.MustCompile(`(?i)\b((?:[a-z0-9]+[_-])*(?:api[_-]?key|token|secret|password|passwd))\b(["']?[ \t]*[:=][ \t]*)("[^"\n]*"|'[^'\n]*'|[^\s"',;]+)`)

// secretPatterns are credentials recognisable on their own, with the part of
// each match to keep.
var secretPatterns = []struct {
	re   *regexp.Regexp
	keep string
}{
	// Authorization: Bearer|Basic|Token <credential>
	{regexp.MustCompile(`(?i)(\bauthorization["']?[ \t]*[:=][ \t]*["']?(?:bearer|basic|token)[ \t]+)[^\s"']+`), "${1}"},
	// A bearer token anywhere else (curl -H, logs).
	{regexp.MustCompile(`(?i)(\bbearer[ \t]+)[A-Za-z0-9._~+/=-]{8,}`), "${1}"},
	// OpenAI and Anthropic keys: sk-..., sk-proj-..., sk-ant-api03-...
	{regexp.MustCompile(`\bsk-[A-Za-z0-9][A-Za-z0-9_-]{15,}`), ""},
	// Google (Gemini) API keys.
	{regexp.MustCompile(`\bAIza[0-9A-Za-z_-]{30,}`), ""},
	// GitHub tokens.
	{regexp.MustCompile(`\b(?:ghp|gho|ghu|ghs|ghr|github_pat)_[A-Za-z0-9_]{20,}`), ""},
}

// Redact hides what looks like a credential in s, and every one of secrets
// (values known to be secret, such as the run's callback token).
func Redact(s string, secrets ...string) string {
	for _, secret := range secrets {
		if secret != "" {
			s = strings.ReplaceAll(s, secret, Redacted)
		}
	}
	s = keyValueSecret.ReplaceAllStringFunc(s, func(m string) string {
		sub := keyValueSecret.FindStringSubmatch(m)
		value := strings.Trim(sub[3], `"'`)
		// $VAR and ${VAR} name a secret without holding it.
		if value == "" || strings.HasPrefix(value, "$") || value == Redacted {
			return m
		}
		return sub[1] + sub[2] + Redacted
	})
	for _, p := range secretPatterns {
		s = p.re.ReplaceAllString(s, p.keep+Redacted)
	}
	return s
}
