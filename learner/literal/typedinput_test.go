package literal

import (
	"strings"
	"testing"
)

// A step that waits for typed text is reported when the page neither gives
// the text nor says how to end it; the page that says Ctrl-D, or gives the
// text in a here-document, is clean.
func TestTypedInputFinding(t *testing.T) {
	silent := walkPage(t, "# Notes\n\nSave some notes:\n\n```bash\ncat > notes.txt\n```\n\nShow them:\n\n```bash\ncat notes.txt\n```\n", scriptedHands{})
	if len(silent.Findings) != 1 || silent.Findings[0].Line != 6 || !strings.Contains(silent.Findings[0].Problem, "waits for text typed at the terminal") {
		t.Fatalf("findings %+v, want one at line 6", silent.Findings)
	}
	far := walkPage(t, "# Notes\n\nSave some notes:\n\n```bash\ncat > notes.txt\n```\n\nMuch later in the page,\n\nafter more reading,\n\nand more,\n\na config file:\n\n```\nport=8080\n```\n", scriptedHands{})
	if len(far.Findings) != 1 || far.Findings[0].Line != 6 {
		t.Errorf("a text block far below: findings %+v, want the one at line 6 still", far.Findings)
	}
	for name, page := range map[string]string{
		"told":           "# Notes\n\nSave some notes, then press Ctrl-D on an empty line:\n\n```bash\ncat > notes.txt\n```\n",
		"here-document":  "# Notes\n\n```bash\ncat > notes.txt << 'EOF'\nbuy milk\nEOF\n```\n",
		"a file printed": "# Notes\n\n```bash\necho hi > notes.txt\ncat notes.txt\n```\n",
		"the text given": "# Notes\n\n```bash\ncat > notes.txt\n```\n\nType this:\n\n```\nbuy milk\n```\n",
	} {
		if out := walkPage(t, page, scriptedHands{}); len(out.Findings) != 0 {
			t.Errorf("%s: findings %+v, want none", name, out.Findings)
		}
	}
}
