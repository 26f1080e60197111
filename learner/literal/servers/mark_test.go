package servers

import (
	"testing"

	"github.com/smile-loop/smile/learner/literal/expect"
	"github.com/smile-loop/smile/learner/literal/step"
)

// A command whose next block shows a server's first words runs in the
// background and waits for them; one whose author named a port to wait for
// keeps that, whatever the page shows.
func TestMark(t *testing.T) {
	up := []expect.Line{{Line: 9, Text: "Listening on http://localhost:8080"}}
	steps := []step.Step{
		{Kind: step.Run, Line: 5, Command: step.Command{Line: 5, Text: "node app.js"}},
		{Kind: step.Compare, Line: 9, Expected: up},
		{Kind: step.Run, Line: 12, Command: step.Command{Line: 12, Text: "node other.js"}, Background: true, ReadyPort: 8080},
		{Kind: step.Compare, Line: 15, Expected: up},
		{Kind: step.Run, Line: 18, Command: step.Command{Line: 18, Text: "ls"}},
	}
	Mark(steps)
	if !steps[0].Background || len(steps[0].Shown) != 1 {
		t.Errorf("the server at line 5: %+v, want background waiting for its first words", steps[0])
	}
	if len(steps[2].Shown) != 0 || steps[2].ReadyPort != 8080 {
		t.Errorf("the annotated server at line 12: %+v, want its port kept and no output to wait for", steps[2])
	}
	if steps[4].Background {
		t.Errorf("ls was made a server")
	}
}
