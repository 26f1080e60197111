package literal

import (
	"strings"
	"testing"

	"github.com/smile-loop/smile/status"
)

// An unclosed fence that swallows most of the page is one finding at its
// opening line, and none of its lines is run; a short unclosed block at
// the end of a page is followed as usual.
func TestUnclosedFenceSwallowingThePage(t *testing.T) {
	var page strings.Builder
	page.WriteString("# Lab\n\nFirst:\n\n```bash\nsudo apt update\n\n") // the fence opens at line 5
	for i := 0; i < 12; i++ {
		page.WriteString("Part two of the lab\nsudo systemctl start web\n")
	}
	out := walkPage(t, page.String(), scriptedHands{})
	if len(out.Findings) != 1 || out.Findings[0].Category != status.CategoryAmbiguousInstruction || out.Findings[0].Line != 5 ||
		!strings.Contains(out.Findings[0].Problem, "never closed") {
		t.Fatalf("findings %+v, want one ambiguous_instruction at line 5 saying the block is never closed", out.Findings)
	}
	if out.Coverage.Exercised != 0 {
		t.Errorf("coverage %+v, want nothing of the swallowed block exercised", out.Coverage)
	}

	short := walkPage(t, "# End\n\nLast:\n\n```bash\necho done\n", scriptedHands{})
	if len(short.Findings) != 0 || short.Coverage.Run != 1 {
		t.Errorf("a short unclosed last block: findings %+v, coverage %+v; want it run, no finding", short.Findings, short.Coverage)
	}

	// A stray fence after the last step swallows the page's closing table.
	stray := walkPage(t, "# Lab\n\nRun:\n\n```bash\necho done\n```\n\n```\n\n## Summary\n\n| mode | means |\n|---|---|\n| 7 | rwx |\n", scriptedHands{})
	if len(stray.Findings) != 1 || stray.Findings[0].Line != 9 || !strings.Contains(stray.Findings[0].Problem, "tables and headings") {
		t.Errorf("a stray fence over the page's table: findings %+v, want one at line 9", stray.Findings)
	}
	if stray.Coverage.Run != 1 {
		t.Errorf("a stray fence: coverage %+v, want the step before it run", stray.Coverage)
	}
}

// A program's block closed only after the page's prose and session is one
// finding at its opening line, and the program itself is still followed.
func TestProgramFenceClosedTooLate(t *testing.T) {
	page := "# Greeting\n\n```c\n#include <stdio.h>\nint main(void)\n{\n    printf(\"hi\\n\");\n    return 0;\n}\n\nThe first line pulls in the standard input and output header file.\nThe main function is where the program starts to run for you.\nSave it as hi.c and then build it and run it as shown here.\n\n$ cc hi.c -o hi\n$ ./hi\nhi\n```\n"
	out := walkPage(t, page, scriptedHands{})
	if len(out.Findings) != 1 || out.Findings[0].Line != 3 || !strings.Contains(out.Findings[0].Problem, "not closed where its program ends (line 9)") {
		t.Fatalf("findings %+v, want one at line 3 saying the program's block is not closed where it ends", out.Findings)
	}
	if out.Coverage.Exercised != 1 {
		t.Errorf("coverage %+v, want the program exercised", out.Coverage)
	}
}
