package mentor

import (
	"context"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/smile-loop/smile/learner/literal/codelang"
	"github.com/smile-loop/smile/learner/literal/destination"
	"github.com/smile-loop/smile/learner/literal/reading"
	"github.com/smile-loop/smile/learner/literal/shell"
	"github.com/smile-loop/smile/status"
	"github.com/smile-loop/smile/status/wire"

	"github.com/agnivade/levenshtein"
	"mvdan.cc/sh/v3/syntax"

	"github.com/smile-loop/smile/learner/session"
)

// guessFile looks in the commands after line for a file with the block's
// extension that the tutorial never writes.
func (m *mentor) guessFile(lang string, line int) (string, int, bool) {
	exts := codelang.Extensions[lang]
	if m.tut == nil || len(exts) == 0 {
		return "", 0, false
	}
	created := map[string]bool{}
	for _, c := range m.created(1 << 30) {
		created[path.Base(c)] = true
	}
	for _, st := range reading.PlanWith(m.tut, reading.Options{Runners: m.task.Runners}) {
		if st.Kind != reading.StepRun || st.Line <= line {
			continue
		}
		for _, w := range strings.Fields(st.Command.Text) {
			w = strings.Trim(w, `"'`)
			for _, e := range exts {
				if (strings.HasSuffix(w, e) || path.Base(w) == e) && !created[path.Base(w)] && destination.CleanFileName(w) != "" {
					return w, st.Line, true
				}
			}
		}
	}
	return "", 0, false
}

// candidate is an existing (or tutorial-created) name near a missing one.
type candidate struct {
	name   string // as the link target would use it
	shown  string // as the report shows it
	where  string // where it was found
	inWork bool
	dist   int
}

// nearMatch finds a file or folder whose name almost matches missing:
// case-insensitively equal, or at most two edits away.
func (m *mentor) nearMatch(missing string, line int) (candidate, bool) {
	want := path.Base(strings.TrimSuffix(missing, "/"))
	var cands []candidate
	consider := func(c candidate) {
		got := path.Base(c.name)
		if c.name == missing || (!c.inWork && got == want && path.Dir(c.name) == path.Dir(missing)) {
			return
		}
		if d, ok := nameDistance(want, got); ok {
			c.dist = d
			cands = append(cands, c)
		}
	}
	for _, name := range m.created(line) {
		consider(candidate{name: name, shown: name, where: "a step before it creates it"})
	}
	for _, rel := range m.workEntries() {
		consider(candidate{name: rel, shown: rel, where: "it is in the work folder", inWork: true})
	}
	if len(cands) == 0 {
		return candidate{}, false
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].dist < cands[j].dist })
	return cands[0], true
}

// NearName reports whether two file names almost match: equal but for
// case, or at most two edits apart (and fewer than half their length).
func NearName(a, b string) bool {
	_, ok := nameDistance(a, b)
	return ok
}

func nameDistance(want, got string) (int, bool) {
	d := levenshtein.ComputeDistance(want, got)
	if strings.EqualFold(want, got) {
		d = 0
	}
	return d, d <= 2 && d < max(len(want), len(got))/2
}

// created lists the names the tutorial creates before line: files it says to
// write, and what mkdir, touch, cp, mv, git clone and redirections make.
func (m *mentor) created(line int) []string {
	if m.tut == nil {
		return nil
	}
	var names []string
	for _, st := range reading.PlanWith(m.tut, reading.Options{Runners: m.task.Runners}) {
		if st.Line >= line {
			break
		}
		switch st.Kind {
		case reading.StepWrite:
			names = append(names, path.Clean(st.File.Path))
		case reading.StepRun:
			names = append(names, createdBy(st.Command.Text)...)
		}
	}
	return names
}

// createdBy lists the paths a command creates, as far as its text says.
func createdBy(command string) []string {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(command), "")
	if err != nil {
		return nil
	}
	var out []string
	add := func(s string) {
		if s = destination.CleanFileName(s); s != "" && s != "/dev/null" {
			out = append(out, path.Clean(s))
		}
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Redirect:
			if n.Op == syntax.RdrOut || n.Op == syntax.AppOut || n.Op == syntax.RdrAll || n.Op == syntax.AppAll || n.Op == syntax.RdrClob {
				add(n.Word.Lit())
			}
		case *syntax.CallExpr:
			var args []string
			for _, a := range n.Args {
				if l := a.Lit(); l != "" && !strings.HasPrefix(l, "-") {
					args = append(args, l)
				}
			}
			if len(args) < 2 {
				return true
			}
			switch args[0] {
			case "mkdir", "touch":
				for _, a := range args[1:] {
					add(a)
				}
			case "cp", "mv", "ln":
				add(args[len(args)-1])
			case "git":
				if args[1] == "clone" && len(args) >= 3 {
					if len(args) >= 4 {
						add(args[3])
					} else {
						add(strings.TrimSuffix(path.Base(args[2]), ".git"))
					}
				}
			}
		}
		return true
	})
	return out
}

