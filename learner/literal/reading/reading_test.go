package reading

import (
	"fmt"
	"strings"
	"testing"

	"github.com/smile-loop/smile/spec/spectest"
)

// step renders a planned step compactly: "run 5 ls", "write 3 app.py",
// "omit 7", "compare 9 hi", "stdin 4 python3 <- print(1)".
func render(s Step) string {
	switch s.Kind {
	case StepRun:
		out := fmt.Sprintf("run %d %s", s.Line, s.Command.Text)
		if s.Stdin != "" {
			out += " <- " + strings.ReplaceAll(strings.TrimSpace(s.Stdin), "\n", "; ")
		}
		if s.ExpectFail {
			out += " (fails)"
		}
		if s.Background {
			out += " (background)"
		}
		return out
	case StepWrite:
		if s.File.Append {
			return fmt.Sprintf("append %d %s", s.Line, s.File.Path)
		}
		return fmt.Sprintf("write %d %s", s.Line, s.File.Path)
	case StepCompare:
		out := fmt.Sprintf("compare %d %s", s.Line, s.Expected[0].Text)
		if s.Tolerant {
			out += " (tolerant)"
		}
		if len(s.AltRun) > 0 {
			out += " (or run)"
		}
		return out
	}
	return fmt.Sprintf("%s %d", s.Kind, s.Line)
}

func plan(t *testing.T, md string) []string {
	t.Helper()
	var out []string
	for _, s := range Plan(spectest.Tutorial(t, md)) {
		out = append(out, render(s))
	}
	return out
}

// md joins lines; line N of the tutorial is lines[N-1].
func md(lines ...string) string { return strings.Join(lines, "\n") + "\n" }

func TestPlanReadsProse(t *testing.T) {
	tests := []struct {
		name string
		md   string
		want []string
	}{
		{"backticked caption before", md("`app.py`", "", "```python", "print(1)", "```"), []string{"write 3 app.py"}},
		{"underscored caption", md("_makefile_", "", "```", "all:", "```"), []string{"write 3 makefile"}},
		{"starred caption", md("*main.rs*", "", "```rust", "fn main() {}", "```"), []string{"write 3 main.rs"}},
		{"bold caption", md("**hello.go**", "", "```go", "package main", "```"), []string{"write 3 hello.go"}},
		{"Filename line before", md("Filename: src/main.rs", "", "```rust", "fn main() {}", "```"), []string{"write 3 src/main.rs"}},
		{"Filename line in a span", md(`<span class="filename">Filename: src/lib.rs</span>`, "", "```rust", "fn f() {}", "```"), []string{"write 3 src/lib.rs"}},
		{"Filename line after", md("Some code:", "", "```rust", "fn main() {}", "```", "", "Filename: src/main.rs"), []string{"write 3 src/main.rs"}},
		{"a sentence after that names the file", md("```c", "int main(void) { return 0; }", "```", "", "Save this as `hello.c`."), []string{"write 1 hello.c"}},
		{"a sentence after that introduces the next block", md("```", "one", "```", "", "Save this as `a.sh`:", "", "```sh", "echo", "```"),
			[]string{"skip 1", "write 7 a.sh"}},
		{"a sentence after that only mentions a file", md("```c", "int x;", "```", "", "The compiler reads `hello.c` next."), []string{"ambiguous 1"}},
		{"title in the info string", md("```python title=\"app.py\"", "x = 1", "```"), []string{"write 1 app.py"}},
		// A tab's label left between the lead-in and an unindented block.
		{"lead-in above a tab label", md("Create a file test_sums.py with this code:", "", `=== "python"`, "```python", "def test_one():", "    assert 1", "```"), []string{"write 4 test_sums.py"}},
		// A transcript whose output holds Python code is still a transcript.
		{"a prompt before code-like output", md("Then run:", "", "```", "$ pytest", "    def test_one():", ">       assert 0", "```"), []string{"run 4 pytest"}},
		{"filename= in the info string", md("```yaml filename=conf.yaml", "a: 1", "```"), []string{"write 1 conf.yaml"}},
		{"HTML wrapper", md(`<Listing file-name="src/main.rs">`, "", "```rust", "fn main() {}", "```", "", "</Listing>"), []string{"write 3 src/main.rs"}},
		{"list item names the file", md("1. In a file called `notes.txt`:", "", "   ```", "   hello", "   ```"), []string{"write 3 notes.txt"}},
		{"edit and add appends", md("Edit `app.py` and add a route:", "", "```python", "x = 2", "```"), []string{"append 3 app.py"}},
		{"open and replace replaces", md("Open `app.py` and replace its contents with this:", "", "```python", "x = 2", "```"), []string{"write 3 app.py"}},
		{"update with replaces", md("Update `config.toml` with:", "", "```toml", "a = 1", "```"), []string{"write 3 config.toml"}},
		{"emphasis that is not a file", md("Create a *new* project:", "", "```bash", "mkdir p", "```"), []string{"run 4 mkdir p"}},
		{"a shell block is not a caption's python file", md("`app.py`", "", "```bash", "python3 app.py", "```"), []string{"run 4 python3 app.py"}},
		{"section rule writes each example and runs the command",
			md("## Rules", "", "Put each example in a file named `Makefile` and run `make`.", "", "```makefile", "all:", "\techo hi", "```",
				"", "Another:", "", "```makefile", "all:", "\techo bye", "```", "", "## Next", "", "```makefile", "x:", "```"),
			[]string{"write 5 Makefile", "run 5 make", "write 12 Makefile", "run 12 make", "ambiguous 19"}},
		{"section rule skips a syntax template",
			md("Put every example in a file called `Makefile`, then run `make`.", "", "```makefile", "targets: prerequisites", "\tcommand", "```"),
			[]string{"omit 3"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := plan(t, tc.md); fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("plan:\n got  %q\n want %q", got, tc.want)
			}
		})
	}
}

