package literal

import "testing"

func TestListHidesFailure(t *testing.T) {
	for _, c := range []struct{ command, output, want string }{
		{`apt-get install -y pg-13; echo "installed"`, "Reading package lists...\nE: Unable to locate package pg-13\ninstalled\n", "E: Unable to locate package pg-13"},
		{`nosuch; echo done`, "bash: line 1: nosuch: command not found\ndone\n", "bash: line 1: nosuch: command not found"},
		{`apt-get install -y jq; echo "installed"`, "Setting up jq ...\ninstalled\n", ""},
		{`apt-get install -y pg-13`, "E: Unable to locate package pg-13\n", ""},   // no list: its own status says it
		{"cd /tmp\ncat nosuch", "cat: nosuch: No such file or directory\n", ""},   // lines of a block are steps of their own
		{`cat nosuch | wc -l`, "cat: nosuch: No such file or directory\n0\n", ""}, // a pipeline, not a list
	} {
		if got := listHidesFailure(c.command, c.output); got != c.want {
			t.Errorf("listHidesFailure(%q) = %q, want %q", c.command, got, c.want)
		}
	}
}