// workEntries lists the work folder (read-only for the Mentor), relative to
// it, skipping dependency and VCS folders.
func (m *mentor) workEntries() []string {
	out, _ := session.List(context.Background(), m.env.HandsOrLocal(), session.ListRequest{
		Root: m.env.WorkDir, Limit: 5000, Depth: 6,
		Skip: []string{".git", "node_modules", "__pycache__", ".venv", "venv", "target", ".cache"},
	})
	return out
}

// findInWork finds a file of the work folder the Student's command named
// (relative to wherever it ran: any entry that ends with the path).
func (m *mentor) findInWork(file string) (string, fs.FileMode, bool) {
	clean := strings.TrimPrefix(path.Clean(file), "./")
	if strings.HasPrefix(file, m.env.WorkDir+"/") {
		clean = strings.TrimPrefix(file, m.env.WorkDir+"/")
	}
	entries := m.workEntries()
	// The file right in the work folder first, then one in a subfolder.
	sort.SliceStable(entries, func(i, j int) bool { return entries[i] == clean && entries[j] != clean })
	for _, rel := range entries {
		if rel == clean || strings.HasSuffix(rel, "/"+clean) {
			mode, ok, err := session.Stat(context.Background(), m.env.HandsOrLocal(), filepath.Join(m.env.WorkDir, filepath.FromSlash(rel)))
			if err == nil && ok {
				return rel, mode, true
			}
		}
	}
	return "", 0, false
}

// folderNotEntered: the file a step needs is not in the folder it runs in
// but in a folder of the work folder, where an earlier step made it (`cargo
// new hello` makes hello/Cargo.toml): the page never says to change into
// that folder. The workaround changes into it, so the steps after it run
// where the page means them to.
func (m *mentor) folderNotEntered(base wire.MentorAdvice, f status.Finding, missing string) (advice, bool) {
	name := strings.TrimPrefix(missing, m.env.WorkDir+"/")
	if name == "" || strings.Contains(name, "/") {
		return advice{}, false
	}
	rel, mode, ok := m.findInWork(name)
	if !ok || !strings.Contains(rel, "/") || mode.IsDir() {
		return advice{}, false
	}
	dir := path.Dir(rel)
	base.Resolution = status.ResolutionWorkaround
	base.Workaround = "cd " + shellWord(filepath.Join(m.env.WorkDir, filepath.FromSlash(dir)))
	base.SuggestedFix = fmt.Sprintf("Add `cd %s` before line %d: `%s` needs `%s`, which is in the folder `%s/` an earlier step made, and the page never says to change into it.",
		dir, f.Line, FirstLine(f.Command), name, dir)
	return advice{MentorAdvice: base, Explanation: fmt.Sprintf(
		"`%s` looks for `%s` in the folder it runs in, which has none; the work folder has it in `%s/`, which an earlier step made. The page never changes into that folder, so the workaround does, right before line %d.",
		FirstLine(f.Command), name, dir, f.Line)}, true
}

// outputFolder answers a command that writes into a folder that does not
// exist yet: the workaround makes it; the fix moves the page's own step
// that makes it, when one comes later, before the line that needs it.
func (m *mentor) outputFolder(base wire.MentorAdvice, f status.Finding, dir string) advice {
	base.Resolution = status.ResolutionWorkaround
	base.Workaround = "mkdir -p " + shellWord(dir)
	base.SuggestedFix = fmt.Sprintf("Create the folder `%s` before line %d (`mkdir -p %s`): `%s` writes into it.", dir, f.Line, dir, FirstLine(f.Command))
	if at := m.madeAfter(dir, f.Line); at > 0 {
		base.SuggestedFix = fmt.Sprintf("Move the step that creates `%s` (line %d) before line %d: `%s` writes into it first.", dir, at, f.Line, FirstLine(f.Command))
	}
	return advice{MentorAdvice: base, Explanation: fmt.Sprintf(
		"`%s` writes into the folder `%s`, which does not exist yet. The workaround creates it right before line %d.", FirstLine(f.Command), dir, f.Line)}
}

// madeAfter is the first line after line whose command makes dir
// (`mkdir dist`), 0 when none does.
func (m *mentor) madeAfter(dir string, line int) int {
	if m.tut == nil {
		return 0
	}
	lines := strings.Split(m.tut.Content, "\n")
	for i := line; i < len(lines); i++ {
		if t := strings.TrimPrefix(strings.TrimSpace(lines[i]), "$ "); shell.CommandName(t) == "mkdir" && shell.Creates(t, dir) {
			return i + 1
		}
	}
	return 0
}
