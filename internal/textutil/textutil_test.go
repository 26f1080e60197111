package textutil

import "testing"

func TestFirstLine(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", ""},
		{"  one  ", "one"},
		{"\n  one \r\ntwo\nthree", "one ..."},
		{"one\n\n", "one"},
	} {
		if got := FirstLine(c.in); got != c.want {
			t.Errorf("FirstLine(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestShorten(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{"a  b\n\tc", 10, "a b c"},
		{"abcdef", 6, "abcdef"},
		{"abcdefg", 6, "abc..."},
		{"ééééééé", 5, "éé..."}, // runes, not bytes
		{"abcdef", 2, "ab"},
		{"abcdef", 0, ""},
	} {
		if got := Shorten(c.in, c.n); got != c.want {
			t.Errorf("Shorten(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
}

func TestTail(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{"short", 5, "short"},
		{"head\ntail", 4, "[cut]tail"},
		{"xé", 1, "[cut]"}, // half a rune is dropped
		{"anything", 0, ""},
	} {
		if got := Tail(c.in, c.n, "[cut]"); got != c.want {
			t.Errorf("Tail(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
}

func TestFirstNonEmpty(t *testing.T) {
	if got := FirstNonEmpty("", " \n", "a", "b"); got != "a" {
		t.Errorf("FirstNonEmpty = %q, want a", got)
	}
	if got := FirstNonEmpty("", "  "); got != "" {
		t.Errorf("FirstNonEmpty of blanks = %q, want empty", got)
	}
}

func TestColumns(t *testing.T) {
	for line, want := range map[string]int{"": 0, "x": 0, "  x": 2, "\tx": 4, "  \tx": 4, "    \t x": 9} {
		if got := Columns(line); got != want {
			t.Errorf("Columns(%q) = %d, want %d", line, got, want)
		}
	}
}
