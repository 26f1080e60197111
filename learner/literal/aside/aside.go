// Package aside finds the parts of a page that are not the lesson's path:
// an exercise and its solution, a discussion, notes for instructors, a
// callout of what could go wrong. They come in Pandoc's fenced divs
// (`::::: solution`), a collapsed <details> whose summary names them, MkDocs
// admonitions (`??? success "Answer"`) and Docusaurus admonitions with a
// title (`:::tip[Solution]`). Their blocks are the reader's own answer, or
// the page's answer to it: never a step.
package aside

import (
	"regexp"
	"strings"

	"github.com/smile-loop/smile/internal/textutil"
)

func set(names ...string) map[string]bool {
	m := map[string]bool{}
	for _, n := range names {
		m[n] = true
	}
	return m
}

// divFence opens or closes a Pandoc fenced div: `::::: solution`,
// `:::::::::::: challenge`, `:::::`.
var divFence = regexp.MustCompile(`^\s*:{3,}\s*\{?\s*\.?([A-Za-z][\w-]*)?`)

// asideClasses are the divs whose blocks are not the lesson's path: an
// exercise, its solution, a discussion, notes for instructors, a callout
// showing what could go wrong.
var asideClasses = set("solution", "challenge", "discussion", "instructor", "spoiler", "exercise", "callout", "caution", "checklist", "testimonial")

// Lines maps each line inside an aside div (nested divs included) to
// its outermost aside class, and the lines of the other wrappers exercises
// come in (asides.go) to the word that names them.
func Lines(content string) map[int]string {
	out := map[int]string{}
	var stack []string // the class of each open div ("" when not an aside)
	aside := func() string {
		for _, c := range stack {
			if c != "" {
				return c
			}
		}
		return ""
	}
	inFence := false
	lines := strings.Split(content, "\n")
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			inFence = !inFence
		}
		if m := divFence.FindStringSubmatch(l); m != nil && !inFence {
			if m[1] == "" {
				if len(stack) > 0 {
					stack = stack[:len(stack)-1]
				}
			} else {
				class := strings.ToLower(m[1])
				if !asideClasses[class] {
					class = titledAside(l)
				}
				stack = append(stack, class)
			}
			continue
		}
		if c := aside(); c != "" {
			out[i+1] = c
		}
	}
	detailsAsides(lines, out)
	admonitionAsides(lines, out)
	return out
}

// Exercises and their solutions come in more wrappers than Pandoc's divs: a
// collapsed <details> whose summary says "Solution", an MkDocs admonition
// (`??? success "Answer"`, `!!! exercise`), a Docusaurus admonition titled
// so (`:::tip[Solution]`). What is inside is the reader's own answer, or the
// page's answer to it: never a step.

var (
	// asideWord names an exercise or its answer in a label or a title.
	asideWord   = regexp.MustCompile(`(?i)\b(?:solutions?|answers?|exercises?|challenges?|spoilers?)\b`)
	detailsOpen = regexp.MustCompile(`(?i)^\s*(?:>\s*)*<details\b`)
	detailsEnd  = regexp.MustCompile(`(?i)</details\s*>`)
	summary     = regexp.MustCompile(`(?is)<summary\b[^>]*>(.*?)</summary>`)
	admonition  = regexp.MustCompile(`^(\s*)(?:!!!|\?\?\?\+?)\s+([\w-]+)(.*)$`)
	// divTitle is the title a Docusaurus admonition puts after its type.
	divTitle = regexp.MustCompile(`^\s*:{3,}\s*\{?\s*\.?[A-Za-z][\w-]*\}?(.*)$`)
)

// detailsAsides marks the lines of each <details> whose summary names an
// exercise or its answer, nested ones included.
func detailsAsides(lines []string, out map[int]string) {
	for i := 0; i < len(lines); i++ {
		if !detailsOpen.MatchString(lines[i]) {
			continue
		}
		depth, end := 0, len(lines)-1
		for j := i; j < len(lines); j++ {
			depth += strings.Count(strings.ToLower(lines[j]), "<details") - len(detailsEnd.FindAllString(lines[j], -1))
			if depth <= 0 {
				end = j
				break
			}
		}
		head := strings.Join(lines[i:min(end, i+3)+1], "\n")
		if m := summary.FindStringSubmatch(head); m != nil && asideWord.MatchString(m[1]) {
			for l := i; l <= end; l++ {
				out[l+1] = strings.ToLower(asideWord.FindString(m[1]))
			}
			i = end
		}
	}
}

// admonitionAsides marks the body (the lines indented past it, and blank
// ones) of each MkDocs admonition whose type or title names an exercise or
// its answer.
func admonitionAsides(lines []string, out map[int]string) {
	for i := 0; i < len(lines); i++ {
		m := admonition.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		word := asideWord.FindString(m[2] + " " + m[3])
		if word == "" {
			continue
		}
		indent := textutil.Columns(m[1])
		for j := i + 1; j < len(lines); j++ {
			if t := lines[j]; strings.TrimSpace(t) != "" && textutil.Columns(t) <= indent {
				break
			}
			out[j+1] = strings.ToLower(word)
		}
	}
}

// titledAside is the aside a Pandoc or Docusaurus div's title names
// (`:::tip[Solution]`, `::: note Answer`), or "".
func titledAside(line string) string {
	if m := divTitle.FindStringSubmatch(line); m != nil {
		return strings.ToLower(asideWord.FindString(m[1]))
	}
	return ""
}

// ExerciseHeading reports whether a heading names exercises ("Exercises",
// "演習") and not their worked answers ("Exercise solutions", "演習解答"):
// under it, the commands a sentence mentions are the reader's to find.
func ExerciseHeading(text string) bool {
	return exerciseHeading.MatchString(text) && !answerHeading.MatchString(text)
}

var (
	exerciseHeading = regexp.MustCompile(`(?i)\b(?:exercises?|exercícios?|ejercicios?|exercices?|übung(?:en)?|esercizi|ćwiczenia|упражнения|challenges?)\b|演習|練習|练习|習題|연습`)
	answerHeading   = regexp.MustCompile(`(?i)\b(?:solutions?|answers?|l(?:ö|o)sung(?:en)?|soluci(?:ó|o)n(?:es)?|solu(?:ç|c)(?:ã|a)o|solu(?:ç|c)(?:õ|o)es|corrig(?:é|e)s?|soluzion[ei])\b|解答|答案|정답|해답|ответы?|решени[яе]`)
)
