package literal

import (
	"context"
	"path"
	"path/filepath"
	"strings"

	"github.com/smile-loop/smile/learner/literal/reading"
	"github.com/smile-loop/smile/learner/session"
	"github.com/smile-loop/smile/status/wire"
)

// A transcript's prompt shows the folder its command runs in: `[ana@lab
// Demo1]$ cmake .` is run inside Demo1, one of the example folders the
// page's repository holds beside it. When the Student's shell is not in a
// folder of that name, and the folder is in the work folder or comes with
// the page, the command runs in it: `( cd Demo1 && cmake . )`. A folder
// that comes with the page but is not in the work folder yet makes the
// `cd` fail as a missing file, which the page's own folder then explains
// (mentor.ShippedCause) and the Mentor copies in. A prompt that names a
// folder neither place has (the author's own, `~`, a path) changes nothing.
// The page's folder is looked for where the container mounts it
// (wire.ContainerTutorialDir): the task's tutorial path is the host's when
// the Student runs in the controller and drives the container.
func (s *student) promptDir(ctx context.Context, st reading.Step) string {
	name := st.Command.Folder
	if st.Dir != "" || name == "" || name == "." || name == "~" || strings.ContainsAny(name, "/~$") {
		return ""
	}
	cwd := s.sess.State().Cwd
	if filepath.Base(cwd) == name {
		return ""
	}
	for _, dir := range []string{filepath.Join(cwd, name), path.Join(wire.ContainerTutorialDir, name)} {
		if mode, ok, err := session.Stat(ctx, s.sess.Hands(), dir); err == nil && ok && mode.IsDir() {
			return name
		}
	}
	return ""
}
