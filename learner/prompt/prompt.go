// Package prompt builds the Student's and the Mentor's prompts from the
// templates in this folder (student.md, mentor.md, repair.md), which are
// compiled into the wrapper. The tutorial goes in raw (seed FR-009), with
// the Mentor's notes so far, the behaviour settings, the patience level and
// the stuck triggers (US5, US6), and the images for providers that can see
// them (FR-008).
package prompt

import (
	"bytes"
	"embed"
	"fmt"
	"strings"
	"text/template"

	"github.com/smile-loop/smile/status/wire"

	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/status"
)

//go:embed student.md mentor.md repair.md
var files embed.FS

var templates = template.Must(template.New("").ParseFS(files, "*.md"))

// ImageMode is how a provider sees the tutorial's images.
type ImageMode string

// The ways images reach the model.
const (
	// ImagesNone: the model cannot see images; the prompt lists them.
	ImagesNone ImageMode = "none"
	// ImagesRead: the model opens them with its file tool (claude's Read).
	ImagesRead ImageMode = "read"
	// ImagesAttached: the provider attaches them to the request (codex
	// --image, image parts for openai).
	ImagesAttached ImageMode = "attached"
	// ImagesAt: the prompt includes them with @path (gemini).
	ImagesAt ImageMode = "at"
)

// Image is one image the tutorial refers to.
type Image struct {
	Reference string // as written in the Markdown
	Path      string // in the container
	Line      int
	Missing   bool
}

// Images lists the tutorial's local images, each once, in order.
func Images(t *spec.Tutorial) []Image {
	var out []Image
	seen := map[string]bool{}
	for _, img := range t.Images {
		if seen[img.Reference] {
			continue
		}
		seen[img.Reference] = true
		out = append(out, Image{Reference: img.Reference, Path: img.Path, Line: img.Line, Missing: img.Missing})
	}
	return out
}

// Student is what the Student's prompt is built from.
type Student struct {
	Task     *wire.Task
	Tutorial *spec.Tutorial
	WorkDir  string
	// Tools describes the tools the provider gives the model ("" for the
	// CLIs, which describe their own).
	Tools     string
	ImageMode ImageMode
}

var patienceText = map[spec.Patience]string{
	spec.PatienceLow:    "ask for help at the first sign of difficulty; retry as little as possible.",
	spec.PatienceMedium: "try two or three approaches the tutorial's words allow before you ask; be moderately persistent.",
	spec.PatienceHigh:   "exhaust every option the tutorial's words allow before you ask; be very persistent.",
}

// BuildStudent renders the Student's prompt.
func BuildStudent(s Student) (string, error) {
	b := s.Task.Behavior
	if b.PatienceLevel == "" {
		b.PatienceLevel = spec.PatienceLow
	}
	if b.TimeoutSeconds <= 0 {
		b.TimeoutSeconds = spec.DefaultConfig().StudentBehavior.TimeoutSeconds
	}
	var triggers []string
	if b.AskOnMissingDependency {
		triggers = append(triggers, "a command, package or tool the tutorial relies on is not found (`command not found`, a missing module): category missing_dependency")
	}
	if b.AskOnAmbiguousInstruction {
		triggers = append(triggers, "you cannot tell what an instruction means or what to do with a block (quote it): category ambiguous_instruction")
	}
	if b.AskOnCommandFailure {
		triggers = append(triggers, fmt.Sprintf("a command the tutorial gives fails (a non-zero exit, an error) and still fails after %d attempt(s)", b.PatienceLevel.Attempts(b.MaxRetriesBeforeHelp)))
	}
	if b.AskOnTimeout {
		triggers = append(triggers, fmt.Sprintf("a step runs longer than %d seconds: category timeout", b.TimeoutSeconds))
	}
	if b.MaxRetriesBeforeHelp > 0 {
		triggers = append(triggers, fmt.Sprintf("the same step has failed %d times in a row (maxRetriesBeforeHelp), whatever the cause", b.MaxRetriesBeforeHelp))
	}
	data := map[string]any{
		"WorkDir":      s.WorkDir,
		"TutorialPath": s.Tutorial.Path,
		"Tutorial":     s.Tutorial.Content,
		"Fence":        fenceFor(s.Tutorial.Content),
		"NoNetwork":    s.Task.LLM != nil && s.Task.LLM.Network == spec.NetworkNone,
		"Tools":        s.Tools,
		"Behavior":     b,
		"PatienceText": patienceText[b.PatienceLevel],
		"Attempts":     b.PatienceLevel.Attempts(b.MaxRetriesBeforeHelp),
		"Triggers":     triggers,
		"NoTriggers":   !b.AskOnMissingDependency && !b.AskOnAmbiguousInstruction && !b.AskOnCommandFailure && !b.AskOnTimeout,
		"MentorNotes":  s.Task.MentorNotes,
		"Images":       Images(s.Tutorial),
		"ImageIntro":   imageIntro(s.ImageMode),
		"Categories":   strings.Join(categories, " | "),
	}
	return render("student.md", data)
}

