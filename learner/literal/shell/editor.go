package shell

import (
	"path"
	"regexp"
	"slices"
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

// fullScreen are programs that take over the terminal until the reader
// presses a key (q): process monitors and pagers.
var fullScreen = textutil.Set("top", "htop", "btop", "atop", "iotop", "iftop", "nmon", "glances", "less", "more", "most", "mc", "ncdu", "tig")

// batchFlag makes a monitor print once and end (`top -b -n 1`, `iotop -b`);
// then it needs no terminal; nor does asking its version or help.
var batchFlag = textutil.Set("-b", "-bn1", "-n", "--batch", "-o", "--once", "-v", "-V", "--version", "-h", "--help")

// manualCommand opens a program's manual in a pager, for the reader to
// read (`man ls`, `info sed`).
var manualCommand = regexp.MustCompile(`^(?:man|info)(?:\s+\d)?\s+[\w.+-]+$`)

// Watched reports whether command is a single call of a program the
// reader watches and quits (q, Ctrl-C), one that does not end by itself:
// a full-screen program (`top`, `less notes.txt`, `htop`, a manual page), a
// followed log (`tail -f`, `journalctl -f`), `watch`, or `ping` without a
// count. Piped into or out of, or in batch mode, it is an ordinary command.
func Watched(command string) bool {
	if manualCommand.MatchString(strings.TrimSpace(command)) {
		return true
	}
	calls := Calls(command)
	if len(calls) != 1 || len(calls[0]) == 0 || strings.ContainsAny(command, "|<>") {
		return false
	}
	words := calls[0]
	switch path.Base(words[0]) {
	case "tail", "journalctl":
		return slices.ContainsFunc(words[1:], func(w string) bool {
			return w == "--follow" || strings.HasPrefix(w, "-") && !strings.HasPrefix(w, "--") && strings.ContainsAny(w, "fF")
		})
	case "watch":
		return len(words) > 1
	case "ping":
		return !slices.ContainsFunc(words[1:], func(w string) bool { return strings.HasPrefix(w, "-c") || strings.HasPrefix(w, "-w") })
	}
	if !fullScreen[path.Base(words[0])] {
		return false
	}
	for _, w := range words[1:] {
		if batchFlag[w] || strings.HasPrefix(w, "-b") {
			return false
		}
	}
	return true
}
