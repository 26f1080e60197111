package mentor

import (
	"context"
	"fmt"
	"path"
	"regexp"
	"strings"

	"github.com/smile-loop/smile/learner/literal/reach"
	"github.com/smile-loop/smile/learner/session"
	"github.com/smile-loop/smile/status"
	"github.com/smile-loop/smile/status/wire"
)

// A page kept in a repository beside its files (a lab's README next to the
// code it hands out, a chapter next to its example folders) is read by
// someone who has the repository: "the code consists of divide.c and
// test.c", "the example is in folder fibonacci_sum". A step that fails for
// want of such a file did not find it because SMILE's work folder starts
// empty, not because the page forgot it: the file is in the page's own
// folder. That is the environment's, and the workaround copies the file from
// there (the page's folder is mounted read-only in the container).

// lacksPageFilesPrefix starts the Subject of such a failure; the file's
// path, relative to the page's folder, follows in backticks.
const lacksPageFilesPrefix = "the files that come with the page: `"

const lacksPageFilesFormat = lacksPageFilesPrefix + "%s` is in the page's own folder, which a reader who has the page's repository works in"

// pageFile reads the path back out of such a Subject, or out of a step's
// output that the Student's check led with it (StudentEvidence).
var pageFile = regexp.MustCompile(regexp.QuoteMeta(lacksPageFilesPrefix) + "([^`]+)`")

// StudentEvidence is the line that leads a failed step's output when the
// Student's own check, not the command's words, found the cause: the
// address check of package reach, or the page's folder holding the missing
// file. The Mentor reads the output, so it reads the same cause. "" for any
// other failure.
func StudentEvidence(f Failure) string {
	switch {
	case f.Category != status.CategoryEnvironment:
		return ""
	case strings.HasPrefix(f.ErrorLine, reach.EvidencePrefix):
		return f.ErrorLine
	case strings.HasPrefix(f.Subject, lacksPageFilesPrefix), strings.HasPrefix(f.Subject, lacksPageFolderPrefix):
		return "smile: the container lacks " + f.Subject
	}
	return ""
}

// ShippedCause turns a missing file into the environment's when the page's
// own folder (pageDir, on the hands given) holds it. rel is the missing
// path relative to the work folder's top; written says whether one of the
// page's own steps writes it (then the page makes it, and a step that needs
// it first is the page's gap, whatever lies beside it).
func ShippedCause(ctx context.Context, f Failure, h session.Hands, pageDir, rel string, written bool) Failure {
	if f.Category != status.CategoryMissingFile || rel == "" || written {
		return f
	}
	rel = path.Clean(rel)
	if path.IsAbs(rel) || rel == "." || strings.HasPrefix(rel, "../") || rel == ".." {
		return f
	}
	if _, ok, err := session.Stat(ctx, h, path.Join(pageDir, rel)); err != nil || !ok {
		if g, ok := folderCause(ctx, f, h, pageDir, rel); ok {
			return g
		}
		return f
	}
	return Failure{Category: status.CategoryEnvironment, Subject: fmt.Sprintf(lacksPageFilesFormat, rel), ErrorLine: f.ErrorLine}
}

// pageFilesAdvice copies a file that comes with the page from its folder
// into the work folder, where the page's reader has it.
func pageFilesAdvice(base wire.MentorAdvice, pageDir, rel string, line int) advice {
	base.Resolution = status.ResolutionWorkaround
	base.Workaround = fmt.Sprintf("cp -r %s %s", shellWord(path.Join(pageDir, rel)), shellWord(rel))
	if dir := path.Dir(rel); dir != "." {
		// Not `mkdir -p .`, which would read as a stand-in for the whole
		// work folder.
		base.Workaround = fmt.Sprintf("mkdir -p %s && %s", shellWord(dir), base.Workaround)
	}
	base.SuggestedFix = fmt.Sprintf("Nothing to fix if the page is read in its repository: `%s` comes with it, beside the page (line %d needs it). If the page may be read on its own, say where `%s` comes from.", rel, line, rel)
	return advice{MentorAdvice: base, Explanation: fmt.Sprintf(
		"`%s` is not in the work folder, but it is in the page's own folder: the page is read in its repository, where a reader has it. The workaround copies it from there.", rel)}
}
