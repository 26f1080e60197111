package exitanswer

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
		if got := ArithmeticOnly(c.command); got != c.arithmetic {
			t.Errorf("ArithmeticOnly(%q) = %v, want %v", c.command, got, c.arithmetic)
		}
		if got := SettingQuery(c.command); got != c.read {
			t.Errorf("SettingQuery(%q) = %v, want %v", c.command, got, c.read)
		}
	}
}

// crontab answers "no crontab for USER", exit 1, when the reader has none
// yet: for -l and -r that is the answer; other errors are not.
func TestNothingThere(t *testing.T) {
	for _, c := range []struct {
		command, output string
		want            bool
	}{
		{"crontab -l", "no crontab for root\n", true},
		{"crontab -r", "no crontab for kim\n", true},
		{"crontab -l", "crontab: your UID isn't in the passwd file.\n", false},
		{"crontab -e", "no crontab for root\n", false},
		{"crontab -l | grep backup", "no crontab for root\n", false},
	} {
		if got := NothingThere(c.command, c.output); got != c.want {
			t.Errorf("NothingThere(%q, %q) = %v, want %v", c.command, c.output, got, c.want)
		}
	}
}

func TestWithStatus(t *testing.T) {
	for c, want := range map[string]bool{
		"grep kiwi fruit.txt": true, "diff a.txt b.txt": true, "cat log | grep -i error": true,
		"grep -q verbose config.yml": false, "cmp -s a b": false, "test -f x": false,
		"grep x a; echo done": false, "ls": false, "grep -c x f": true,
	} {
		if got := WithStatus(c); got != want {
			t.Errorf("WithStatus(%q) = %v, want %v", c, got, want)
		}
	}
}

func TestFindDiscardingErrors(t *testing.T) {
	for c, want := range map[string]bool{
		"find / -perm -4000 2>/dev/null":      true,
		"find / -name '*.conf' 2> /dev/null":  true,
		"find . -name x":                      false,
		"find / -perm -4000 2>/dev/null | wc": false,
	} {
		if got := FindDiscardingErrors(c); got != want {
			t.Errorf("FindDiscardingErrors(%q) = %v, want %v", c, got, want)
		}
	}
}
