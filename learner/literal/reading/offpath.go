package reading

import (
	"fmt"
	"path"
	"regexp"
	"strings"

	"github.com/smile-loop/smile/learner/literal/leadin"
	"github.com/smile-loop/smile/learner/literal/platform"
	"github.com/smile-loop/smile/learner/literal/rule"
	"github.com/smile-loop/smile/learner/literal/shell"
	"github.com/smile-loop/smile/spec/markdown"

	"github.com/smile-loop/smile/internal/textutil"
)

// The container is Linux: blocks for other platforms, alternatives to the
// step just taken, demonstrations and syntax templates are not the path.
// They are omitted and listed, never run and never reported.
var (
	windowsLangs = set("cmd", "powershell", "pwsh", "ps1", "ps", "bat", "batch", "dos", "doscon", "winbatch", "posh")

	// noteLabel is the label of an admonition sentence ("**Note:** On Windows, ...").
	noteLabel = regexp.MustCompile(`(?i)^(?:\[!?\w+\]\s*)?(?:note|tip|info|important|warning|caution|hint)\s*:\s*`)
	altIntro  = regexp.MustCompile(`(?i)^(?:alternatively|or,?\s+if\s+you\s+prefer|or\s+you\s+(?:can|could)|` +
		`another\s+(?:way|option)|instead,?\s+you\s+(?:can|could)|instead\s+of\s+\w+ing\b|if\s+you\s+prefer|` +
		// "Option 2: ...", "Method B.": the first option is the path, later ones alternatives.
		`(?:option|method|approach|alternative)\s+(?:[2-9]|[b-h]|two|three|four)|` +
		`if\s+you(?:'re|\s+are)\s+(?:running|using)\b[^.]*\b(?:docker|podman|a\s+container))\b`)
	// readersOwn addresses readers with a setup of their own (a
	// virtualenv they manage, their own sources to build): what follows is
	// for that setup, not a step of the page.
	readersOwn = regexp.MustCompile(`(?i)\bif\s+(?:you(?:'re|\s+are)?\s+)?(?:manag(?:e|es|ing)|maintain(?:s|ing)?|us(?:e|es|ing)|ha(?:ve|s|ving)|run(?:s|ning)?|work(?:s|ing)?\s+with)\s+your\s+own\b|` +
		// "All you have to do is put your C/C++ files in the src/ folder."
		"\\b(?:put|place|drop|keep)\\s+your\\s+(?:own\\s+)?(?:[\\w/+#.-]+\\s+){0,2}(?:files|sources|source\\s+files|code)\\s+(?:in|into|under)\\b")
	tabDemo     = regexp.MustCompile(`(?i)tab[- ]complet|\b(?:press|hit)(?:ing)?\s+(?:the\s+)?<?tab>?\b|\bauto-?complet`)
	tabKeyShown = regexp.MustCompile(`<TAB>|<Tab>|\[TAB\]|\[Tab\]|⇥`)
)

// offPath says why block i is not on the Linux reader's path, or "", with
// the evidence of the rule that said so when it is a named rule.
func (p *planner) offPath(i int, ctx blockContext, lang string) (string, []rule.Evidence) {
	b := p.blocks[i]
	if why, ev := p.sectionForOtherPlatform(b.Line); ev != nil {
		return why, []rule.Evidence{*ev}
	}
	if why, ev := itemForOtherPlatform(b.Item, b.Line); ev != nil {
		return why, []rule.Evidence{*ev}
	}
	if why, ev := labelForOtherPlatform(ctx.before, b.Line); ev != nil {
		return why, []rule.Evidence{*ev}
	}
	return p.offPathWhy(i, ctx, lang), nil
}

// offPathWhy is offPath's older half, whose reasons carry no rule yet.
func (p *planner) offPathWhy(i int, ctx blockContext, lang string) string {
	b := p.blocks[i]
	if windowsLangs[lang] {
		return fmt.Sprintf("a Windows %s block", lang)
	}
	if why := explainedTemplate(b, ctx); why != "" {
		return why
	}
	if class, ok := p.asides[b.Line]; ok {
		return fmt.Sprintf("inside a %q section (an exercise or an aside), not the lesson's path", class)
	}
	if b.TabGroup > 0 && p.tabs[b.TabGroup] != b.Tab {
		if chosen := p.tabs[b.TabGroup]; chosen != "" {
			return fmt.Sprintf("the %q tab; the Student follows the %q tab of the same group", b.Tab, chosen)
		}
		return fmt.Sprintf("the %q tab, for another platform", b.Tab)
	}
	for _, h := range p.headings {
		if platform.ForOther(h.Text) {
			return fmt.Sprintf("under the heading %q, for another platform", h.Text)
		}
	}
	last := plain(leadin.LastSentence(ctx.before))
	for _, s := range []string{plain(ctx.before), last} {
		if platform.SentenceForOther(s) {
			return "the prose before it is for another platform: " + textutil.Shorten(s, 80)
		}
		if altIntro.MatchString(s) {
			return "an alternative, not the path: " + textutil.Shorten(s, 80)
		}
	}
	if m := readersOwn.FindString(plain(ctx.before)); m != "" {
		return "for the reader's own setup, not a step of the page: " + textutil.Shorten(strings.TrimSpace(m), 80)
	}
	if tabDemo.MatchString(last) || tabKeyShown.MatchString(b.Text) || tabDemo.MatchString(firstSentence(ctx.after)) {
		return "a tab-completion demonstration"
	}
	return ""
}

