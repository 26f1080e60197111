package report

import "github.com/smile-loop/smile/status"

// redactReport returns a copy of r with every string redacted and every nil
// slice made empty, so each rendering is safe and complete however r was
// built.
func redactReport(r *Report, secrets ...string) *Report {
	c := *r
	red := func(p *string) { *p = status.Redact(*p, secrets...) }

	red(&c.TutorialName)
	red(&c.RunName)
	red(&c.Summary.TutorialPath)
	red(&c.TutorialFile)
	red(&c.Summary.Reason)
	red(&c.Summary.Message)

	c.Gaps = append([]status.Gap{}, r.Gaps...)
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
	c.Skipped = append([]status.SkippedBlock{}, r.Skipped...)
	for i := range c.Skipped {
		red(&c.Skipped[i].Reason)
		red(&c.Skipped[i].Quote)
	}
	c.Timeline = append([]status.TimelineEntry{}, r.Timeline...)
	for i := range c.Timeline {
		red(&c.Timeline[i].Event)
		red(&c.Timeline[i].Details)
	}
	c.MentorNotes = append([]status.MentorNote{}, r.MentorNotes...)
	for i := range c.MentorNotes {
		n := &c.MentorNotes[i]
		red(&n.Question)
		red(&n.Answer)
		red(&n.Workaround)
		red(&n.SuggestedFix)
	}
	c.AuditTrail.Commands = append([]status.AuditCommand{}, r.AuditTrail.Commands...)
	for i := range c.AuditTrail.Commands {
		red(&c.AuditTrail.Commands[i].Command)
		red(&c.AuditTrail.Commands[i].Output)
	}
	c.AuditTrail.Files = append([]status.AuditFile{}, r.AuditTrail.Files...)
	for i := range c.AuditTrail.Files {
		red(&c.AuditTrail.Files[i].Path)
	}
	c.AuditTrail.LLMCalls = append([]status.LLMCall{}, r.AuditTrail.LLMCalls...)
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
			c.SourceLines[line] = status.Redact(text, secrets...)
		}
	}
	return &c
}
