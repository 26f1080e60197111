package literal

import "testing"

// A status that is the command's answer, not an error: an arithmetic test
// whose value is 0, a setting that is not set.
func TestStatusAnswers(t *testing.T) {
	for _, c := range []struct {
		command          string
		arithmetic, read bool
	}{
		{"(( i++ )) # post increment", true, false},
		{"(( count > 10 ))", true, false},
		{"(( i++ )); echo $i", false, false},
		{"git config core.editor  # which editor is set", false, true},
		{"git config --global --get user.email", false, true},
		{"git config --global user.name Ana", false, false}, // sets it
		{"git config --list", false, false},
		{"git status", false, false},
	} {
		if got := arithmeticOnly(c.command); got != c.arithmetic {
			t.Errorf("arithmeticOnly(%q) = %v, want %v", c.command, got, c.arithmetic)
		}
		if got := settingQuery(c.command); got != c.read {
			t.Errorf("settingQuery(%q) = %v, want %v", c.command, got, c.read)
		}
	}
}