func TestPlanSkipsWhatIsNotThePath(t *testing.T) {
	tests := []struct {
		name string
		md   string
		want []string
	}{
		{"powershell block", md("Run:", "", "```powershell", "dir", "```"), []string{"omit 3"}},
		{"cmd, bat, pwsh, ps1 blocks", md("```cmd", "dir", "```", "", "```bat", "dir", "```", "", "```pwsh", "ls", "```", "", "```ps1", "ls", "```"),
			[]string{"omit 1", "omit 5", "omit 9", "omit 13"}},
		{"Windows section", md("## Install", "", "### Windows", "", "```bash", "choco install x", "```", "", "### Linux", "", "```bash", "echo ok", "```"),
			[]string{"omit 5", "run 12 echo ok"}},
		{"macOS heading skips its subsections", md("## macOS", "", "### Step 1", "", "```bash", "brew install x", "```", "", "## Next", "", "```bash", "ls", "```"),
			[]string{"omit 5", "run 12 ls"}},
		{"Linux and macOS heading is kept", md("## Linux and macOS", "", "```bash", "ls", "```"), []string{"run 4 ls"}},
		{"On Windows sentence", md("On Windows, run:", "", "```bash", "setx X 1", "```", "", "On Linux, run:", "", "```bash", "export X=1", "```"),
			[]string{"omit 3", "run 10 export X=1"}},
		{"a note label before the platform", md("> **Note:** On macOS, run this instead:", "", "```bash", "brew x", "```"), []string{"omit 3"}},
		{"another distribution's section", md("### Fedora", "", "```bash", "sudo dnf install jq", "```", "", "### Debian and Ubuntu", "", "```bash", "echo apt", "```"),
			[]string{"omit 3", "run 10 echo apt"}},
		{"distribution tabs keep Ubuntu", md(`=== "Fedora"`, "", "    ```bash", "    dnf x", "    ```", "", `=== "Linux"`, "", "    ```bash", "    echo generic", "    ```", "", `=== "Ubuntu"`, "", "    ```bash", "    echo ubuntu", "    ```"),
			[]string{"omit 3", "omit 9", "run 16 echo ubuntu"}},
		{"Homebrew sentence", md("If you use Homebrew:", "", "```bash", "brew install jq", "```"), []string{"omit 3"}},
		{"MkDocs tabs keep Linux", md(`=== "Windows"`, "", "    ```bash", "    winget x", "    ```", "", `=== "Linux"`, "", "    ```bash", "    echo linux", "    ```"),
			[]string{"omit 3", "run 10 echo linux"}},
		{"Liquid tabs keep Linux", md("{% tab macOS %}", "", "```bash", "brew x", "```", "", "{% endtab %}", "{% tab Linux %}", "", "```bash", "echo linux", "```", "", "{% endtab %}"),
			[]string{"omit 3", "run 11 echo linux"}},
		{"Docusaurus tabs keep Linux", md("<Tabs>", `<TabItem value="win">`, "", "```bash", "dir", "```", "", "</TabItem>", `<TabItem value="linux">`, "", "```bash", "echo linux", "```", "", "</TabItem>", "</Tabs>"),
			[]string{"omit 4", "run 12 echo linux"}},
		{"an alternative introducing a tab group", md("Alternatively, with Docker:", "", `=== "Linux"`, "", "    ```", "    docker run x", "    ```", "", `=== "Windows"`, "", "    ```", "    docker run y", "    ```"),
			[]string{"omit 5", "omit 11"}},
		{"a tab group introduced by a run sentence", md("Run:", "", `=== "Linux"`, "", "    ```", "    echo linux", "    ```", "", `=== "Windows"`, "", "    ```", "    echo win", "    ```"),
			[]string{"run 6 echo linux", "omit 11"}},
		{"if you are running it in Docker", md("If you're running the tool from within Docker, use:", "", "```sh", "docker run tool", "```"), []string{"omit 3"}},
		{"language tabs keep the first", md(`=== "pip"`, "", "    ```bash", "    pip install x", "    ```", "", `=== "conda"`, "", "    ```bash", "    conda install x", "    ```"),
			[]string{"run 4 pip install x", "omit 9"}},
		{"alternatively", md("Install it:", "", "```bash", "echo a", "```", "", "Alternatively, build it:", "", "```bash", "echo b", "```"),
			[]string{"run 4 echo a", "omit 9"}},
		{"or if you prefer", md("Or, if you prefer Docker:", "", "```bash", "docker run x", "```"), []string{"omit 3"}},
		{"you could also: an optional step, followed", md("You could also use curl:", "", "```bash", "curl x", "```"), []string{"run 4 curl x"}},
		{"tab completion demo", md("Press Tab to complete the name:", "", "```bash", "git che", "```"), []string{"omit 3"}},
		{"placeholder template", md("The syntax is:", "", "```bash", "git clone <repository-url>", "```"), []string{"omit 4"}},
		{"options template", md("```bash", "ls [options] [file...]", "```"), []string{"omit 2"}},
		{"trailing dots in a message are not a template", md("```bash", "echo loading...", "```"), []string{"run 2 echo loading..."}},
		{"files... is a template", md("```bash", "rm files...", "```"), []string{"omit 2"}},
		{"a manual page is read, not run", md("```console", "$ man ls", "```"), []string{"omit 2"}},
		{"filenames... is a template", md("```bash", "cat filenames...", "```"), []string{"omit 2"}},
		{"word offsets template", md("```bash", "echo ${string:start:length}", "```"), []string{"omit 2"}},
		{"a redirect and quoted HTML are not placeholders", md("```bash", "echo '<h1>hi</h1>' > index.html", "cat <<EOF", "x", "EOF", "```"),
			[]string{"run 2 echo '<h1>hi</h1>' > index.html", "run 3 cat <<EOF\nx\nEOF"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := plan(t, tc.md); fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("plan:\n got  %q\n want %q", got, tc.want)
			}
		})
	}
}

