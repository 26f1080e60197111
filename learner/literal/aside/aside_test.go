package aside

import "testing"

func TestLines(t *testing.T) {
	page := "# Lesson\n\n::::: challenge\n\n```\nls\n```\n\n:::::\n\n<details>\n<summary>Solution</summary>\n\n```\nls -a\n```\n\n</details>\n\n<details>\n<summary>Windows</summary>\n\n```\ndir\n```\n\n</details>\n\n```\npwd\n```\n"
	got := Lines(page)
	for line, want := range map[int]string{6: "challenge", 15: "solution", 24: "", 30: ""} {
		if got[line] != want {
			t.Errorf("line %d is in %q, want %q", line, got[line], want)
		}
	}
}

func TestExerciseHeading(t *testing.T) {
	for text, want := range map[string]bool{
		"Exercises":            true,
		"演習":                   true,
		"Exercise solutions":   false,
		"演習解答":                 false,
		"Lösungen der Übungen": false,
		"Getting started":      false,
	} {
		if got := ExerciseHeading(text); got != want {
			t.Errorf("ExerciseHeading(%q) = %v, want %v", text, got, want)
		}
	}
}
