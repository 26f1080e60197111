package recovery

import (
	"github.com/smile-loop/smile/internal/textutil"
	"github.com/smile-loop/smile/status"

	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode"
)

// StudentAnswer is the Student's JSON: the seed's StudentOutput plus where
// it was (line, quote), what kind of problem it met and the problems it
// noted on the way.
type StudentAnswer struct {
	Status            string    `json:"status"`
	CurrentStep       string    `json:"currentStep"`
	AttemptedActions  []string  `json:"attemptedActions"`
	Problem           string    `json:"problem,omitempty"`
	QuestionForMentor string    `json:"questionForMentor,omitempty"`
	Reason            string    `json:"reason,omitempty"`
	Summary           string    `json:"summary"`
	FilesCreated      []string  `json:"filesCreated"`
	CommandsRun       []string  `json:"commandsRun"`
	Line              int       `json:"line,omitempty"`
	Quote             string    `json:"quote,omitempty"`
	Category          string    `json:"category,omitempty"`
	Findings          []Finding `json:"findings,omitempty"`
	// Method is how the answer was recovered.
	Method Method `json:"-"`
}

// Finding is a problem the Student noted and worked past.
type Finding struct {
	Category     string `json:"category,omitempty"`
	Quote        string `json:"quote,omitempty"`
	Line         int    `json:"line,omitempty"`
	Problem      string `json:"problem"`
	SuggestedFix string `json:"suggestedFix,omitempty"`
	Command      string `json:"command,omitempty"`
}

// The Student's three statuses, as the seed spells them.
const (
	StatusCompleted      = "completed"
	StatusAskMentor      = "ask_mentor"
	StatusCannotComplete = "cannot_complete"
)

// Student recovers the Student's answer from a model's output. The status
// must be one of the seed's three (in any spelling a model uses); missing
// fields the seed requires are filled from the others.
func Student(text string) (*StudentAnswer, error) {
	obj, method, other, err := find(text, func(m map[string]any) bool {
		return studentStatus(str(normalize(m)["status"])) != ""
	})
	if err != nil {
		if other != nil {
			if s := str(normalize(other)["status"]); s != "" {
				return nil, fmt.Errorf("status %q is not completed, ask_mentor or cannot_complete", s)
			}
			return nil, fmt.Errorf("the JSON object has no status")
		}
		return nil, err
	}
	m := normalize(obj)
	a := &StudentAnswer{
		Status:            studentStatus(str(m["status"])),
		CurrentStep:       str(m["currentStep"]),
		AttemptedActions:  strs(m["attemptedActions"]),
		Problem:           str(m["problem"]),
		QuestionForMentor: str(m["questionForMentor"]),
		Reason:            str(m["reason"]),
		Summary:           str(m["summary"]),
		FilesCreated:      strs(m["filesCreated"]),
		CommandsRun:       strs(m["commandsRun"]),
		Line:              integer(m["line"]),
		Quote:             str(m["quote"]),
		Category:          category(str(m["category"])),
		Method:            method,
	}
	if a.Line == 0 {
		a.Line = integer(m["lineNumber"])
	}
	findings, _ := m["findings"].([]any)
	for _, f := range findings {
		fm, ok := f.(map[string]any)
		if !ok {
			if s := str(f); s != "" {
				a.Findings = append(a.Findings, Finding{Problem: s})
			}
			continue
		}
		fm = normalize(fm)
		fd := Finding{Category: category(str(fm["category"])), Quote: str(fm["quote"]), Line: integer(fm["line"]),
			Problem: str(fm["problem"]), SuggestedFix: str(fm["suggestedFix"]), Command: str(fm["command"])}
		if fd.Problem == "" {
			fd.Problem = str(fm["description"])
		}
		if fd.Problem != "" || fd.Quote != "" {
			a.Findings = append(a.Findings, fd)
		}
	}
	a.fill()
	return a, nil
}

// fill supplies what the seed requires from what the model did give.
func (a *StudentAnswer) fill() {
	first := func(vs ...string) string {
		for _, v := range vs {
			if strings.TrimSpace(v) != "" {
				return v
			}
		}
		return ""
	}
	switch a.Status {
	case StatusCompleted:
		a.CurrentStep = first(a.CurrentStep, "end of the tutorial")
	case StatusAskMentor:
		a.QuestionForMentor = first(a.QuestionForMentor, a.Problem, a.Reason, "I am stuck at "+first(a.Quote, a.CurrentStep, "a step")+": what am I missing?")
		a.CurrentStep = first(a.CurrentStep, a.Quote, "unknown step")
	case StatusCannotComplete:
		a.Reason = first(a.Reason, a.Problem, a.Summary, "the Student gave no reason")
		a.CurrentStep = first(a.CurrentStep, a.Quote, "unknown step")
	}
	a.Summary = first(a.Summary, a.Problem, a.Reason, a.Status)
	for _, p := range []*[]string{&a.AttemptedActions, &a.FilesCreated, &a.CommandsRun} {
		if *p == nil {
			*p = []string{}
		}
	}
}

