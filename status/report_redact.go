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

// redactReport returns a copy of r with every string redacted and every nil
// slice made empty, so each rendering is safe and complete however r was
// built.
func redactReport(r *Report, secrets ...string) *Report {
	c := *r
	red := func(p *string) { *p = Redact(*p, secrets...) }

	red(&c.TutorialName)
	red(&c.RunName)
	red(&c.Summary.TutorialPath)
	red(&c.Summary.Reason)
	red(&c.Summary.Message)

	c.Gaps = append([]Gap{}, r.Gaps...)
	for i := range c.Gaps {
		g := &c.Gaps[i]
		red(&g.Title)
		red(&g.Location.Quote)
		red(&g.Problem)
		red(&g.SuggestedFix)
		red(&g.Command)
		red(&g.CauseQuote)
		red(&g.WorkaroundResult)
	}
	c.Skipped = append([]SkippedBlock{}, r.Skipped...)
	for i := range c.Skipped {
		red(&c.Skipped[i].Reason)
		red(&c.Skipped[i].Quote)
	}
	c.Timeline = append([]TimelineEntry{}, r.Timeline...)
	for i := range c.Timeline {
		red(&c.Timeline[i].Event)
		red(&c.Timeline[i].Details)
	}
	c.MentorNotes = append([]MentorNote{}, r.MentorNotes...)
	for i := range c.MentorNotes {
		n := &c.MentorNotes[i]
		red(&n.Question)
		red(&n.Answer)
		red(&n.Workaround)
		red(&n.SuggestedFix)
	}
	c.AuditTrail.Commands = append([]AuditCommand{}, r.AuditTrail.Commands...)
	for i := range c.AuditTrail.Commands {
		red(&c.AuditTrail.Commands[i].Command)
		red(&c.AuditTrail.Commands[i].Output)
	}
	c.AuditTrail.Files = append([]AuditFile{}, r.AuditTrail.Files...)
	for i := range c.AuditTrail.Files {
		red(&c.AuditTrail.Files[i].Path)
	}
	c.AuditTrail.LLMCalls = append([]LLMCall{}, r.AuditTrail.LLMCalls...)
	for i := range c.AuditTrail.LLMCalls {
		red(&c.AuditTrail.LLMCalls[i].Model)
		red(&c.AuditTrail.LLMCalls[i].Error)
		red(&c.AuditTrail.LLMCalls[i].RawOutput)
	}
	c.Recommendations = append([]Recommendation{}, r.Recommendations...)
	for i := range c.Recommendations {
		red(&c.Recommendations[i].Description)
	}
	red(&c.SourcePath)
	red(&c.BlobURL)
	c.Steps = append([]ReportStep{}, r.Steps...)
	for i := range c.Steps {
		red(&c.Steps[i].Text)
	}
	if r.SourceLines != nil {
		c.SourceLines = make(map[int]string, len(r.SourceLines))
		for line, text := range r.SourceLines {
			c.SourceLines[line] = Redact(text, secrets...)
		}
	}
	return &c
}