// shortcode is a site generator's tag in the prose: Hugo's {{% note %}},
// {{< tab >}}, Liquid's {% include x %}.
var shortcode = regexp.MustCompile(`\{\{[%<].*?[%>]\}\}|\{%.*?%\}`)

// plain is prose without emphasis marks, shortcodes and an admonition
// label.
func plain(prose string) string {
	prose = shortcode.ReplaceAllString(prose, "")
	t := strings.TrimSpace(strings.NewReplacer("**", "", "__", "", "*", "").Replace(prose))
	return strings.TrimSpace(noteLabel.ReplaceAllString(t, ""))
}

var (
	quoted = regexp.MustCompile(`'[^']*'|"(?:[^"\\]|\\.)*"`)
	// A placeholder: <name>, <your-project>, <file name>; not <<EOF or a
	// redirect to a file.
	placeholder  = regexp.MustCompile(`(?:^|[\s=/:])<[A-Za-z][\w.-]*(?:[ _-][\w.-]+)*>(?:$|[\s/:.,])|\{\{\s*[A-Za-z][\w.-]*\s*\}\}`)
	optionalArgs = regexp.MustCompile(`(?:^|\s)\[[A-Za-z_-]+(?:\.\.\.)?\](?:$|\s)|` +
		`(?:^|\s)(?:args?|arguments?|files?|file-?names?|paths?|path-?names?|options?|flags?|packages?|names?|targets?|params?|commands?|dirs?|directories|urls?|items?|values?)\.\.\.(?:\s|$|\])`)
	wordOffsets  = regexp.MustCompile(`\$\{\w+:[A-Za-z]\w*(?::[A-Za-z]\w*)?\}`)
	makeTemplate = regexp.MustCompile(`(?im)^\s*targets?\s*:\s*(?:prerequisites|dependencies|deps|sources)\b`)
)

// template says why a command is a syntax template rather than a command,
// or "": `git clone <url>`, `ls [options]`, `${string:start:length}`.
func template(command string) string {
	first := quoted.ReplaceAllString(textutil.FirstLine(command), "''")
	switch {
	case placeholder.MatchString(first):
		return "a syntax template: " + strings.TrimSpace(placeholder.FindString(first)) + " is a placeholder"
	case optionalArgs.MatchString(first):
		return "a syntax template: " + strings.TrimSpace(optionalArgs.FindString(first)) + " stands for arguments"
	case wordOffsets.MatchString(command):
		return "a syntax template: " + wordOffsets.FindString(command) + " names its parts"
	case makeTemplate.MatchString(command):
		return "a syntax template: " + strings.TrimSpace(makeTemplate.FindString(command)) + " describes the syntax"
	case braceWord.MatchString(first):
		return "a syntax template: " + strings.TrimSpace(braceWord.FindString(first)) + " is a placeholder"
	}
	if w := capsPlaceholder(first); w != "" {
		return "a syntax template: " + w + " is a placeholder (an upper-case word the reader replaces)"
	}
	return ""
}

// braceWord is a placeholder in single braces, `{do_something}`,
// `{project-name}`: not a brace expansion ({a,b}, {1..3}), a variable
// (${x}) or find's {}.
var braceWord = regexp.MustCompile(`(?:^|[\s=/:])\{[A-Za-z][\w-]*\}(?:$|[\s/:.,;])`)