// MentorAnswer is the Mentor's JSON: its notes and what they let the
// Student do.
type MentorAnswer struct {
	Notes        string `json:"notes"`
	Resolution   string `json:"resolution"`
	Workaround   string `json:"workaround,omitempty"`
	Quote        string `json:"quote,omitempty"`
	Line         int    `json:"line,omitempty"`
	Category     string `json:"category,omitempty"`
	SuggestedFix string `json:"suggestedFix,omitempty"`
	Method       Method `json:"-"`
}

// The Mentor's resolutions (status.Resolution's values).
const (
	ResolutionWorkaround   = "workaround"
	ResolutionProceed      = "proceed"
	ResolutionUnresolvable = "unresolvable"
)

// Mentor recovers the Mentor's answer. Notes are required; a missing or
// unknown resolution is "workaround" when a workaround is given, else
// "proceed".
func Mentor(text string) (*MentorAnswer, error) {
	obj, method, err := Object(text, func(m map[string]any) bool {
		n := normalize(m)
		return str(n["notes"]) != "" || str(n["answer"]) != "" || str(n["mentorOutput"]) != ""
	})
	if err != nil {
		return nil, err
	}
	m := normalize(obj)
	a := &MentorAnswer{
		Notes:        textutil.FirstNonEmpty(str(m["notes"]), str(m["answer"]), str(m["mentorOutput"])),
		Workaround:   str(m["workaround"]),
		Quote:        str(m["quote"]),
		Line:         integer(m["line"]),
		Category:     category(str(m["category"])),
		SuggestedFix: str(m["suggestedFix"]),
		Method:       method,
	}
	switch r := strings.ToLower(strings.TrimSpace(str(m["resolution"]))); {
	case r == ResolutionWorkaround || r == ResolutionProceed || r == ResolutionUnresolvable:
		a.Resolution = r
	case strings.Contains(r, "unresolv") || r == "blocker" || r == "blocked":
		a.Resolution = ResolutionUnresolvable
	case a.Workaround != "":
		a.Resolution = ResolutionWorkaround
	default:
		a.Resolution = ResolutionProceed
	}
	return a, nil
}

// normalize renames keys to camelCase: current_step, Current-Step and
// CurrentStep all become currentStep.
func normalize(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		ck := camel(k)
		if _, dup := out[ck]; dup && ck != k {
			continue // the camelCase spelling wins over another
		}
		out[ck] = v
	}
	return out
}

func camel(k string) string {
	var b strings.Builder
	up := false
	for i, r := range strings.TrimSpace(k) {
		switch {
		case r == '_' || r == '-' || r == ' ':
			up = b.Len() > 0
		case i == 0 || b.Len() == 0:
			b.WriteRune(unicode.ToLower(r))
		case up:
			b.WriteRune(unicode.ToUpper(r))
			up = false
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// studentStatus maps the spellings models use to the seed's status, or "".
func studentStatus(s string) string {
	k := strings.ToLower(strings.TrimSpace(s))
	k = strings.NewReplacer("-", "_", " ", "_").Replace(k)
	switch k {
	case "completed", "complete", "done", "success", "succeeded", "finished":
		return StatusCompleted
	case "ask_mentor", "askmentor", "ask_for_help", "needs_help", "need_help", "stuck", "help":
		return StatusAskMentor
	case "cannot_complete", "cannotcomplete", "can_not_complete", "cant_complete", "blocked", "blocker", "failed", "impossible":
		return StatusCannotComplete
	}
	return ""
}

// categories are the gap categories (status.Category's values).
var categories = status.CategoryNames()

// category maps a model's spelling to a gap category, or "".
func category(s string) string {
	k := strings.ToLower(strings.TrimSpace(s))
	k = strings.NewReplacer("-", "_", " ", "_").Replace(k)
	for _, c := range categories {
		if k == c || strings.ReplaceAll(c, "_", "") == k {
			return c
		}
	}
	return ""
}

func str(v any) string {
	switch v := v.(type) {
	case string:
		return strings.TrimSpace(v)
	case json.Number:
		return v.String()
	case bool:
		return strconv.FormatBool(v)
	case nil:
		return ""
	case []any:
		parts := make([]string, 0, len(v))
		for _, x := range v {
			if s := str(x); s != "" {
				parts = append(parts, s)
			}
		}
		return strings.Join(parts, "; ")
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func strs(v any) []string {
	switch v := v.(type) {
	case nil:
		return nil
	case []any:
		out := make([]string, 0, len(v))
		for _, x := range v {
			if s := str(x); s != "" {
				out = append(out, s)
			}
		}
		return out
	case string:
		if strings.TrimSpace(v) == "" {
			return nil
		}
		return []string{strings.TrimSpace(v)}
	}
	return []string{str(v)}
}

func integer(v any) int {
	switch v := v.(type) {
	case json.Number:
		if n, err := v.Int64(); err == nil && n > 0 && n < 1<<31 {
			return int(n)
		}
		if f, err := v.Float64(); err == nil && f > 0 && f < 1<<31 {
			return int(f)
		}
	case string:
		if n, err := strconv.Atoi(strings.TrimSpace(v)); err == nil && n > 0 {
			return n
		}
	}
	return 0
}
