// Package rule names the literal learner's reading rules and the evidence a
// decision rests on. A rule is a general fact about how tutorials are written
// ("a line that starts with `>>> ` is typed into Python"), with an ID and a
// one-line doc; a decision that applies it records Evidence: the rule, the
// line of the page it looked at and the phrase or prompt it matched. Steps
// carry their evidence, so that the audit and the report can say which rules
// made the Student run, compare or skip a block.
package rule

import (
	"fmt"
	"sort"
	"strings"
	"sync"
)

// Scope is the part of the page a rule looks at.
type Scope string

// The scopes a rule may have.
const (
	ScopeLine     Scope = "line"            // one line of a code block
	ScopeBlock    Scope = "block"           // a code block as a whole (its language, its lines)
	ScopeBefore   Scope = "sentence before" // the sentence that leads into a block
	ScopeStep     Scope = "step before"     // what the step before the block did
	ScopeSection  Scope = "section"         // a rule stated once for a section
	ScopeDocument Scope = "page"            // the page as a whole
)

// Rule is one named reading rule.
type Rule struct {
	ID    string
	Doc   string
	Scope Scope
}

// Evidence is what one decision rests on: the rule that made it, the line it
// looked at and the phrase (a prompt, a sentence's words) it matched there.
type Evidence struct {
	Rule   string `json:"rule"`
	Line   int    `json:"line,omitempty"`
	Phrase string `json:"phrase,omitempty"`
}

// At is the rule's evidence at a line, for the phrase it matched.
func (r Rule) At(line int, phrase string) Evidence {
	return Evidence{Rule: r.ID, Line: line, Phrase: phrase}
}

// String reads `prompt.python (line 12: ">>> ")`.
func (e Evidence) String() string {
	var where []string
	if e.Line > 0 {
		where = append(where, fmt.Sprintf("line %d", e.Line))
	}
	if e.Phrase != "" {
		where = append(where, fmt.Sprintf("%q", e.Phrase))
	}
	if len(where) == 0 {
		return e.Rule
	}
	return fmt.Sprintf("%s (%s)", e.Rule, strings.Join(where, ": "))
}

// Explain is a decision's evidence in one line, "" when it has none.
func Explain(ev []Evidence) string {
	parts := make([]string, len(ev))
	for i, e := range ev {
		parts[i] = e.String()
	}
	return strings.Join(parts, "; ")
}

var (
	mu       sync.Mutex
	registry = map[string]Rule{}
)

// Register adds a rule to the registry of every reading rule and returns it;
// two rules with one ID are a programming error.
func Register(r Rule) Rule {
	mu.Lock()
	defer mu.Unlock()
	if r.ID == "" || r.Doc == "" {
		panic(fmt.Sprintf("rule %q: a rule needs an ID and a doc", r.ID))
	}
	if _, dup := registry[r.ID]; dup {
		panic(fmt.Sprintf("rule %q registered twice", r.ID))
	}
	registry[r.ID] = r
	return r
}

// Lookup is the registered rule with the ID.
func Lookup(id string) (Rule, bool) {
	mu.Lock()
	defer mu.Unlock()
	r, ok := registry[id]
	return r, ok
}

// All is every registered rule, by ID.
func All() []Rule {
	mu.Lock()
	defer mu.Unlock()
	out := make([]Rule, 0, len(registry))
	for _, r := range registry {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}
