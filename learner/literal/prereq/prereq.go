package prereq

import (
	"regexp"
	"slices"
	"strings"

	"github.com/smile-loop/smile/spec/markdown"

	"github.com/smile-loop/smile/learner/literal/codelang"
	"github.com/smile-loop/smile/learner/literal/packages"
	"github.com/smile-loop/smile/learner/literal/prose"
	"github.com/smile-loop/smile/learner/literal/shell"

	"github.com/smile-loop/smile/spec"
)

// Prerequisite is a tool the tutorial tells its reader to have before they
// start, with the line that says so. A tool it only implies (its title
// names it, most of its commands run it) has no such line: Line is 0 and
// Implied says how.
type Prerequisite struct {
	Tool    string
	Line    int
	Implied string
	// Via names the prerequisite the tutorial names that Tool comes with
	// ("`psql` (package postgresql-client)" for createdb), "" when the
	// tutorial names Tool itself.
	Via string
}

// How a tutorial implies a tool without a line that says to have it.
const (
	ImpliedByTitle    = "its title names it"
	ImpliedByCommands = "most of its commands run it"
	ImpliedByCode     = "its code is in the language this tool runs"
)

// prereqHeading names a section that lists what the reader must have.
// "Adding dependencies" is a step of the tutorial, not a list of what the
// reader must have.
var prereqHeading = regexp.MustCompile(`(?i)prerequisites?|requirements|before you (begin|start)|what you('ll| will)? need|you('ll| will)? need|` +
	`^\s*(?:required\s+|system\s+|build\s+)?dependencies\s*:?\s*$|^\s*install(ation|ing)?\b`)

// prereqSentence is prose outside such a section that still states a
// requirement.
var prereqSentence = regexp.MustCompile(`(?i)\byou('ll| will)? need\b|\bmake sure (that )?you have\b|\b(?:this|the rest of this) (tutorial|guide|book|chapter|section|page|lesson|course) assumes\b|\bcomes installed\b|\bif you (?:have not|haven't)(?: yet)? installed\b|\brequires?\b|\bmust (have|be) installed\b|\binstalled on your (machine|system|computer)\b|\bensure (that )?you have\b|\byou should have\b|^\s*(first,?\s+)?install\b|\bwith \w+ installed\b|\bonce you have\b[^.]{0,60}\binstalled\b|\bonce [\w.+-]+ is (?:installed|configured|set up)\b|\bnow that you(?:'ve| have) installed\b`)

// installLink is a link to an install page: "[Install Go](https://go.dev/doc/install)".
var installLink = regexp.MustCompile(`\[([^\]]*)\]\((https?://[^)\s]*install[^)\s]*)\)|\[(?i:install(?:ing)?) ([^\]]+)\](?:\([^)]*\)|\[[^\]]*\])`)