func imageIntro(m ImageMode) string {
	switch m {
	case ImagesRead:
		return "The tutorial shows these images. Look at each one with your file-reading tool when you reach it: it may hold an instruction the text does not repeat."
	case ImagesAttached:
		return "The tutorial shows these images; they are attached to this message, in this order. They may hold instructions the text does not repeat."
	case ImagesAt:
		return "The tutorial shows these images; each is included at the end of this message with @ and its path. They may hold instructions the text does not repeat."
	}
	return "The tutorial shows these images, which you cannot see. If a step depends on what an image shows, that is a finding (category missing_image when the file is missing, ambiguous_instruction otherwise)."
}

// Mentor is what the Mentor's prompt is built from.
type Mentor struct {
	Task     *wire.Task
	Tutorial *spec.Tutorial
	WorkDir  string
	Tools    string
	// Web says the provider lets the Mentor search the web.
	Web bool
}

// BuildMentor renders the Mentor's prompt.
func BuildMentor(m Mentor) (string, error) {
	question := m.Task.Question
	if question == "" && m.Task.StudentOutput != nil {
		question = m.Task.StudentOutput.QuestionForMentor
	}
	if question == "" {
		question = "(the Student asked no question; explain what stopped it)"
	}
	data := map[string]any{
		"WorkDir":      m.WorkDir,
		"TutorialDir":  dir(m.Tutorial.Path),
		"TutorialPath": m.Tutorial.Path,
		"Tutorial":     m.Tutorial.Content,
		"Fence":        fenceFor(m.Tutorial.Content),
		"Tools":        m.Tools,
		"Web":          m.Web,
		"Question":     question,
		"Student":      m.Task.StudentOutput,
		"MentorNotes":  m.Task.MentorNotes,
		"Categories":   strings.Join(categories, " | "),
	}
	return render("mentor.md", data)
}

// The answer formats a repair asks for.
const (
	StudentSchema = `{"status": "completed | ask_mentor | cannot_complete", "currentStep": "...", "attemptedActions": ["..."], "problem": "...", "questionForMentor": "...", "reason": "...", "summary": "...", "filesCreated": ["..."], "commandsRun": ["..."], "line": 0, "quote": "...", "category": "...", "findings": [{"category": "...", "quote": "...", "problem": "...", "suggestedFix": "..."}]}`
	MentorSchema  = `{"notes": "...", "resolution": "workaround | proceed | unresolvable", "workaround": "...", "quote": "...", "line": 0, "category": "...", "suggestedFix": "..."}`
)

// BuildRepair renders the prompt that asks a model to turn an answer that
// could not be read into the JSON object it should have been.
func BuildRepair(schema, raw string, parseErr error) (string, error) {
	msg := "it is not JSON"
	if parseErr != nil {
		msg = parseErr.Error()
	}
	return render("repair.md", map[string]any{"Schema": schema, "Raw": raw, "Error": msg})
}

func render(name string, data any) (string, error) {
	var b bytes.Buffer
	if err := templates.ExecuteTemplate(&b, name, data); err != nil {
		return "", fmt.Errorf("build prompt %s: %w", name, err)
	}
	return b.String(), nil
}

// fenceFor returns a backtick fence longer than any run of backticks in s,
// so the tutorial's own fences cannot close it.
func fenceFor(s string) string {
	longest, run := 0, 0
	for _, r := range s {
		if r == '`' {
			run++
			longest = max(longest, run)
			continue
		}
		run = 0
	}
	return strings.Repeat("`", max(3, longest+1))
}

func dir(p string) string {
	if i := strings.LastIndexByte(p, '/'); i > 0 {
		return p[:i]
	}
	return "."
}

var categories = status.CategoryNames()
