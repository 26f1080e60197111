package session

import (
	"maps"
	"path/filepath"
	"slices"
	"strings"
)

// A tutorial runs as root and may replace the shell its commands run in, or
// make every program load a library of its choosing (/etc/ld.so.preload): a
// shell that answers "exit 0" to everything would pass every later step. The
// exit codes stay the kernel's, but the program is the tutorial's. SMILE
// does not try to stop a page from doing this to itself; it makes sure it
// never goes unseen: each command's result says when the shell or the
// preload list changed while it ran (Result.ShellChanged), and the Student
// then checks that the shell still reports what it runs (literal's
// checkShell).

// preloadList is the file the dynamic loader reads before every program.
const preloadList = "/etc/ld.so.preload"

// shellPrint identifies the shell's file (and the file its links lead to)
// and the preload list: a replacement, a rewrite or a new link changes it.
func shellPrint(shell string) map[string]string {
	files := []string{shell, preloadList}
	if real, err := filepath.EvalSymlinks(shell); err == nil && real != shell {
		files = append(files, real)
	}
	out := map[string]string{}
	for _, p := range files {
		out[p] = filePrint(p)
	}
	return out
}

// shellChange says what changed between two prints, "" when nothing did.
func shellChange(before, after map[string]string) string {
	var what []string
	for _, p := range slices.Sorted(maps.Keys(after)) {
		if before[p] == after[p] {
			continue
		}
		if p == preloadList {
			what = append(what, preloadList+" was written or removed")
		} else {
			what = append(what, p+" was replaced or changed")
		}
	}
	return strings.Join(what, "; ")
}
