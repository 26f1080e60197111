package markdown

import (
	"regexp"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
)

// Directive is a MyST directive (Sphinx in Markdown) that a fenced block
// opens: ```{code-block} python```, ```{note}```, ```{eval-rst}```.
type Directive struct {
	Name string // code-block, note, eval-rst
	Arg  string // the rest of the info string: a language, a title
}

// The directives a page's reader meets, by what their body is. Only these
// names make a directive: ```{python}``` and ```{r, echo=FALSE}``` are
// languages in braces (Quarto, R Markdown), not directives.
var (
	// codeDirectives hold code in the language their argument names.
	codeDirectives = setOf("code-block", "code", "sourcecode", "code-cell")
	// markdownDirectives hold Markdown: their code blocks are the page's.
	markdownDirectives = setOf("note", "tip", "hint", "important", "warning", "caution", "attention", "danger", "error",
		"seealso", "admonition", "dropdown", "tab-set", "tab-item", "card", "grid", "grid-item", "grid-item-card",
		"margin", "sidebar", "topic", "div", "container", "versionadded", "versionchanged", "deprecated")
	// markupDirectives hold what the documentation generator reads, not
	// code to run: reStructuredText, math, diagrams, tables, included files,
	// an exercise and its solution.
	markupDirectives = setOf("eval-rst", "math", "mermaid", "toctree", "image", "figure", "include", "literalinclude",
		"raw", "list-table", "csv-table", "table", "graphviz", "plantuml", "glossary", "bibliography", "contents",
		"index", "exercise", "solution", "automodule", "autoclass", "autofunction", "automethod", "autodata", "autosummary")

	directiveInfo = regexp.MustCompile(`^\{([a-z][\w-]*)\}\s*(.*)$`)
	// directiveOption is an option line at the top of a directive's body
	// (`:caption: app.py`, `:linenos:`).
	directiveOption = regexp.MustCompile(`^\s*:[\w-]+:(?:\s.*)?$`)
)

// MySTDirective reads a fenced block's info string as a MyST directive.
func MySTDirective(info string) (Directive, bool) {
	m := directiveInfo.FindStringSubmatch(strings.TrimSpace(info))
	if m == nil || !(codeDirectives[m[1]] || markdownDirectives[m[1]] || markupDirectives[m[1]]) {
		return Directive{}, false
	}
	return Directive{Name: m[1], Arg: strings.TrimSpace(m[2])}, true
}

// Code says the directive's body is code (its argument is the language).
func (d Directive) Code() bool { return codeDirectives[d.Name] }

// Markdown says the directive's body is Markdown, read as the page's own.
func (d Directive) Markdown() bool { return markdownDirectives[d.Name] }

// setInfo gives a code block its info string and language. A MyST code
// directive's language is its argument, and the options at the top of its
// body (`:caption:` lines, or a `---` block of YAML) are not code.
func setInfo(b *Block, info string) {
	b.Info, b.Lang = info, infoLang(info)
	d, ok := MySTDirective(info)
	if !ok {
		return
	}
	b.Lang = d.Name
	if !d.Code() {
		return
	}
	b.Lang = infoLang(d.Arg)
	k := 0
	if len(b.Code) > 0 && strings.TrimSpace(b.Code[0].Text) == "---" {
		for k = 1; k < len(b.Code) && strings.TrimSpace(b.Code[k].Text) != "---"; k++ {
		}
		k = min(k+1, len(b.Code))
	}
	for k < len(b.Code) && directiveOption.MatchString(b.Code[k].Text) {
		k++
	}
	if k > 0 && k < len(b.Code) && strings.TrimSpace(b.Code[k].Text) == "" {
		k++
	}
	b.Code = b.Code[k:]
	b.Text = joinCode(b.Code)
}

// directiveTabs unwraps MyST directives whose body is Markdown, across the
// passes of one parse, and numbers the tab groups of their tab sets after
// the groups findTabs found.
type directiveTabs struct {
	tabs map[int]tab
	next int      // the next tab group's number
	sets [][3]int // each tab set: first line, last line, group
}

func newDirectiveTabs(tabs map[int]tab) *directiveTabs {
	d := &directiveTabs{tabs: tabs, next: 1}
	for _, t := range tabs {
		d.next = max(d.next, t.group+1)
	}
	return d
}

// unwrap returns the opening and closing fence lines of a closed directive
// whose body is Markdown, to be blanked so that the body parses as the
// page's; a tab item's lines are in its tab.
func (d *directiveTabs) unwrap(node *ast.FencedCodeBlock, source []byte, pc parser.Context, lines lineIndex) (int, int, bool) {
	if node.Info == nil {
		return 0, 0, false
	}
	dir, ok := MySTDirective(string(node.Info.Segment.Value(source)))
	off, closed := recorded(pc, closingFenceKey, node)
	if !ok || !dir.Markdown() || !closed || node.Pos() < 0 {
		return 0, 0, false
	}
	first, last := lines.line(node.Pos()), lines.line(off)
	switch dir.Name {
	case "tab-set":
		d.sets = append(d.sets, [3]int{first, last, d.next})
		d.next++
	case "tab-item":
		group := 0
		for _, s := range d.sets {
			if s[0] < first && last <= s[1] {
				group = s[2]
			}
		}
		if group == 0 {
			group = d.next
			d.next++
		}
		for l := first; l <= last; l++ {
			d.tabs[l] = tab{label: strings.Trim(dir.Arg, `"'`), group: group}
		}
	}
	return first, last, true
}