func TestPlanCommandsAndOutput(t *testing.T) {
	tests := []struct {
		name string
		md   string
		want []string
	}{
		{"typed into python", md("Start Python:", "", "```bash", "python3", "```", "", "Type this:", "", "```python", "print(6*7)", "```"),
			[]string{"run 4 python3 <- print(6*7)"}},
		{"python transcript after python3", md("```bash", "python3", "```", "", "```python", ">>> 1 + 1", "2", "```"),
			[]string{"run 2 python3 <- 1 + 1"}},
		{"standalone python transcript", md("```python", ">>> print('hi')", "hi", "```"), []string{"run 2 python3 <- print('hi')"}},
		{"cat > file gets its input", md("```bash", "cat > notes.txt", "```", "", "Then type these lines and press Ctrl-D:", "", "```", "one", "two", "```"),
			[]string{"run 2 cat > notes.txt <- one; two"}},
		{"a shell script typed into cat", md("```bash", "cat > run.sh", "```", "", "Type:", "", "```bash", "echo hi", "```"), []string{"run 2 cat > run.sh <- echo hi"}},
		{"curl's progress header is output", md("```console", "$ curl -O x", "  % Total    % Received", "```"), []string{"run 2 curl -O x"}},
		{"a script the tutorial wrote that reads input", md("Save as `ask.py`:", "", "```python", "name = input()", "print(name)", "```", "", "```bash", "python3 ask.py", "```", "", "Enter your name:", "", "```", "Ada", "```"),
			[]string{"write 3 ask.py", "run 9 python3 ask.py <- Ada"}},
		{"not input: a non-interactive command", md("```bash", "ls", "```", "", "Type:", "", "```", "pwd", "```"), []string{"run 2 ls", "run 8 pwd"}},
		{"output introduced but the prose says run", md("The output goes to a folder; run:", "", "```", "mkdir out", "```"), []string{"run 4 mkdir out"}},
		{"output block whose words may be commands", md("```bash", "echo x", "```", "", "The output folder is made with:", "", "```", "mkdir out", "```"),
			[]string{"run 2 echo x", "compare 8 mkdir out (or run)"}},
		{"output that starts with a program name after a clear intro", md("```bash", "perl -v", "```", "", "You should see something like:", "", "```", "perl 5.30.0", "```"),
			[]string{"run 2 perl -v", "compare 8 perl 5.30.0 (tolerant)"}},
		{"console repeating the last command is compared", md("```bash", "echo hi", "```", "", "```console", "$ echo hi", "hi", "```"),
			[]string{"run 2 echo hi", "compare 7 hi"}},
		{"something like is tolerant", md("```bash", "date", "```", "", "You will see something like:", "", "```", "Mon Jan 1", "```"),
			[]string{"run 2 date", "compare 8 Mon Jan 1 (tolerant)"}},
		{"similar to before a yaml block is not output", md("```bash", "ls", "```", "", "Write a config similar to this one:", "", "```yaml", "a: 1", "```"),
			[]string{"run 2 ls", "ambiguous 7"}},
		{"output tagged as bash", md("```bash", "echo Hello", "```", "", "You should see:", "", "```bash", "Hello", "```"),
			[]string{"run 2 echo Hello", "compare 8 Hello"}},
		{"commands tagged as bash after output prose", md("The output is saved with:", "", "```bash", "ls > out.txt", "```"), []string{"run 4 ls > out.txt"}},
		{"prompts with a user, a host and a virtualenv", md("```console", "(venv) $ pip list", "user@box:~/app$ ls", "% pwd", "/root", "```"),
			[]string{"run 2 pip list", "run 3 ls", "run 4 pwd"}},
		{"a folder tree is not output", md("```bash", "mkdir -p app", "```", "", "Your project now looks like this:", "", "```", "app/", "└── main.pl", "```"),
			[]string{"run 2 mkdir -p app", "skip 7"}},
		{"a tree after tree is output", md("```bash", "tree app", "```", "", "It prints:", "", "```", "app", "└── main.pl", "```"),
			[]string{"run 2 tree app", "compare 8 app"}},
		{"code to paste whose sentence mentions output is not output", md("```bash", "echo hi", "```", "", "Paste the following function to greet, print the output and stop.", "", "```", "func greet() {}", "```"),
			[]string{"run 2 echo hi", "skip 7"}},
		{"a shown result after a pasted line is still output", md("```bash", "echo hi", "```", "", "The output looks like this:", "", "```", "hi", "```"),
			[]string{"run 2 echo hi", "compare 8 hi"}},
		{"an output tag is output", md("```bash", "echo hi", "```", "", "```output", "hi", "```"), []string{"run 2 echo hi", "compare 6 hi"}},
		{"a command said to fail", md("This test fails, as expected:", "", "```bash", "false", "```"), []string{"run 4 false (fails)"}},
		{"a shell block of examples after prose that mentions a return code", md("Exit codes let commands depend on each other. The `false` command always returns 1. Some examples follow.", "", "```bash", "false || echo fallback", "# fallback", "", "false && echo never", "#", "```"),
			[]string{"run 4 false || echo fallback", "run 7 false && echo never (fails)"}},
		{"output tagged as bash after a short paragraph", md("Running it returns:", "", "```bash", "# done", "```"), []string{"compare 4 # done"}},
		{"an exercise leaves the command to the reader", md("```bash", "seq 3", "```", "", "Print the numbers from 7 to 9:", "", "```bash", "# add your solution here", "7", "8", "9", "```"),
			[]string{"run 2 seq 3", "omit 7"}},
		{"a file with a placeholder is still written", md("Save this as `main.sh`:", "", "```bash", "# your code here", "echo stub", "```"), []string{"write 3 main.sh"}},
		{"the sentence after says it fails", md("```bash", "false", "```", "", "This fails because nothing is set up yet."), []string{"run 2 false (fails)"}},
		{"a server by its output", md("```bash", "python3 -m http.server 8000", "```", "", "You should see:", "", "```", "Serving HTTP on 0.0.0.0 port 8000", "```"),
			[]string{"run 2 python3 -m http.server 8000 (background)", "compare 8 Serving HTTP on 0.0.0.0 port 8000"}},
		{"an untagged install command", md("First, install the dependencies:", "", "```", "pip install requests", "```"), []string{"run 4 pip install requests"}},
		{"untagged text after install prose is not a command", md("Install it with these settings:", "", "```", "Port: 80", "```"), []string{"skip 3"}},
		{"comments that scope lines to a platform", md("```bash", "# Debian/Ubuntu", "sudo apt install jq", "# macOS", "brew install jq", "", "jq --version", "```"),
			[]string{"run 3 sudo apt install jq <- y", "omit 5", "run 7 jq --version"}},
		{"a command block that creates the file the prose names", md("Create a file named `data.txt` with a number in it:", "", "```bash", "echo 42 > data.txt", "```"),
			[]string{"run 4 echo 42 > data.txt"}},
		{"a script block for the file the prose names", md("Create a file named `setup.sh`:", "", "```bash", "echo setting up", "```"), []string{"write 3 setup.sh"}},
		{"a command and the JSON it prints", md("```bash", "docker volume inspect db", "[", "  {", `    "Name": "db"`, "  }", "]", "```"),
			[]string{"run 2 docker volume inspect db"}},
		{"a command and a log with prompts in it", md("```bash", "tail app.log", "$ node app.js", "Listening", "```"), []string{"run 2 tail app.log"}},
		{"a known development server", md("```bash", "npm run dev", "```"), []string{"run 2 npm run dev (background)"}},
		{"compose in the background is not a server", md("```bash", "docker compose up -d", "```"), []string{"run 2 docker compose up -d"}},
		{"a coloured transcript", md("```console", `$ <font color="#4E9A06">uv run fastapi</font> dev`, `  <span>Server started at</span> <u>http://127.0.0.1:8000</u>`, "```"),
			[]string{"run 2 uv run fastapi dev (background)"}},
		{"what a browser shows", md("```bash", "python3 -m http.server", "```", "", "Open your browser at http://localhost:8000.", "", "You will see:", "", "```", "Directory listing", "```"),
			[]string{"run 2 python3 -m http.server (background)", "omit 9"}},
		{"another terminal", md("In another terminal, start the worker:", "", "```bash", "./worker", "```"), []string{"run 4 ./worker (background)"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := plan(t, tc.md); fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("plan:\n got  %q\n want %q", got, tc.want)
			}
		})
	}
}

