package literal

import (
	"context"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/smile-loop/smile/learner/literal/mentor"
	"github.com/smile-loop/smile/learner/literal/reading"
	"github.com/smile-loop/smile/learner/literal/shell"
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

// pageFileSkip are entries beside a page that are never the page's material.
var pageFileSkip = regexp.MustCompile(`(?i)^(?:smile\.json|readme(?:\..*)?|license(?:\..*)?|.*\.(?:md|markdown|rst|png|jpe?g|gif|svg|webp|ico|pdf))$`)

// copyPageFiles copies what the page uses from its folder into the work
// folder, once per attempt, before the page's first step.
func (s *student) copyPageFiles(ctx context.Context) {
	if s.task.Resume != nil || s.tut == nil {
		return
	}
	entries, err := session.List(ctx, s.sess.Hands(), session.ListRequest{Root: wire.ContainerTutorialDir, Depth: 1, Limit: 500, MarkDirs: true})
	if err != nil || len(entries) == 0 {
		return
	}
	names := usedPageFiles(s.tut.Content, s.tut.Path, entries, s.planned)
	if len(names) == 0 {
		return
	}
	words := make([]string, len(names))
	for i, n := range names {
		words[i] = shellQuote(path.Join(wire.ContainerTutorialDir, n))
	}
	cmd := "cp -R -n -- " + strings.Join(words, " ") + " ./"
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

// usedPageFiles are the entries of the page's folder (as List gives them,
// folders ending in "/") that the page names and that none of its planned
// steps writes or makes: a file by its name anywhere in the page's text, a
// folder or a name without an extension only inside code (`lab`, a code
// block's `cd lab`), where a common word would not be taken for it.
func usedPageFiles(content, tutorialPath string, entries []string, planned []reading.Step) []string {
	code := codeText(content)
	var names []string
	for _, e := range entries {
		dir := strings.HasSuffix(e, "/")
		name := strings.TrimSuffix(e, "/")
		if name == "" || strings.Contains(name, "/") || strings.HasPrefix(name, ".") || name == path.Base(tutorialPath) || pageFileSkip.MatchString(name) {
			continue
		}
		within := content
		if dir || !strings.Contains(name, ".") {
			within = code
		}
		if !namesWord(within, name) || madeByPage(name, planned) {
			continue
		}
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// inlineCode is a Markdown code span on one line.
var inlineCode = regexp.MustCompile("`[^`\n]+`")

// codeText is the page's code: its fenced and indented blocks are found by
// the reader, but a plain scan of code spans and fence bodies is enough to
// tell whether a name is written as code.
func codeText(content string) string {
	var b strings.Builder
	inFence := false
	for _, line := range strings.Split(content, "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			inFence = !inFence
			continue
		}
		if inFence || strings.HasPrefix(line, "    ") || strings.HasPrefix(line, "\t") {
			b.WriteString(line + "\n")
			continue
		}
		for _, span := range inlineCode.FindAllString(line, -1) {
			b.WriteString(span + "\n")
		}
	}
	return b.String()
}

// namesWord: name appears in text as a word of its own, not inside a longer
// name (`count.sh` is not in `recount.sh` nor in `count.sh.bak`).
func namesWord(text, name string) bool {
	re := regexp.MustCompile(`(?:^|[^\w.-])` + regexp.QuoteMeta(name) + `(?:$|[^\w-]|\.(?:$|[^\w]))`)
	return re.MatchString(text)
}

// madeByPage: one of the page's steps writes the name (or a file under it)
// or runs a command that makes it.
func madeByPage(name string, planned []reading.Step) bool {
	for _, st := range planned {
		switch st.Kind {
		case reading.StepWrite:
			p := strings.TrimPrefix(path.Clean(st.File.Path), "./")
			if p == name || strings.HasPrefix(p, name+"/") {
				return true
			}
		case reading.StepRun:
			if shell.Creates(st.Command.Text, name) {
				return true
			}
		}
	}
	return false
}
