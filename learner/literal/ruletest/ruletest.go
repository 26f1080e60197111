// Package ruletest checks the literal learner's rule fixtures: small pages
// with the reading expected of each block written beside it. The reading
// rules' packages (transcript, reading) keep their fixtures in testdata and
// run them with Run; HasFixtures checks that every rule has one.
package ruletest

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/smile-loop/smile/learner/literal/reading"
	"github.com/smile-loop/smile/learner/literal/rule"
	"github.com/smile-loop/smile/spec/markdown"
	"github.com/smile-loop/smile/spec/spectest"
)

// The rule fixtures, in the manner of go/analysis's analysistest: each file
// of testdata is a small page, and the reading expected of each code block
// is written just after it, one comment a step:
//
//	<!-- want: run python3 | input: 6 * 7 | output: 42 | rules: prompt.python -->
//
// A block typed into an earlier step wants `input to line N`; a block that
// is not followed wants its kind (`omit`, `skip`, `ambiguous`, `compare: x`).
var want = regexp.MustCompile(`^<!--\s*want:\s*(.*?)\s*-->$`)

// Run checks every fixture of dir (dir/*.md): the reading of each code block
// against the want comments after it.
func Run(t *testing.T, dir string) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.md"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".md"), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			tut := spectest.Tutorial(t, string(data))
			steps := reading.Plan(tut)
			wants := wanted(string(data), tut.Blocks)
			if len(wants) == 0 {
				t.Fatalf("%s has no want comment", f)
			}
			for _, b := range tut.Blocks {
				if b.Kind != markdown.BlockCode && b.Kind != markdown.BlockParagraph {
					continue
				}
				got, exp := readingOf(b, steps), wants[b.Line]
				if strings.Join(got, "\n") != strings.Join(exp, "\n") {
					t.Errorf("%s:%d: the block reads\n  %s\nwant\n  %s", f, b.Line, strings.Join(got, "\n  "), strings.Join(exp, "\n  "))
				}
			}
		})
	}
}

// wanted maps each code block's line to the readings its want comments
// expect (the comments after it, before the next block), and each
// paragraph's to the steps its sentences ask for (the want comments right
// after it; none when it asks for nothing).
func wanted(text string, blocks []markdown.Block) map[int][]string {
	out := map[int][]string{}
	lines := strings.Split(text, "\n")
	for k, b := range blocks {
		switch b.Kind {
		case markdown.BlockCode:
			end := len(lines) // up to the next paragraph, heading or code block
			for _, next := range blocks[k+1:] {
				if next.Kind == markdown.BlockCode || next.Kind == markdown.BlockParagraph || next.Kind == markdown.BlockHeading {
					end = next.Line - 1
					break
				}
			}
			for i := b.EndLine; i < end; i++ { // lines[i] is line i+1
				if l := strings.TrimSpace(lines[i]); strings.HasPrefix(l, "```") {
					break
				} else if m := want.FindStringSubmatch(l); m != nil {
					out[b.Line] = append(out[b.Line], m[1])
				}
			}
		case markdown.BlockParagraph:
			for i := max(b.EndLine, b.Line); i < len(lines); i++ {
				m := want.FindStringSubmatch(strings.TrimSpace(lines[i]))
				if m == nil {
					break
				}
				out[b.Line] = append(out[b.Line], m[1])
			}
		}
	}
	return out
}

// readingOf renders the steps planned for a block.
func readingOf(b markdown.Block, steps []reading.Step) []string {
	var out []string
	for _, s := range steps {
		if s.Line < b.Line || s.Line > b.EndLine {
			continue
		}
		out = append(out, render(s))
	}
	if len(out) > 0 {
		return out
	}
	typed := fmt.Sprintf("the block at line %d is typed into it", b.Line)
	for _, s := range steps {
		if strings.Contains(s.Why, typed) {
			return []string{fmt.Sprintf("input to line %d | rules: %s", s.Line, ids(s.Evidence[len(s.Evidence)-1:]))}
		}
	}
	return nil
}

func render(s reading.Step) string {
	var parts []string
	switch s.Kind {
	case reading.StepRun:
		parts = append(parts, "run "+strings.ReplaceAll(s.Command.Text, "\n", " ⏎ "))
		if s.Stdin != "" {
			parts = append(parts, "input: "+joined(strings.Split(strings.TrimSuffix(s.Stdin, "\n"), "\n")))
		}
		var shown []string
		for _, l := range s.Command.Expected {
			shown = append(shown, l.Text)
		}
		if len(shown) > 0 {
			parts = append(parts, "output: "+joined(shown))
		}
		if s.Text != nil && s.Text.Dest.Path != "" {
			parts = append(parts, "or text: write "+s.Text.Dest.Path+" by "+s.Text.Evidence.Rule)
		} else if s.Text != nil {
			parts = append(parts, "or text: skip by "+s.Text.Evidence.Rule)
		}
	case reading.StepCompare:
		var shown []string
		for _, l := range s.Expected {
			shown = append(shown, l.Text)
		}
		parts = append(parts, "compare: "+joined(shown))
	default:
		parts = append(parts, string(s.Kind))
	}
	if len(s.Evidence) > 0 {
		parts = append(parts, "rules: "+ids(s.Evidence))
	}
	return strings.Join(parts, " | ")
}

func joined(lines []string) string {
	for i, l := range lines {
		lines[i] = strings.TrimSpace(l)
	}
	return strings.Join(lines, " ; ")
}

func ids(ev []rule.Evidence) string {
	var out []string
	for _, e := range ev {
		out = append(out, e.Rule)
	}
	return strings.Join(out, ", ")
}

// HasFixtures checks that each rule is registered with a doc and has a
// fixture dir/ID.md.
func HasFixtures(t *testing.T, dir string, ids ...string) {
	t.Helper()
	for _, id := range ids {
		if _, err := os.Stat(filepath.Join(dir, id+".md")); err != nil {
			t.Errorf("rule %s has no fixture %s/%s.md", id, dir, id)
		}
		if r, ok := rule.Lookup(id); !ok || r.Doc == "" {
			t.Errorf("rule %s is not registered with a doc", id)
		}
	}
}
