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
