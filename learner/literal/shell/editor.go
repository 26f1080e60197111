package shell

import (
	"path"
	"strings"

	"github.com/smile-loop/smile/internal/textutil"
)

// editors are interactive text editors a learner drives by hand.
var editors = textutil.Set("nano", "pico", "vi", "vim", "nvim", "emacs", "gedit", "kate", "code", "subl", "notepad", "notepad.exe", "micro", "joe", "mcedit")

// EditorFile is the file an editor command opens, and whether the command
// is one: a single editor call (a trailing comment is allowed: "vi
// hello.c # or nano") on at most one file.
func EditorFile(command string) (string, bool) {
	calls := Calls(command)
	if len(calls) != 1 || len(calls[0]) == 0 {
		return "", false
	}
	words := calls[0]
	if words[0] == "open" && len(words) > 1 && words[1] == "-e" {
		words = words[1:]
	} else if !editors[path.Base(words[0])] {
		return "", false
	}
	file := ""
	for _, w := range words[1:] {
		if strings.HasPrefix(w, "-") || strings.HasPrefix(w, "+") {
			continue
		}
		if file != "" || strings.ContainsAny(w, "$`*?") {
			return "", true // several files, or not a literal name: an editor, but no one file
		}
		file = w
	}
	return file, true
}
