package literal

import (
	"context"
	"strings"
	"testing"

	"github.com/smile-loop/smile/learner/session"
)

// compilerHands fails every command that runs the C++ compiler with the
// output given, and answers the rest as scriptedHands does.
type compilerHands struct {
	scriptedHands
	output string
}

func (h compilerHands) Do(ctx context.Context, req session.Request) (session.Response, error) {
	if req.Op == session.OpRun && strings.Contains(req.Run.Command, "++") {
		return session.Response{Result: &session.Result{Output: h.output, ExitCode: 1}}, nil
	}
	return h.scriptedHands.Do(ctx, req)
}

// A whole program tried on its own that the compiler says forgot a header
// is the page's gap, with the include as the fix; one that fails otherwise
// is still no gap (a fragment the page never meant to build).
func TestProgramThatForgotAnInclude(t *testing.T) {
	page := "# Comments\n\nComments are ignored:\n\n```cpp\nint main() {\n    std::cout /* here too */ << \"hi\\n\";\n}\n```\n"
	forgot := "main.cc:2:10: error: 'cout' is not a member of 'std'\nmain.cc:1:1: note: 'std::cout' is defined in header '<iostream>'; did you forget to '#include <iostream>'?\n"
	out := walkPage(t, page, compilerHands{output: forgot})
	if len(out.Findings) != 1 || out.Findings[0].Line != 5 || !strings.Contains(out.Findings[0].SuggestedFix, "Add `#include <iostream>`") {
		t.Fatalf("findings %+v, want one at line 5 with the include as its fix", out.Findings)
	}
	other := walkPage(t, page, compilerHands{output: "main.cc:2:5: error: expected ';' before '}' token\n"})
	if len(other.Findings) != 0 {
		t.Errorf("another compile error: findings %+v, want none", other.Findings)
	}
}
