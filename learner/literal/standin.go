package literal

import (
	"context"
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"github.com/smile-loop/smile/learner/literal/mentor"
	"github.com/smile-loop/smile/learner/literal/reading"
	"github.com/smile-loop/smile/learner/literal/shell"
	"github.com/smile-loop/smile/learner/session"
	"github.com/smile-loop/smile/status"
)

// standIn is a file or folder a Mentor's workaround made empty in place of
// one the tutorial expected to exist (`mkdir -p lesson-data`): what it
// would hold is missing because SMILE improvised it, so a file missing
// inside it, or a listing of it, is not the page's gap. Nothing outside it
// is ever excused by it.
type standIn struct {
	line int
	// path is where it was made: absolute when the Student replayed the
	// workaround itself; as the workaround names it when an earlier attempt
	// did (resumed from a checkpoint), and then any folder of that name
	// counts.
	path string
}

// standInWorkaround: the note's workaround stands in for a missing file or
// folder; it lists what it made, resolved against cwd ("" when the
// workaround ran in an earlier attempt).
func standInWorkaround(n status.MentorNote, cwd string) []standIn {
	if (n.Category != status.CategoryMissingFile && n.Category != status.CategoryEnvironment) || !standsIn.MatchString(n.Workaround) {
		return nil
	}
	var out []standIn
	for _, line := range strings.Split(n.Workaround, "\n") {
		for _, part := range strings.Split(line, "&&") {
			fields := strings.Fields(part)
			if len(fields) < 2 || (fields[0] != "mkdir" && fields[0] != "touch") {
				continue
			}
			for _, f := range fields[1:] {
				f = strings.Trim(f, `'"`)
				if f == "" || strings.HasPrefix(f, "-") {
					continue
				}
				if cwd != "" && !filepath.IsAbs(f) && !strings.HasPrefix(f, "~") {
					f = filepath.Join(cwd, f)
				}
				out = append(out, standIn{line: n.Line, path: path.Clean(f)})
			}
		}
	}
	return out
}

// within reports whether p (absolute) lies in the stand-in: the path itself
// or below it.
func (si standIn) within(p string) bool {
	p = path.Clean(p)
	if filepath.IsAbs(si.path) {
		return p == si.path || strings.HasPrefix(p, si.path+"/")
	}
	name := "/" + strings.TrimPrefix(strings.TrimPrefix(si.path, "~"), "/")
	return strings.HasSuffix(p, name) || strings.Contains(p, name+"/")
}

// standInFor is the stand-in before line that p (absolute) lies in.
func (s *student) standInFor(p string, line int) (standIn, bool) {
	for i := len(s.standIns) - 1; i >= 0; i-- {
		if si := s.standIns[i]; si.line < line && si.within(p) {
			return si, true
		}
	}
	return standIn{}, false
}

// behindStandIn: a file missing at line is missing because a stand-in made
// its folder empty, not because the page is wrong. It is not when the
// folder holds a near name of it: the page made that file and misspelt it
// (`notes.txt` written, `note.txt` read), which is the page's gap wherever
// the folder came from.
func (s *student) behindStandIn(ctx context.Context, missing string, line int) (standIn, bool) {
	if missing == "" || len(s.standIns) == 0 {
		return standIn{}, false
	}
	p := s.resolve(missing)
	si, ok := s.standInFor(p, line)
	if !ok {
		return standIn{}, false
	}
	names, err := session.List(ctx, s.sess.Hands(), session.ListRequest{Root: filepath.Dir(p), Depth: 1, Limit: 500})
	if err == nil {
		for _, n := range names {
			if b := path.Base(n); b != path.Base(p) && mentor.NearName(path.Base(p), b) {
				return standIn{}, false
			}
		}
	}
	return si, true
}

// comparesStandIn: the output of cmd cannot match because the command
// runs in a stand-in or names a path in one.
func (s *student) comparesStandIn(text string, line int) (standIn, bool) {
	if len(s.standIns) == 0 {
		return standIn{}, false
	}
	if si, ok := s.standInFor(s.sess.State().Cwd, line); ok {
		return si, true
	}
	for _, w := range strings.Fields(text) {
		w = strings.Trim(w, `'"`)
		if w == "" || strings.HasPrefix(w, "-") || w == shell.CommandName(text) {
			continue
		}
		if si, ok := s.standInFor(s.resolve(w), line); ok {
			return si, true
		}
	}
	return standIn{}, false
}

// lacksBehindStandIn is the environment failure a stand-in explains.
func lacksBehindStandIn(si standIn) string { return fmt.Sprintf(mentor.LacksBehindStandIn, si.line) }

// madeEarly: `mkdir X` fails because X exists, and X is a folder a Mentor's
// workaround made before this line (the page makes it here, after a step
// that needed it): the page's gap is that earlier step's, not this one. It
// settles the step when so.
func (s *student) madeEarly(cmd reading.Command, res session.Result) bool {
	if shell.CommandName(cmd.Text) != "mkdir" || !strings.Contains(res.Output, "File exists") {
		return false
	}
	for _, w := range strings.Fields(cmd.Text)[1:] {
		si, ok := s.standInFor(s.resolve(strings.Trim(w, `'"`)), cmd.Line)
		if strings.HasPrefix(w, "-") || !ok {
			continue
		}
		s.last.ok = true
		s.action(fmt.Sprintf("ran line %d: `%s` (exit %d): the Mentor's workaround before line %d made it already", cmd.Line, mentor.FirstLine(cmd.Text), res.ExitCode, si.line))
		s.listSkipped(cmd.Line, cmd.EndLine, fmt.Sprintf("not a gap: the folder exists because the Mentor's workaround before line %d made it early", si.line))
		return true
	}
	return false
}