// toolNames maps how prose names a tool to the commands it provides. Each
// pattern is matched case-sensitively where the name is also an English word
// ("Go", "Make").
var toolNames = []struct {
	re    *regexp.Regexp
	tools []string
}{
	// "Python 3" is python3 only; a bare "Python" may be either name.
	{regexp.MustCompile(`(?i)\bpython\s*3`), []string{"python3"}},
	{regexp.MustCompile(`(?i)\bpython\b(\s*$|\s*[^3\s])`), []string{"python3", "python"}},
	{regexp.MustCompile(`(?i)\bpip3?\b`), []string{"pip", "pip3"}},
	{regexp.MustCompile(`(?i)\bnode(\.js|js)?\b`), []string{"node", "npm", "npx"}},
	{regexp.MustCompile(`(?i)\bnpm\b`), []string{"npm", "npx"}},
	{regexp.MustCompile(`(?i)\byarn\b`), []string{"yarn"}},
	{regexp.MustCompile(`\bGo(lang)?\b\s*(\d|v\d|version|toolchain|installed|compiler|programming|SDK|\(|,|$)|\bgolang\b|(?i:install(ed)?\s+)Go\b`), []string{"go", "gofmt"}},
	{regexp.MustCompile(`(?i)\brust(up|c)?\b|\bcargo\b`), []string{"cargo", "rustc"}},
	{regexp.MustCompile(`(?i)\bgcc\b|\ba c compiler\b|\bc compiler\b|\bbuild-essential\b`), []string{"gcc", "cc", "make"}},
	{regexp.MustCompile(`(?i)\bg\+\+|\bc\+\+ compiler\b`), []string{"g++", "c++"}},
	{regexp.MustCompile(`(?i)\bclang\b`), []string{"clang"}},
	{regexp.MustCompile(`(?i)\bgit\b`), []string{"git"}},
	// Not a bare "make": "make sure you have" is the commonest requirement.
	{regexp.MustCompile(`\bMake\b\s*(\d|installed|\(|,|$)|(?i:gnu make)|["'“‘]make["'”’]`), []string{"make"}},
	{regexp.MustCompile(`(?i)\blatex\b|\btex\s*live\b|\bmiktex\b|\bmactex\b`), []string{"pdflatex", "latex", "xelatex"}},
	{regexp.MustCompile(`(?i)\bcmake\b`), []string{"cmake"}},
	{regexp.MustCompile(`(?i)\bdocker\b`), []string{"docker"}},
	{regexp.MustCompile(`(?i)\bjdk\b|\bjava\b`), []string{"java", "javac"}},
	{regexp.MustCompile(`(?i)\bjre\b`), []string{"java"}},
	{regexp.MustCompile(`(?i)\bmaven\b`), []string{"mvn"}},
	{regexp.MustCompile(`(?i)\bgradle\b`), []string{"gradle"}},
	{regexp.MustCompile(`(?i)\bruby\b`), []string{"ruby", "gem"}},
	{regexp.MustCompile(`(?i)\bphp\b`), []string{"php"}},
	{regexp.MustCompile(`(?i)\bperl\b`), []string{"perl"}},
	{regexp.MustCompile(`(?i)\bpostgres(ql)?\b|\bpsql\b`), []string{"psql"}},
	{regexp.MustCompile(`(?i)\bsqlite3?\b`), []string{"sqlite3"}},
	{regexp.MustCompile(`(?i)\bkubectl\b|\bkubernetes\b`), []string{"kubectl"}},
	{regexp.MustCompile(`(?i)\bterraform\b`), []string{"terraform"}},
	{regexp.MustCompile(`(?i)\bhelm\b`), []string{"helm"}},
	{regexp.MustCompile(`(?i)\b\.net\b|\bdotnet\b`), []string{"dotnet"}},
	{regexp.MustCompile(`(?i)\bcurl\b`), []string{"curl"}},
	{regexp.MustCompile(`(?i)\bwget\b`), []string{"wget"}},
	{regexp.MustCompile(`(?i)\bjq\b`), []string{"jq"}},
}

// inlineCode is an inline code span of any number of backticks, its text.
var inlineCode = regexp.MustCompile("`+([^`\n]+)`+")

// codeSpan is an inline code span in prose: "`jq`" names the command.
var codeSpan = regexp.MustCompile("`([A-Za-z][A-Za-z0-9+._-]*)`")

// installCommand is an install step: the package manager and the packages.
var installCommand = regexp.MustCompile(`(?:^|[\s;&|])(?:sudo\s+)?(?:apt-get|apt|brew|dnf|yum|apk|choco|winget|snap|pacman|zypper|port)\s+(?:install|add|-S)\s+((?:-{1,2}[\w-]+(?:=\S+)?\s+)*[^;&|\n]+)`)

