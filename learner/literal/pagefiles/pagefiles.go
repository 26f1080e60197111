// Package pagefiles tells which files and folders shipped beside a page the
// page uses: a lab's README names count.sh and words.txt, which a reader who
// has the repository finds in the page's folder. The Student copies them
// into its work folder before the first step; those the page's own steps
// make (a written file, `mkdir lab`) are left for the steps to make.
package pagefiles

import (
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/smile-loop/smile/learner/literal/pagemade"
	"github.com/smile-loop/smile/learner/literal/reading"
	"github.com/smile-loop/smile/learner/literal/shell"
	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/spec/markdown"
)

// pageFileSkip are entries beside a page that are never the page's material.
var pageFileSkip = regexp.MustCompile(`(?i)^(?:smile\.json|readme(?:\..*)?|license(?:\..*)?|.*\.(?:md|markdown|rst|png|jpe?g|gif|svg|webp|ico|pdf))$`)

// Used is the entries of the page's folder (as List gives them,
// folders ending in "/") that the page names or its commands read by
// themselves, and that none of its planned steps writes or makes: a file
// by its name anywhere in the page's text, a folder or a name without an
// extension only inside code (`lab`, a code block's `cd lab`), where a
// common word would not be taken for it; the Makefile `make` reads, the
// package.json `npm install` reads (readByItself).
func Used(t *spec.Tutorial, entries []string, planned []reading.Step) []string {
	code, content, tutorialPath := codeText(t), t.Content, t.Path
	var names []string
	for _, e := range entries {
		dir := strings.HasSuffix(e, "/")
		name := strings.TrimSuffix(e, "/")
		if name == "" || strings.Contains(name, "/") || strings.HasPrefix(name, ".") || name == path.Base(tutorialPath) || pageFileSkip.MatchString(name) && !runOn(name, planned) {
			continue
		}
		within := content
		if dir || !strings.Contains(name, ".") {
			within = code
		}
		if !namesWord(within, name) && !readByItself(name, planned) || pagemade.Path(planned, name) {
			continue
		}
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// inlineCode is a Markdown code span on one line.
var inlineCode = regexp.MustCompile("`[^`\n]+`")

// codeText is the page's code as the Markdown parser found it (fenced,
// indented and the other code forms), and the code spans of its paragraphs.
func codeText(t *spec.Tutorial) string {
	var b strings.Builder
	for _, blk := range t.Blocks {
		switch blk.Kind {
		case markdown.BlockCode:
			b.WriteString(blk.Text + "\n")
		case markdown.BlockParagraph:
			for _, span := range inlineCode.FindAllString(blk.Text, -1) {
				b.WriteString(span + "\n")
			}
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

// runOn: a command of the page takes the name as an argument (`ruby
// notes.md`): even a page or a picture is then the page's material.
func runOn(name string, planned []reading.Step) bool {
	for _, st := range planned {
		if st.Kind == reading.StepRun && shell.NamesFile(st.Command.Text, name) {
			return true
		}
	}
	return false
}

// readsItself maps a program to the files it reads from the folder it runs
// in without being told their names, when its first word after the
// program's is one of the subcommands listed ("" for any, or none).
var readsItself = map[string]struct {
	files []string
	subs  []string
}{
	"make":    {[]string{"Makefile", "makefile", "GNUmakefile"}, []string{""}},
	"npm":     {[]string{"package.json", "package-lock.json"}, []string{"install", "i", "ci", "run", "start", "test", "run-script"}},
	"yarn":    {[]string{"package.json", "yarn.lock"}, []string{"", "install", "run", "start", "test", "build"}},
	"cargo":   {[]string{"Cargo.toml", "Cargo.lock"}, []string{"build", "run", "test", "check"}},
	"go":      {[]string{"go.mod", "go.sum"}, []string{"build", "run", "test", "vet"}},
	"mvn":     {[]string{"pom.xml"}, []string{""}},
	"bundle":  {[]string{"Gemfile", "Gemfile.lock"}, []string{"", "install", "exec"}},
	"rake":    {[]string{"Rakefile"}, []string{""}},
	"just":    {[]string{"Justfile", "justfile"}, []string{""}},
	"cmake":   {[]string{"CMakeLists.txt"}, []string{"."}},
	"meson":   {[]string{"meson.build"}, []string{"setup"}},
	"tox":     {[]string{"tox.ini"}, []string{""}},
	"pipenv":  {[]string{"Pipfile", "Pipfile.lock"}, []string{"install", "run", "shell", "sync"}},
	"poetry":  {[]string{"pyproject.toml", "poetry.lock"}, []string{"install", "run", "build"}},
	"vagrant": {[]string{"Vagrantfile"}, []string{"up"}},
}

// readByItself: a planned command runs a program that reads name from its
// folder by itself (`make sum` reads the Makefile; `npm install` the
// package.json), given no other file (`make -f other.mk`, `cmake ../src`).
func readByItself(name string, planned []reading.Step) bool {
	for _, st := range planned {
		if st.Kind != reading.StepRun {
			continue
		}
		for _, call := range shell.Calls(st.Command.Text) {
			if len(call) == 0 {
				continue
			}
			r, ok := readsItself[path.Base(call[0])]
			if !ok || !slices.Contains(r.files, name) {
				continue
			}
			if slices.ContainsFunc(call[1:], func(w string) bool {
				return w == "-f" || w == "-C" || strings.HasPrefix(w, "--file") || strings.HasPrefix(w, "--directory") || strings.HasPrefix(w, "--manifest-path") || w == "-S"
			}) {
				continue
			}
			first := ""
			for _, w := range call[1:] {
				if !strings.HasPrefix(w, "-") {
					first = w
					break
				}
			}
			if slices.Contains(r.subs, "") || slices.Contains(r.subs, first) {
				return true
			}
		}
	}
	return false
}
