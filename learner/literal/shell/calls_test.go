package shell

import "testing"

func TestRunsScript(t *testing.T) {
	for _, c := range []struct {
		command, file, runner string
		ok                    bool
	}{
		{"bash script.sh", "script.sh", "bash", true},
		{"bash script.sh hello test 1337", "script.sh", "bash", true},
		{"sudo sh -x ./setup.sh", "setup.sh", "sh", true},
		{"python3 main.py --verbose", "main.py", "python3", true},
		{"./script.sh", "script.sh", "", true},
		{"bash -c 'echo hi'", "", "", false},
		{"python3 -m http.server", "", "", false},
		{"bash script.sh | tee log", "", "", false},
		{"chmod +x script.sh && ./script.sh", "", "", false},
		{"bash", "", "", false},
		{"cat script.sh", "", "", false},
		{"bash $SCRIPT", "", "", false},
	} {
		file, runner, ok := RunsScript(c.command)
		if file != c.file || runner != c.runner || ok != c.ok {
			t.Errorf("RunsScript(%q) = %q, %q, %v; want %q, %q, %v", c.command, file, runner, ok, c.file, c.runner, c.ok)
		}
	}
}
