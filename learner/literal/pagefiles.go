package literal

import (
	"context"
	"fmt"
	"strings"

	"github.com/smile-loop/smile/learner/literal/mentor"
	"github.com/smile-loop/smile/learner/literal/pagefiles"
	"github.com/smile-loop/smile/learner/session"
	"github.com/smile-loop/smile/status/wire"
)

// A page kept in a repository beside the files it uses (a lab's README next
// to count.sh and words.txt, a chapter next to its example folder) is read
// by someone who cloned the repository and works in the page's folder:
// "run bash count.sh words.txt" finds both. SMILE's work folder starts
// empty, so before the first step the Student copies in, from the page's
// own folder (mounted read-only in the container), what a reader has there
// and the page uses: each file or folder beside the page whose name the
// page writes, that none of its steps makes itself. The copy is setup the
// page did not show, said in the Student's actions and audited like
// smile.json's setup; the Mentor's copy of a file a step still misses
// (mentor.ShippedCause) stays for names the page does not write out.

// copyPageFiles copies what the page uses from its folder into the work
// folder, once per attempt, before the page's first step.
func (s *student) copyPageFiles(ctx context.Context) {
	if s.task.Resume != nil || s.tut == nil {
		return
	}
	entries, err := session.List(ctx, s.sess.Hands(), session.ListRequest{Root: wire.ContainerTutorialDir, Depth: 4, Limit: 2000, MarkDirs: true,
		Skip: []string{".git", "node_modules"}})
	if err != nil || len(entries) == 0 {
		return
	}
	cmd, names := pagefiles.Copy(s.tut, entries, s.planned, wire.ContainerTutorialDir)
	if cmd == "" {
		return
	}
	res, err := s.sess.Run(ctx, cmd, max(s.timeout, mentor.WorkaroundTimeout))
	if err != nil {
		s.action(fmt.Sprintf("setup the page did not show (the page's folder): `%s` could not run: %v", cmd, err))
		return
	}
	s.auditCommand(0, cmd, res, 1, false)
	s.out.CommandsRun = append(s.out.CommandsRun, cmd)
	how := "exit 0"
	if !succeeded(res) {
		how = fmt.Sprintf("failed, exit %d", res.ExitCode)
	}
	s.action(fmt.Sprintf("setup the page did not show (the page's folder): copied %s into the work folder (%s): the page uses them, and a reader who has its repository has them beside it", strings.Join(names, ", "), how))
}