func TestTrailingOutput(t *testing.T) {
	tests := []struct {
		name string
		md   string
		want []string // expected output lines of the command
	}{
		{"JSON after the command", md("```bash", "inspect db", "[", `  {"a": 1}`, "]", "```"), []string{"[", `  {"a": 1}`, "]"}},
		{"a log after the command", md("```sh", "tail log", "$ run", "ok", "```"), []string{"$ run", "ok"}},
		{"a JSON argument on a continuation line is not output", md("```bash", "curl -d \\", `  '{"a": 1}' x`, "```"), nil},
		{"lines under a '# result' comment", md("```bash", "# run the tests", "pytest -q", "", "# result", "3 passed", "```"), []string{"3 passed"}},
		{"lines under a Korean result comment", md("```bash", "pytest -q", "# 결과:", "3 passed", "```"), []string{"3 passed"}},
		{"a comment that says more is not a label", md("```bash", "pytest -q", "# the result goes to out.txt", "```"), nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			steps := Plan(spectest.Tutorial(t, tc.md))
			var got []string
			for _, e := range steps[0].Command.Expected {
				got = append(got, e.Text)
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.want) || len(steps) != 1 {
				t.Errorf("%d steps, expected output %q; want 1 step and %q", len(steps), got, tc.want)
			}
		})
	}
}
