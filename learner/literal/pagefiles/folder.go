package pagefiles

import (
	"path"
	"regexp"
	"strings"

	"github.com/smile-loop/smile/learner/literal/pagemade"
	"github.com/smile-loop/smile/learner/literal/reading"
	"github.com/smile-loop/smile/spec"
)

// A README at the top of a lab's folder often builds or runs its files by
// bare name ("in the folder with the sources: gcc -o forks forks.c"), while
// the repository keeps them one folder down (src/forks.c): its reader works
// in that folder. Folder finds it, so the Student has those files where
// the page's commands run.

// Folder is the one subfolder of the page's folder (entries as List gives
// them, at any depth, folders ending in "/") that holds every file the
// page's code names by its bare name and the folder's top lacks; "" when
// there is none, or the names are in several folders, or one name is in two.
// Files the page's own steps make are not looked for.
func Folder(t *spec.Tutorial, entries []string, planned []reading.Step) string {
	code := codeText(t)
	top := map[string]bool{}
	for _, e := range entries {
		if n := strings.TrimSuffix(e, "/"); !strings.Contains(n, "/") {
			top[n] = true
		}
	}
	holders := map[string][]string{}
	for _, e := range entries {
		if strings.HasSuffix(e, "/") || !strings.Contains(e, "/") || strings.HasPrefix(e, ".") {
			continue
		}
		name := path.Base(e)
		if top[name] || !strings.Contains(name, ".") || strings.HasPrefix(name, ".") || pageFileSkip.MatchString(name) ||
			!namesBare(code, name) || pagemade.Path(planned, name) {
			continue
		}
		holders[name] = append(holders[name], path.Dir(e))
	}
	dir := ""
	for _, dirs := range holders {
		if len(dirs) != 1 || dir != "" && dirs[0] != dir {
			return ""
		}
		dir = dirs[0]
	}
	return dir
}

// namesBare: name appears in text as a word of its own with no folder
// before it (`forks.c`, not `src/forks.c`).
func namesBare(text, name string) bool {
	re := regexp.MustCompile(`(?:^|[^\w./-])` + regexp.QuoteMeta(name) + `(?:$|[^\w-]|\.(?:$|[^\w]))`)
	return re.MatchString(text)
}

// Copy is the command that copies what the page uses from its folder
// (pageDir, as the container sees it) into the folder the page's commands
// run in, and what it copies, said for the Student's actions; "" when the
// page uses nothing of its folder. entries are the page folder's, at any
// depth, as List gives them: the top ones the page names (Used), and the
// files of the Folder its commands run from.
func Copy(t *spec.Tutorial, entries []string, planned []reading.Step, pageDir string) (cmd string, what []string) {
	var top []string
	for _, e := range entries {
		if !strings.Contains(strings.TrimSuffix(e, "/"), "/") {
			top = append(top, e)
		}
	}
	what = Used(t, top, planned)
	var cmds []string
	if len(what) > 0 {
		words := make([]string, len(what))
		for i, n := range what {
			words[i] = quote(path.Join(pageDir, n))
		}
		cmds = append(cmds, "cp -R -n -- "+strings.Join(words, " ")+" ./")
	}
	if dir := Folder(t, entries, planned); dir != "" {
		what = append(what, dir+"/ (its files, where the page's commands run)")
		cmds = append(cmds, "cp -R -n -- "+quote(path.Join(pageDir, dir))+"/. ./")
	}
	return strings.Join(cmds, " && "), what
}

// quote is s as one shell word.
func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