// Prerequisites returns the tools the tutorial tells its reader to have: the
// ones named in a prerequisites section (by its heading), in a sentence that
// states a requirement anywhere, in a link to an install page, or installed
// by an install command the tutorial shows.
func Prerequisites(t *spec.Tutorial) []Prerequisite {
	if t == nil {
		return nil
	}
	var out []Prerequisite
	add := func(line int, implied string, tools ...string) {
		for _, tool := range tools {
			if !slices.ContainsFunc(out, func(p Prerequisite) bool { return p.Tool == tool }) {
				out = append(out, Prerequisite{Tool: tool, Line: line, Implied: implied})
			}
		}
	}
	section := 0 // the heading level of the prerequisites section we are in, 0 outside
	for _, b := range t.Blocks {
		switch b.Kind {
		case markdown.BlockHeading:
			level := headingLevel(t.LineText(b.Line))
			if section > 0 && level <= section {
				section = 0
			}
			if section == 0 && prereqHeading.MatchString(b.Text) {
				section = level
				add(b.Line, "", toolsIn(b.Text)...)
			}
		case markdown.BlockParagraph, markdown.BlockHTML:
			for _, p := range proseTools(b, section > 0) {
				add(p.Line, "", p.Tool)
			}
			// "(if make is missing, type `sudo apt-get install
			// build-essential`)": an install command given in the prose.
			for _, span := range inlineCode.FindAllStringSubmatch(b.Text, -1) {
				for _, m := range installCommand.FindAllStringSubmatch(span[1], -1) {
					add(b.Line, "", installedTools(m[1])...)
				}
			}
		case markdown.BlockCode:
			for _, c := range b.Code {
				for _, m := range installCommand.FindAllStringSubmatch(c.Text, -1) {
					add(c.Line, "", installedTools(m[1])...)
				}
			}
		}
	}
	// The tool a tutorial is about is one its reader has: "First steps with
	// Cargo" comes after the book's install chapter. Added last, so a line
	// that states the requirement outright is the one cited; these cite none.
	if _, title := Title(t); title != "" {
		add(0, ImpliedByTitle, subjectTools(title)...)
	}
	if tool, _ := mainTool(t); tool != "" {
		add(0, ImpliedByCommands, tool)
	}
	add(0, ImpliedByCode, codeTools(t)...)
	return out
}

// toolchains are the programs a page written in a language runs it with:
// a Go book's reader has go, a Rust book's cargo.
var toolchains = map[string][]string{
	"go": {"go"}, "golang": {"go"}, "rust": {"cargo", "rustc"}, "rs": {"cargo", "rustc"},
	"ruby": {"ruby", "irb", "gem", "bundle"}, "rb": {"ruby", "irb", "gem", "bundle"},
	// Not `python`: Debian has no such command (python3 only), so a page that
	// runs `python` has a gap of its own on Debian, whatever its language.
	"python": {"python3", "pip", "pip3"}, "py": {"python3", "pip", "pip3"},
	"javascript": {"node", "npm", "npx"}, "js": {"node", "npm", "npx"}, "typescript": {"node", "npm", "npx"}, "ts": {"node", "npm", "npx"},
	"c": {"gcc", "cc"}, "cpp": {"g++", "c++"}, "c++": {"g++", "c++"}, "java": {"java", "javac"},
	"crystal": {"crystal", "shards"}, "elixir": {"elixir", "mix", "iex"}, "haskell": {"ghc", "ghci", "cabal", "stack"},
	"kotlin": {"kotlinc"}, "scala": {"scala", "sbt"}, "php": {"php", "composer"}, "perl": {"perl"}, "lua": {"lua"},
}

// codeTools are the toolchain of the language most of the page's code is
// in (two blocks at least): the page is about that language, and its reader
// has what runs it, as they have a title's tool.
func codeTools(t *spec.Tutorial) []string {
	counts := map[string]int{}
	best := ""
	for _, b := range t.Blocks {
		lang := codelang.InfoLang(b.Info)
		if b.Kind != markdown.BlockCode || toolchains[lang] == nil {
			continue
		}
		counts[lang]++
		if counts[lang] > counts[best] {
			best = lang
		}
	}
	if counts[best] < 2 {
		return nil
	}
	return toolchains[best]
}

// proseTools finds the tools a paragraph names as requirements: every tool
// in a prerequisites section (line by line: a list), else only those in a
// sentence that states a requirement (cited at the line it starts on, though
// it runs over several) or in an install link.
func proseTools(b markdown.Block, inSection bool) []Prerequisite {
	var out []Prerequisite
	lines := strings.Split(strings.ReplaceAll(b.Text, "’", "'"), "\n")
	for i, text := range lines {
		line := b.Line + i
		for _, m := range installLink.FindAllStringSubmatch(text, -1) {
			tools := toolsIn(m[1] + " " + m[3])
			if len(tools) == 0 {
				// "install [pandoc](…/installing.html)": the link names the tool.
				tools = linkTool(strings.TrimSpace(m[1] + m[3]))
			}
			for _, tool := range tools {
				out = append(out, Prerequisite{Tool: tool, Line: line})
			}
		}
		for _, sentence := range prose.Sentences(text) {
			if inSection {
				out = append(out, sentenceTools(sentence, line)...)
			}
		}
	}
	if !inSection {
		for _, s := range paragraphSentences(lines, b.Line) {
			if prereqSentence.MatchString(s.text) {
				out = append(out, sentenceTools(s.text, s.line)...)
			}
		}
	}
	slices.SortStableFunc(out, func(a, b Prerequisite) int { return a.Line - b.Line })
	return out
}

