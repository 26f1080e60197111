package status

import (
	"strings"
	"testing"
)

// Every string a result can hold loses its credentials, however deep; other
// text and non-text stay as they were.
func TestRedactAll(t *testing.T) {
	type action struct {
		Command, Output string
		Bytes           []byte
		Code            int
	}
	type body struct {
		Summary string
		Actions []action
		Last    *action
		Notes   map[string]string
		Any     any
		Fixed   [1]string
		hidden  string
	}
	const tok = "ghs_AbCdEfGhIjKlMnOpQrStUvWx12"
	b := &body{
		Summary: "pushed with " + tok,
		Actions: []action{{Command: "git push", Output: "remote: " + tok, Bytes: []byte(tok), Code: 1}},
		Last:    &action{Output: "ok"},
		Notes:   map[string]string{"hint": "export GITHUB_TOKEN=" + tok, "plain": "nothing"},
		Any:     &action{Output: tok},
		Fixed:   [1]string{tok},
		hidden:  tok,
	}
	RedactAll(b, "")
	for name, got := range map[string]string{"Summary": b.Summary, "Actions[0].Output": b.Actions[0].Output,
		"Notes[hint]": b.Notes["hint"], "Any.Output": b.Any.(*action).Output, "Fixed[0]": b.Fixed[0]} {
		if strings.Contains(got, tok) || !strings.Contains(got, Redacted) {
			t.Errorf("%s = %q, want the token redacted", name, got)
		}
	}
	if b.Actions[0].Command != "git push" || b.Last.Output != "ok" || b.Notes["plain"] != "nothing" || b.Actions[0].Code != 1 {
		t.Errorf("text without a credential changed: %+v", b)
	}
	if string(b.Actions[0].Bytes) != tok || b.hidden != tok {
		t.Errorf("bytes and unexported fields are not text to redact: %q %q", b.Actions[0].Bytes, b.hidden)
	}
	RedactAll(nil)
	RedactAll((*body)(nil))
}
