package mentor

import (
	"regexp"
	"strings"

	"github.com/smile-loop/smile/learner/literal/reading"
)

var (
	// lsFolders is a plain listing and what it lists; what follows it in a
	// pipe only picks lines of it (head, tail, sort, wc).
	lsFolders = regexp.MustCompile(`^ls((?:\s+-[A-Za-z1]+)*)((?:\s+[\w./~-]+)*)\s*(?:\|\s*(?:head|tail|sort|wc)\b[^|]*)*$`)
	// machineFolders are the folders whose content is the machine's own:
	// the top of the file system and its users' home folders.
	machineFolders = map[string]bool{"/": true, "/home": true, "/home/": true, "/Users": true}
)

// MachineListing: a listing of the machine's own folders (`ls -l /home`,
// `ls / | tail -n1`, or `ls` where the transcript's prompt shows `/home`).
// What it prints is the reader's machine's, never the page's.
func MachineListing(c reading.Command) bool {
	m := lsFolders.FindStringSubmatch(strings.TrimSpace(c.Text))
	if m == nil {
		return false
	}
	targets := strings.Fields(m[2])
	if len(targets) == 0 {
		targets = []string{c.Folder}
	}
	for _, t := range targets {
		if !machineFolders[t] {
			return false
		}
	}
	return true
}
