package literal

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/smile-loop/smile/learner/literal/mentor"
	"github.com/smile-loop/smile/learner/literal/patience"
	"github.com/smile-loop/smile/learner/literal/reading"
	"github.com/smile-loop/smile/status/wire"

	"github.com/smile-loop/smile/status"
)

// write saves a code block to the file the tutorial names, relative to the
// session's current folder.
func (s *student) write(ctx context.Context, st reading.Step) error {
	path := s.resolve(st.File.Path)
	action := "create"
	if st.File.Append {
		action = "append"
	}
	// Through the session's hands: the file goes where the commands run.
	err := s.sess.WriteFile(ctx, path, []byte(st.Content), st.File.Append)
	shown := s.display(path)
	if err != nil {
		cat := status.CategoryCommandFailure
		switch {
		case errors.Is(err, fs.ErrPermission):
			cat = status.CategoryPermissionDenied
		case errors.Is(err, fs.ErrNotExist), errors.Is(err, syscall.ENOTDIR):
			cat = status.CategoryMissingFile
		}
		f := s.finding(cat, st.Line, fmt.Sprintf("could not write `%s`: %v", st.File.Path, err), "")
		f.SuggestedFix = mentor.SuggestedFix(cat, st.Line, st.File.Path)
		f.Attempts = 1
		d := patience.Decide(cat, s.behavior, s.resolution(st.Line, st.EndLine))
		return s.record(f, d.Ask, st.File.Path, err.Error())
	}
	s.audit.Files = append(s.audit.Files, status.AuditFile{
		Iteration: s.task.Iteration, Line: st.Line, Path: shown, Action: action, Bytes: len(st.Content), WrittenAt: time.Now().UTC(),
	})
	s.cov.Wrote(st.Line, st.EndLine)
	if !slices.Contains(s.out.FilesCreated, shown) {
		s.out.FilesCreated = append(s.out.FilesCreated, shown)
	}
	verb := "wrote"
	if st.File.Append {
		verb = "appended"
	}
	s.action(fmt.Sprintf("%s the block at line %d to %s (%s)", verb, st.Line, shown, st.Why))
	return nil
}

// resolve makes a tutorial path absolute: ~ is the home folder, a relative
// path is relative to the session's current folder.
func (s *student) resolve(p string) string {
	if strings.HasPrefix(p, "$") {
		// `$GOPATH/src/app/main.go`: under the folder the session's
		// variable holds, as the shell would expand it.
		p = os.Expand(p, s.sess.Getenv)
	}
	if p == "~" || strings.HasPrefix(p, "~/") {
		home := s.sess.Getenv("HOME")
		if home == "" {
			home = "/root"
		}
		return filepath.Join(home, strings.TrimPrefix(strings.TrimPrefix(p, "~"), "/"))
	}
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(s.sess.State().Cwd, p)
}

// display shows a path relative to the work folder when it is inside it.
func (s *student) display(path string) string {
	if rel, err := filepath.Rel(s.env.WorkDir, path); err == nil && !strings.HasPrefix(rel, "..") {
		return rel
	}
	return path
}

// shippedCause: a missing file the page's own folder holds comes with the
// page (mentor.ShippedCause), unless one of the page's steps writes it.
func (s *student) shippedCause(ctx context.Context, fail mentor.Failure) mentor.Failure {
	if fail.Category != status.CategoryMissingFile || fail.Subject == "" {
		return fail
	}
	rel, err := filepath.Rel(s.env.WorkDir, s.resolve(fail.Subject))
	if err != nil || strings.HasPrefix(rel, "..") {
		return fail
	}
	written := slices.ContainsFunc(s.planned, func(st reading.Step) bool {
		return st.Kind == reading.StepWrite && path.Clean(st.File.Path) == filepath.ToSlash(rel)
	})
	return mentor.ShippedCause(ctx, fail, s.sess.Hands(), wire.ContainerTutorialDir, filepath.ToSlash(rel), written)
}

// systemFolder is where an operating system and its packages keep their
// files; a page never makes them, its system has them.
var systemFolder = regexp.MustCompile(`^/(?:etc|usr|lib|lib64|opt|boot|srv|var/(?:lib|log|cache|spool|www))/`)

// makesOrInstalls is a command that makes files or installs a package.
var makesOrInstalls = regexp.MustCompile(`\b(?:mkdir|touch|tee|cp|mv|ln|install|apt-get|apt|dnf|yum|pacman|apk|zypper|snap)\b|>`)

// systemPathCause: a missing path in a system folder (`ls /etc/vim`, after
// `cd /etc` too) that none of the page's steps makes is part of the system
// the page was written on (a package it has installed, another
// distribution's layout), which a minimal image lacks: the environment's,
// not the page's.
func (s *student) systemPathCause(fail mentor.Failure) mentor.Failure {
	if fail.Category != status.CategoryMissingFile || fail.Subject == "" {
		return fail
	}
	p := filepath.ToSlash(s.resolve(fail.Subject))
	if !systemFolder.MatchString(p) {
		return fail
	}
	for _, st := range s.planned {
		if st.Kind == reading.StepWrite && strings.HasPrefix(filepath.ToSlash(s.resolve(st.File.Path)), p) ||
			st.Kind == reading.StepRun && strings.Contains(st.Command.Text, path.Base(p)) && makesOrInstalls.MatchString(st.Command.Text) {
			return fail // the page makes it, or something by its name
		}
	}
	fail.Category = status.CategoryEnvironment
	fail.Subject = fmt.Sprintf("`%s`, a system path the page's own system has (a package it assumes, or its distribution's layout)", p)
	return fail
}
