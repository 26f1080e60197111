package mentor

import (
	"context"
	"fmt"
	"path"
	"regexp"
	"strings"

	"github.com/smile-loop/smile/learner/session"
	"github.com/smile-loop/smile/status"
	"github.com/smile-loop/smile/status/wire"
)

// A README at the top of a lab's folder often says to build "in the folder
// that holds the sources" (`gcc -o forks forks.c`), while the repository
// keeps them one folder down (src/forks.c): its reader stands in that
// folder, and the files are not missing. When a bare file name a step
// needs is nowhere in the page's folder but in exactly one of its
// subfolders, the failure is the environment's (the work folder starts
// without the page's files), and the workaround brings that folder's files
// to where the step runs.

// lacksPageFolderPrefix starts the Subject of such a failure: the subfolder
// (relative to the page's folder), then the file, each in backticks.
const lacksPageFolderPrefix = "the folder that comes with the page: `"

const lacksPageFolderFormat = lacksPageFolderPrefix + "%s/` holds `%s`, and a reader of the page works in it"

var pageFolder = regexp.MustCompile(regexp.QuoteMeta(lacksPageFolderPrefix) + "([^`]+)/` holds `([^`]+)`")

// maxFolderSearch bounds how much of the page's folder is looked through.
const maxFolderSearch = 2000

// shippedInFolder is the one subfolder of pageDir (at most three levels
// down) that holds a file named name, "" when none or several do.
func shippedInFolder(ctx context.Context, h session.Hands, pageDir, name string) string {
	entries, err := session.List(ctx, h, session.ListRequest{Root: pageDir, Depth: 4, Limit: maxFolderSearch, Skip: []string{".git", "node_modules"}})
	if err != nil {
		return ""
	}
	found := ""
	for _, e := range entries {
		if path.Base(e) != name || !strings.Contains(e, "/") {
			continue
		}
		if found != "" {
			return "" // two folders hold it: which one the page means is not said
		}
		found = path.Dir(e)
	}
	return found
}

// folderCause is ShippedCause's answer for a bare name that one subfolder
// of the page's folder holds.
func folderCause(ctx context.Context, f Failure, h session.Hands, pageDir, rel string) (Failure, bool) {
	if strings.Contains(rel, "/") {
		return f, false
	}
	dir := shippedInFolder(ctx, h, pageDir, rel)
	if dir == "" {
		return f, false
	}
	return Failure{Category: status.CategoryEnvironment, Subject: fmt.Sprintf(lacksPageFolderFormat, dir, rel), ErrorLine: f.ErrorLine}, true
}

// pageFolderAdvice copies the files of the page's subfolder dir into the
// folder the step runs in, where the page's reader, standing in dir, has
// them; files already there are kept.
func pageFolderAdvice(base wire.MentorAdvice, pageDir, dir, file string, line int) advice {
	base.Resolution = status.ResolutionWorkaround
	base.Workaround = fmt.Sprintf("cp -R -n %s/. .", shellWord(path.Join(pageDir, dir)))
	base.SuggestedFix = fmt.Sprintf("Nothing to fix if the page is read in its repository: `%s` is in its `%s/` folder. To make it plain, say `cd %s` before line %d.", file, dir, dir, line)
	return advice{MentorAdvice: base, Explanation: fmt.Sprintf(
		"`%s` is not where the step runs, but the page's own folder has it in `%s/`, and no other folder of it holds a file of that name: a reader of the page in its repository works in that folder. The workaround copies that folder's files to where the step runs.", file, dir)}
}
