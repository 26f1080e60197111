package shell

import "testing"

func TestWithoutTrailingComment(t *testing.T) {
	for in, want := range map[string]string{
		"apt-get install nginx # Ubuntu":           "apt-get install nginx",
		"echo '# not a comment'":                   "echo '# not a comment'",
		"echo a#b":                                 "echo a#b",
		"make":                                     "make",
		"cd x && \\\n  make # build":               "cd x && \\\n  make",
		"# only a comment":                         "# only a comment",
		"cat <<EOF\n# inside\nEOF":                 "cat <<EOF\n# inside\nEOF",
		"for i in 1 2; do echo $i; done # loop":    "for i in 1 2; do echo $i; done",
		"if true; then # why\n  echo y\nfi":        "if true; then # why\n  echo y\nfi",
		"psql -U app -W   # asks for the password": "psql -U app -W",
	} {
		if got := WithoutTrailingComment(in); got != want {
			t.Errorf("WithoutTrailingComment(%q) = %q, want %q", in, got, want)
		}
	}
}
