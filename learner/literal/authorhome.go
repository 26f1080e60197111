package literal

import (
	"context"
	"fmt"
	"path"
	"regexp"
	"strings"

	"github.com/smile-loop/smile/learner/literal/pagemade"
	"github.com/smile-loop/smile/learner/session"
)

// Lab reports and personal notes carry their author's home folder in their
// commands (`mkdir /home/vincent/lab5`, `cd /Users/ana/projects`). A reader
// runs them in their own home: the author's user name is no step of the
// page. So a path under another user's home, which no step made and which
// does not exist, is the Student's own home, and the audit says so; the
// home of a user the page makes (`useradd vincent`) is left alone, there or
// not: a missing one is the page's gap.

// authorHome is a path under a user's home folder on Linux or macOS.
var authorHome = regexp.MustCompile(`(?:^|[\s'"=:])(/(?:home|Users)/[A-Za-z0-9._-]+)(?:/|[\s'";]|$)`)

// ownHome rewrites the author's home folders in text (a step's command at
// line) to the Student's own.
func (s *student) ownHome(ctx context.Context, line int, text string) string {
	home := s.sess.Getenv("HOME")
	if home == "" {
		return text
	}
	done := map[string]bool{}
	for _, m := range authorHome.FindAllStringSubmatch(text, -1) {
		theirs := m[1]
		if done[theirs] || theirs == home || strings.HasPrefix(home, theirs+"/") {
			continue
		}
		done[theirs] = true
		if pagemade.AccountCommand(text) || pagemade.Account(s.keep.steps, path.Base(theirs)) {
			continue // the page makes that user: its home is the page's, there or not
		}
		if _, exists, err := session.Stat(ctx, s.sess.Hands(), theirs); err != nil || exists {
			continue
		}
		text = regexp.MustCompile(regexp.QuoteMeta(theirs)+`(/|[\s'";]|$)`).ReplaceAllString(text, home+"$1")
		s.action(fmt.Sprintf("line %d uses %s, the author's home folder, which no step made: the Student uses its own, %s", line, theirs, home))
	}
	return text
}
