package mentor

import (
	"fmt"
	"path"
	"strings"

	"github.com/smile-loop/smile/internal/textutil"
	"github.com/smile-loop/smile/learner/literal/expect"
	"github.com/smile-loop/smile/learner/literal/reading"
	"github.com/smile-loop/smile/learner/literal/shownfiles"
	"github.com/smile-loop/smile/learner/literal/supply"
	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/status"
	"github.com/smile-loop/smile/status/wire"
)

// lacksSuppliedPrefix starts the Subject of an environment Failure for a
// file the tutorial says its readers get elsewhere (a book's example files,
// a lesson's data).
const lacksSuppliedPrefix = "the files its readers get separately"

// suppliedSubject completes "the container lacks ..." with the sentence
// that says where the files come from.
func suppliedSubject(s supply.Supply) string {
	return fmt.Sprintf("%s (line %d says where they come from: %q)", lacksSuppliedPrefix, s.Line, textutil.Shorten(s.Sentence, 100))
}

// SuppliedCause turns a missing file into the environment's gap when a
// sentence before the line says the reader has the tutorial's files from
// elsewhere: the page did its job, the container lacks the files. A
// desktop's own folders (~/Desktop) are left to their own rule.
func SuppliedCause(f Failure, t *spec.Tutorial, line int) Failure {
	if f.Category != status.CategoryMissingFile || onlyDesktop(f.Subject) {
		return f
	}
	if s, ok := supply.Before(t, line); ok {
		f.Category, f.Subject = status.CategoryEnvironment, suppliedSubject(s)
	}
	return f
}

// onlyDesktop: the missing path ends at a desktop home folder (`ls
// Desktop`), not at something inside it.
func onlyDesktop(p string) bool {
	base := path.Base(strings.TrimRight(p, "/"))
	return base == "Desktop" || base == "Documents" || base == "Downloads"
}

// desktopDir is the part of a missing path up to and including the desktop
// home folder it goes through: what the workaround creates.
func desktopDir(p string) string {
	parts := strings.Split(p, "/")
	for i, part := range parts {
		if part == "Desktop" || part == "Documents" || part == "Downloads" {
			return strings.Join(parts[:i+1], "/")
		}
	}
	return p
}

// suppliedFiles answers a file the tutorial's readers get separately. When
// the tutorial shows the file whole (`cat table.txt` and its lines), the
// workaround writes every file it shows that way, so the Student goes on
// with the reader's files in one step; otherwise nothing in the container
// can stand in for them.
func (m *mentor) suppliedFiles(base wire.MentorAdvice, f status.Finding, missing string, s supply.Supply) advice {
	base.SuggestedFix = fmt.Sprintf("Nothing to fix in the tutorial's steps: line %d says its readers get these files separately, and line %d reads `%s` from them. To check the page end to end, run it with a `containerImage` that holds them.",
		s.Line, f.Line, missing)
	var files []shownfiles.File
	found := false
	for _, sf := range shownfiles.Of(m.tut) {
		if !reading.OwnPath(sf.Name) {
			continue
		}
		files = append(files, sf)
		found = found || sf.Name == missing || path.Base(sf.Name) == path.Base(missing)
	}
	if !found {
		base.Resolution = status.ResolutionUnresolvable
		return advice{MentorAdvice: base, Explanation: fmt.Sprintf(
			"`%s` is one of the files the tutorial's readers get separately (line %d: %q), and the container does not have them. That is the environment, not the tutorial; the tutorial never shows the file whole, so I cannot write it.",
			missing, s.Line, textutil.Shorten(s.Sentence, 120))}
	}
	var w []string
	var names []string
	for _, sf := range files {
		w = append(w, writeContent(sf.Name, sf.Content))
		names = append(names, "`"+sf.Name+"`")
	}
	base.Resolution = status.ResolutionWorkaround
	base.Workaround = strings.Join(w, "\n")
	return advice{MentorAdvice: base, Explanation: fmt.Sprintf(
		"`%s` is one of the files the tutorial's readers get separately (line %d: %q); the container does not have them. That is the environment, not the tutorial. The tutorial shows %s whole with `cat`, so the workaround writes %s from what it shows before line %d.",
		missing, s.Line, textutil.Shorten(s.Sentence, 120), strings.Join(names, ", "), map[bool]string{true: "it", false: "them"}[len(names) == 1], f.Line)}
}

// writeContent is a command that writes content to file (its folder made
// first with install -d, so a replay never takes it for an empty stand-in).
func writeContent(file, content string) string {
	delim := "SMILE_EOF"
	for strings.Contains(content, delim) {
		delim += "_"
	}
	w := fmt.Sprintf("cat > %s <<'%s'\n%s\n%s", shellWord(file), delim, strings.TrimRight(content, "\n"), delim)
	if d := path.Dir(file); d != "." && d != "/" {
		w = "install -d " + shellWord(d) + " && " + w
	}
	return w
}

// IsSupplied says whether an environment Failure's Subject is the files the
// tutorial's readers get separately: every later step needs them too, so
// even an optional step asks for them.
func IsSupplied(subject string) bool { return strings.HasPrefix(subject, lacksSuppliedPrefix) }

// EmptyListing is the environment's Failure for a listing (`ls`) that
// printed nothing where the tutorial shows names, when a sentence before
// the line says the reader has the tutorial's files from elsewhere: the
// folder is empty because the container lacks them, not because the page
// is wrong. ok is false for anything else.
func EmptyListing(command, printed string, t *spec.Tutorial, line int) (Failure, bool) {
	if strings.TrimSpace(printed) != "" || !expect.ListsFolder(command) {
		return Failure{}, false
	}
	s, ok := supply.Before(t, line)
	if !ok {
		return Failure{}, false
	}
	return Failure{Category: status.CategoryEnvironment, Subject: suppliedSubject(s),
		ErrorLine: fmt.Sprintf("`%s` printed nothing", FirstLine(command))}, true
}
