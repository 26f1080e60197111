package wrappers

import (
	"encoding/json"

	"github.com/smile-loop/smile/internal/textutil"

	"github.com/smile-loop/smile/status/wire"

	"github.com/smile-loop/smile/status"
)

// MaxResultBytes keeps a result under the controller's 1 MiB limit on
// request bodies, with room to spare.
const MaxResultBytes = 900 << 10

// fit shortens the command outputs a result carries until its JSON fits in
// limit bytes: first the audit's excerpts, then the findings', then the
// audit's outputs altogether. What the Student concluded is never cut.
func fit(body any, limit int) any {
	size := func() int {
		data, _ := json.Marshal(body)
		return len(data)
	}
	if size() <= limit {
		return body
	}
	var audit *status.Audit
	var findings []status.Finding
	switch b := body.(type) {
	case *wire.StudentResultRequest:
		audit, findings = b.Audit, b.StudentOutput.Findings
	case *wire.MentorResultRequest:
		audit = b.Audit
	}
	for _, n := range []int{400, 100, 0} {
		if audit != nil {
			for i := range audit.Commands {
				audit.Commands[i].Output = textutil.Tail(audit.Commands[i].Output, n, "[...]")
			}
		}
		for i := range findings {
			findings[i].Output = textutil.Tail(findings[i].Output, max(n, 100), "[...]")
		}
		if size() <= limit {
			break
		}
	}
	return body
}
