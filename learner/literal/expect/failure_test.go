package expect

import (
	"strings"
	"testing"
)

func TestShowsFailure(t *testing.T) {
	lines := func(s string) []Line {
		var out []Line
		for i, l := range strings.Split(s, "\n") {
			out = append(out, Line{Line: i + 1, Text: l})
		}
		return out
	}
	for shown, want := range map[string]bool{
		"test_sums.py F    [100%]\n=== 1 failed in 0.12s ===":               true,
		"FAILED test_sums.py::test_add - assert 4 == 5":                     true,
		"hello.c:3:5: error: expected ';' before 'return'":                  true,
		"error[E0425]: cannot find value `x` in this scope":                 true,
		"Traceback (most recent call last):\n  File \"x.py\", line 1":       true,
		"not ok 1 addition using bc":                                        true,
		"=== 3 passed in 0.02s ===":                                         false,
		"0 errors, 0 warnings":                                              false,
		"ok 1 addition using bc\nok 2 addition using dc":                    false,
		"hello.c:3:5: warning: implicit declaration of function 'addition'": false,
	} {
		if got := ShowsFailure(lines(shown)); got != want {
			t.Errorf("ShowsFailure(%q) = %v, want %v", shown, got, want)
		}
	}
}