// capsWords are upper-case words commands take as they are: Git's refs, HTTP
// methods, signals, firewall chains and targets, a repository's usual
// files, encodings.
var capsWords = set("HEAD", "ORIG_HEAD", "FETCH_HEAD", "MERGE_HEAD", "GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS",
	"TERM", "KILL", "HUP", "INT", "QUIT", "USR1", "USR2", "STOP", "CONT", "EXIT", "ERR", "SIGINT", "SIGTERM", "SIGKILL", "SIGHUP",
	"INPUT", "OUTPUT", "FORWARD", "ACCEPT", "DROP", "REJECT", "PREROUTING", "POSTROUTING", "MASQUERADE",
	"README", "LICENSE", "CHANGELOG", "TODO", "NEWS", "AUTHORS", "COPYING", "INSTALL", "NOTICE", "CONTRIBUTING",
	"UTF8", "UTF-8", "ASCII", "NULL", "TRUE", "FALSE", "ALL", "NONE", "DEBUG", "INFO", "WARN", "WARNING", "ERROR", "FATAL")

// capsTakers are commands whose upper-case arguments are names, text or
// patterns, never placeholders: variables (export, unset), text (echo), a
// pattern (grep, tr), a test.
var capsTakers = set("export", "unset", "declare", "readonly", "local", "printenv", "env", "set", "echo", "printf", "trap",
	"kill", "pkill", "killall", "iptables", "ip6tables", "tr", "test", "[", "grep", "egrep", "fgrep", "rg", "sed", "awk", "read")

// capsPlaceholder is an upper-case word a command takes as a bare argument
// where the reader puts their own value ("git clone REPOSITORY", "git add
// FILE_NAME", "cmake PATH"), in whatever language the page names it: at
// least four letters, or two parts joined by "_", not a variable's name
// ($NAME, NAME=), not an option's value (-X POST), not one of capsWords.
func capsPlaceholder(line string) string {
	for _, words := range shell.Calls(line) {
		if len(words) < 2 || capsTakers[path.Base(words[0])] {
			continue
		}
		for i, w := range words[1:] {
			if strings.HasPrefix(words[i], "-") && !strings.HasPrefix(words[i], "--") && len(words[i]) == 2 {
				continue // the value of a short option: -X POST, -s TERM
			}
			if capsArg.MatchString(w) && !capsWords[w] && (len(w) >= 4 || strings.Contains(w, "_")) {
				return w
			}
		}
	}
	return ""
}

// capsArg is an upper-case word, with digits and underscores.
var capsArg = regexp.MustCompile(`^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$`)

// capsWord is an upper-case word that may stand for something: FOLDER,
// ARCHIVE_NAME, YOUR_TOKEN.
var capsWord = regexp.MustCompile(`\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*\b`)

// generalForm is prose that introduces a form rather than a step.
var generalForm = regexp.MustCompile(`(?i)\b(?:general|basic|generic)\s+(?:form|syntax|shape|pattern)\b|\bsyntax\s+(?:is|of)\b|\bsyntax\s*:|\busage\s*:|\bthe\s+form\b`)

// explainedTemplate: a short block whose upper-case words the prose
// explains ("where `ARCHIVE` is the name you want"), or that the prose calls
// a general form, is a syntax template, not a step. Environment variables
// the block sets or uses ($HOME, PATH=) are not placeholders.
func explainedTemplate(b markdown.Block, ctx blockContext) string {
	if len(b.Code) == 0 || len(b.Code) > 3 {
		return ""
	}
	prose := ctx.before + "\n" + ctx.after
	for _, w := range capsWord.FindAllString(b.Text, -1) {
		if len(w) < 3 || strings.Contains(b.Text, "$"+w) || strings.Contains(b.Text, w+"=") || strings.Contains(b.Text, "${"+w) {
			continue
		}
		if explains(prose, w) {
			return fmt.Sprintf("a syntax template: the prose explains %s as a placeholder", w)
		}
		if generalForm.MatchString(ctx.before) {
			return fmt.Sprintf("a syntax template: the prose calls it a general form, and %s stands for something", w)
		}
	}
	return ""
}

// explains: the prose says what an upper-case word stands for ("where
// `ARCHIVE` is", "replace `SOURCE` with", "`FOLDER` stands for").
func explains(prose, w string) bool {
	q := regexp.QuoteMeta("`" + w + "`")
	re := regexp.MustCompile(`(?i)(?:where|replace|substitute|change|and)\s+` + q + `|` + q + `\s+(?:is|are|stands|means|should|with|by)\b`)
	return re.MatchString(prose)
}

// firstSentence is the first sentence of a paragraph: "and hit the tab key
// instead of enter." after a block says what the block was for.
func firstSentence(prose string) string {
	prose = strings.Join(strings.Fields(prose), " ")
	if i := strings.IndexAny(prose, ".!?"); i >= 0 {
		return prose[:i+1]
	}
	return prose
}