// sentenceTools are the tools a sentence names, cited at line.
func sentenceTools(sentence string, line int) []Prerequisite {
	tools := toolsIn(sentence)
	for _, m := range namedTool.FindAllStringSubmatch(sentence, -1) {
		tools = append(tools, strings.ToLower(m[1]))
	}
	for _, m := range installWhat.FindAllStringSubmatch(sentence, -1) {
		if w := strings.ToLower(m[1]); !titleStopWords[w] && !installFiller[w] {
			tools = append(tools, w)
		}
	}
	out := make([]Prerequisite, 0, len(tools))
	for _, tool := range tools {
		out = append(out, Prerequisite{Tool: tool, Line: line})
	}
	return out
}

type sentence struct {
	text string
	line int
}

// paragraphSentences splits a paragraph's lines into sentences, each with
// the line it starts on.
func paragraphSentences(lines []string, first int) []sentence {
	var joined strings.Builder
	var starts []int // where each line starts in joined
	for _, l := range lines {
		starts = append(starts, joined.Len())
		joined.WriteString(l)
		joined.WriteString(" ")
	}
	text := joined.String()
	lineAt := func(off int) int {
		i := 0
		for i+1 < len(starts) && starts[i+1] <= off {
			i++
		}
		return first + i
	}
	var out []sentence
	from := 0
	for _, m := range append(prose.SentenceEnds(text), []int{len(text), len(text)}) {
		if t := strings.TrimSpace(text[from:m[0]]); t != "" {
			skip := len(text[from:m[0]]) - len(strings.TrimLeft(text[from:m[0]], " \t"))
			out = append(out, sentence{text: t, line: lineAt(from + skip)})
		}
		from = m[1]
	}
	return out
}

// toolsIn is every command a piece of prose names, by its common names and
// by its code spans.
func toolsIn(s string) []string {
	var tools []string
	for _, tn := range toolNames {
		if tn.re.MatchString(s) {
			tools = append(tools, tn.tools...)
		}
	}
	for _, m := range codeSpan.FindAllStringSubmatch(s, -1) {
		if !strings.ContainsAny(m[1], "./") || strings.HasSuffix(m[1], ".js") {
			tools = append(tools, strings.TrimSuffix(strings.ToLower(m[1]), ".js"))
		}
	}
	return tools
}

// installedTools are the commands an install command's packages provide: the
// package name itself and every command the package table maps to it.
func installedTools(args string) []string {
	var tools []string
	for _, pkg := range strings.Fields(args) {
		if strings.HasPrefix(pkg, "-") {
			continue
		}
		pkg, _, _ = strings.Cut(pkg, "=") // apt's pkg=version
		tools = append(append(tools, pkg), packages.CommandsOf(pkg)...)
	}
	return tools
}

// headingLevel is an ATX heading's level ("## x" is 2); a setext heading
// counts as 2 (its underline is not on this line).
func headingLevel(line string) int {
	t := strings.TrimSpace(line)
	n := len(t) - len(strings.TrimLeft(t, "#"))
	if n == 0 {
		return 2
	}
	return n
}

// oneWordTool is a link text that is a program's name: pandoc, Hugo, mdBook.
var oneWordTool = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+._-]{1,30}$`)

// linkTool is the command a one-word install link names ("[Hugo](…)" is
// hugo), or nothing.
func linkTool(text string) []string {
	text = strings.Trim(text, "`*_ ")
	if !oneWordTool.MatchString(text) {
		return nil
	}
	return []string{strings.ToLower(text)}
}

// Title is the tutorial's title (front matter `title:`, else its first
// heading), with its line.
func Title(t *spec.Tutorial) (int, string) {
	if m := frontTitle.FindStringSubmatch(t.Content); m != nil {
		return 1 + strings.Count(t.Content[:strings.Index(t.Content, m[0])], "\n"), strings.Trim(m[1], `"' `)
	}
	for _, b := range t.Blocks {
		if b.Kind == markdown.BlockHeading {
			return b.Line, b.Text
		}
	}
	return 0, ""
}

