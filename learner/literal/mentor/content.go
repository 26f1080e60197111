package mentor

import (
	"fmt"
	"path"
	"strings"

	"github.com/smile-loop/smile/spec/markdown"

	"github.com/smile-loop/smile/learner/literal/codelang"
	"github.com/smile-loop/smile/learner/literal/reading"
	"github.com/smile-loop/smile/learner/literal/shell"

	"github.com/smile-loop/smile/status/wire"

	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/status"
)

// readers are commands whose file arguments are read, not created: when one
// fails on a missing file the tutorial may show that file's content.
var readers = map[string]bool{"cat": true, "less": true, "more": true, "head": true, "tail": true, "source": true, ".": true,
	"wc": true, "bat": true, "sort": true, "uniq": true, "diff": true, "jq": true, "yq": true}

// shownContent finds the content the tutorial shows for file near line: the
// code block right after the one holding line when command prints the file
// whole (`cat notes.txt`; what `wc notes.txt` prints is not the file), or a
// block whose prose names the file. It returns the block.
func shownContent(t *spec.Tutorial, command, file string, line int) (markdown.Block, bool) {
	if t == nil {
		return markdown.Block{}, false
	}
	base := path.Base(file)
	at := -1
	for i, b := range t.Blocks {
		if b.Kind == markdown.BlockCode && b.Line <= line && line <= max(b.EndLine, b.Line) {
			at = i
		}
	}
	if at >= 0 && shell.CommandName(command) == "cat" {
		for j := at + 1; j < len(t.Blocks); j++ {
			b := t.Blocks[j]
			if b.Kind == markdown.BlockHeading {
				break
			}
			if b.Kind == markdown.BlockCode {
				if !shellLang(codelang.InfoLang(b.Info)) && strings.TrimSpace(b.Text) != "" {
					return b, true
				}
				break
			}
		}
	}
	for i, b := range t.Blocks {
		if b.Kind != markdown.BlockCode || i == at || shellLang(codelang.InfoLang(b.Info)) {
			continue
		}
		if prose := reading.Intro(t.Blocks, i); strings.Contains(prose, "`"+base+"`") || strings.Contains(prose, "`"+file+"`") ||
			strings.Contains(b.Info, base) {
			return b, true
		}
	}
	return markdown.Block{}, false
}

func shellLang(lang string) bool {
	switch lang {
	case "sh", "bash", "shell", "zsh", "console", "shell-session", "terminal", "powershell", "ps1", "bat", "cmd":
		return true
	}
	return false
}

// readsFile says whether command reads file (cat x, source x, head -n 3 x).
func readsFile(command, file string) bool {
	if !readers[shell.CommandName(command)] {
		return false
	}
	for _, w := range strings.Fields(FirstLine(command))[1:] {
		if strings.Trim(w, `'"`) == file {
			return true
		}
	}
	return false
}

// writeShown is the workaround that writes the block's content to file.
func writeShown(file string, b markdown.Block) string {
	delim := "SMILE_EOF"
	for strings.Contains(b.Text, delim) {
		delim += "_"
	}
	w := fmt.Sprintf("cat > %s <<'%s'\n%s\n%s", shellWord(file), delim, strings.TrimRight(b.Text, "\n"), delim)
	if d := path.Dir(file); d != "." && d != "/" {
		w = "mkdir -p " + shellWord(d) + " && " + w
	}
	return w
}

// shownFile advises writing a file the tutorial reads and shows but never
// creates.
func (m *mentor) shownFile(base wire.MentorAdvice, f status.Finding, missing string) (advice, bool) {
	if !readsFile(f.Command, missing) {
		return advice{}, false
	}
	b, ok := shownContent(m.tut, f.Command, missing, f.Line)
	if !ok {
		return advice{}, false
	}
	base.Resolution = status.ResolutionWorkaround
	base.Workaround = writeShown(missing, b)
	base.SuggestedFix = fmt.Sprintf("Line %d reads `%s`, which no step creates; the tutorial shows its content at line %d: say to save that block as `%s` (\"Save this as `%s`:\") before line %d.",
		f.Line, missing, b.Line, missing, missing, f.Line)
	return advice{MentorAdvice: base, Explanation: fmt.Sprintf(
		"`%s` does not exist: nothing before line %d creates it, but the tutorial shows what it contains in the block at line %d. The workaround writes that content to `%s` before the step.",
		missing, f.Line, b.Line, missing)}, true
}
