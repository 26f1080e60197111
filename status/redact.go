package status

import (
	"regexp"
	"strings"
)

// Redacted replaces a secret in every rendered report.
const Redacted = "[REDACTED]"

// keyValueSecret is NAME=value, NAME: value or "NAME": "value" where NAME ends
// in API_KEY, TOKEN, SECRET or PASSWORD (OPENAI_API_KEY, SMILE_TOKEN,
// x-api-key, db_password, ...). A value in angle brackets is one value, so
// `<your token>` is never cut in two.
var keyValueSecret = regexp.MustCompile(`(?i)\b((?:[a-z0-9]+[_-])*(?:api[_-]?key|token|secret|password|passwd))\b(["']?[ \t]*[:=][ \t]*)("[^"\n]*"|'[^'\n]*'|<[^<>\n]*>|\{\{[^{}\n]*\}\}|[^\s"',;]+)`)

// exampleValue matches what a tutorial or a suggestion writes in place of a
// credential (export TOKEN=..., <your-token>, <API_KEY>, your_api_key_here, xxxx,
// changeme, {{ token }}): an example, not a secret, so the command that
// shows it stays whole.
var exampleValue = regexp.MustCompile(`(?i)^(?:\.{3,}|…|<[^<>]*(?:\s|your|my|token|key|secret|password|here)[^<>]*>|(?-i:<[A-Z][A-Z0-9_]*>)|\{\{[^{}]*\}\}|\[[^\[\]]*\]|x{3,}|\*{3,}|(?:your|my)[-_ ]\S*|\S*[-_ ](?:here|example|placeholder)|example\S*|placeholder|changeme|change[-_]me|replace[-_]?me|todo|redacted)$`)

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
	// GitLab tokens: personal, CI job, deploy, trigger, runner (glpat-, glcbt-, ...).
	{regexp.MustCompile(`\bgl[a-z]{2,5}-[A-Za-z0-9_-]{20,}`), ""},
	// npm automation and publish tokens.
	{regexp.MustCompile(`\bnpm_[A-Za-z0-9]{36}\b`), ""},
	// Slack tokens.
	{regexp.MustCompile(`\bxox[abposr]-[A-Za-z0-9-]{10,}`), ""},
	// AWS access key IDs (long-lived and temporary).
	{regexp.MustCompile(`\b(?:AKIA|ASIA)[0-9A-Z]{16}\b`), ""},
}

// urlPassword is the password of a URL's user information
// (https://gitlab-ci-token:SECRET@host/...), as CI systems put a job's token
// into the remote a checkout keeps.
var urlPassword = regexp.MustCompile(`(://[^/\s:@]+:)([^/\s@]+)@`)

// randomLooking is a value long and mixed enough to be generated: a page's
// own example passwords (postgres://user:secret@localhost) stay readable.
func randomLooking(v string) bool {
	return len(v) >= 16 && strings.ContainsAny(v, "0123456789") && strings.ContainsAny(strings.ToLower(v), "abcdefghijklmnopqrstuvwxyz")
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
		// $VAR and ${VAR} name a secret without holding it; an example
		// value holds none.
		if value == "" || strings.HasPrefix(value, "$") || value == Redacted || exampleValue.MatchString(value) {
			return m
		}
		return sub[1] + sub[2] + Redacted
	})
	for _, p := range secretPatterns {
		s = p.re.ReplaceAllString(s, p.keep+Redacted)
	}
	return urlPassword.ReplaceAllStringFunc(s, func(m string) string {
		sub := urlPassword.FindStringSubmatch(m)
		if !randomLooking(sub[2]) {
			return m
		}
		return sub[1] + Redacted + "@"
	})
}