// titleWord is a word of a title that may be a program's name.
var titleWord = regexp.MustCompile(`[A-Za-z][A-Za-z0-9+._-]*`)

// subjectTools are the programs a title names: by their common names
// (toolNames), and each of its words as a command name ("Hugo" is hugo,
// "mdBook" is mdbook, "Makefiles" need make).
func subjectTools(title string) []string {
	tools := toolsIn(title)
	for _, w := range titleWord.FindAllString(title, -1) {
		w = strings.ToLower(strings.TrimRight(w, "._-"))
		switch w {
		case "makefile", "makefiles":
			tools = append(tools, "make")
		default:
			if len(w) > 1 && !titleStopWords[w] {
				tools = append(tools, w)
			}
		}
	}
	return tools
}

// titleStopWords are title words that are never the tool a tutorial is
// about, though some are command names too (file, install, test).
var titleStopWords = set("the", "an", "in", "on", "of", "to", "with", "and", "or", "for", "your", "you", "my", "first",
	"steps", "step", "quick", "start", "getting", "started", "how", "basic", "basics", "usage", "introduction", "intro",
	"tutorial", "guide", "create", "creating", "file", "files", "new", "setup", "set", "up", "hello", "world", "using",
	"use", "install", "installing", "test", "testing", "run", "running", "build", "building", "make", "makes", "write",
	"writing", "count", "words", "from", "into", "by", "part", "chapter", "lesson", "project", "app", "repository")

// namedTool is a program a requirement sentence names by what it is: "the
// mdbook CLI tool", "the hugo binary".
var namedTool = regexp.MustCompile(`(?i)\b([a-z][\w+.-]*)\s+(?:CLI|command[- ]line tool)\b`)

// frontTitle is a YAML front matter's title line.
var frontTitle = regexp.MustCompile(`(?m)\A---\n(?:.*\n)*?title:\s*(.+)\n`)

// installWhat is the thing a sentence says to install: "First, install
// pandoc, following ...".
var installWhat = regexp.MustCompile(`(?i)\binstall(?:ed)?\s+([a-z][\w+.-]*)`)

// installFiller are words after "install" that are not a program.
var installFiller = set("it", "them", "this", "that", "a", "an", "some", "any", "all", "everything", "dependencies", "packages", "package", "via", "from", "on", "for", "as", "locally", "globally")

// basicCommands are the shell's own tools: using them often says nothing
// about what a tutorial is about.
var basicCommands = set("cd", "ls", "cat", "echo", "printf", "mkdir", "rm", "cp", "mv", "touch", "pwd", "export",
	"sudo", "chmod", "grep", "sed", "awk", "head", "tail", "sort", "wc", "find", "tree", "source", ".", "exit", "set",
	"apt", "apt-get", "curl", "wget", "bash", "sh", "python", "python3", "node")

// mainTool is the program most of a tutorial's commands run, when it runs at
// least four of them and two in five of all, or three and half of all (the
// shell's own tools aside):
// a page of Poetry's documentation is about poetry, and its reader has it.
func mainTool(t *spec.Tutorial) (string, int) {
	counts, first := map[string]int{}, map[string]int{}
	total := 0
	for _, b := range t.Blocks {
		if b.Kind != markdown.BlockCode || !(codelang.Shell[codelang.InfoLang(b.Info)] || codelang.Console[codelang.InfoLang(b.Info)]) {
			continue
		}
		for _, l := range b.Code {
			text := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l.Text), "$ "))
			name := shell.CommandName(text)
			if name == "" || strings.HasPrefix(text, "#") || basicCommands[name] {
				continue
			}
			total++
			counts[name]++
			if _, ok := first[name]; !ok {
				first[name] = l.Line
			}
		}
	}
	best := ""
	for name, n := range counts {
		if n > counts[best] || n == counts[best] && name < best {
			best = name
		}
	}
	n := counts[best]
	if best == "" || n < 3 || n == 3 && n*2 < total || n*5 < total*2 {
		return "", 0
	}
	return best, first[best]
}

func set(names ...string) map[string]bool {
	m := map[string]bool{}
	for _, n := range names {
		m[n] = true
	}
	return m
}
