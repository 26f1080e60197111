package reading

import (
	"fmt"
	"strings"
	"testing"

	"github.com/smile-loop/smile/spec/spectest"
)

func page(ls ...string) string { return strings.Join(ls, "\n") + "\n" }

// readAs is a plan's steps as "kind line what" (what: the command, the file,
// the first expected line, or why the block was left).
func readAs(steps []Step) []string {
	var out []string
	for _, p := range summarize(steps) {
		what := p.What
		if what == "" {
			for _, s := range steps {
				if s.Line == p.Line && s.Kind == p.Kind {
					what = s.Why
				}
			}
		}
		out = append(out, fmt.Sprintf("%s %d %s", p.Kind, p.Line, what))
	}
	return out
}

// The planner reads code in every form a page carries it as it reads a
// fence: the language, the lines and the prose around it decide.
func TestPlanReadsEveryCodeForm(t *testing.T) {
	tests := []struct {
		name string
		md   string
		want []string
	}{
		{"indented block in a numbered list", page("# T", "", "1. Run the script:", "", "       ./build.sh", "", "2. Done."),
			[]string{"run 5 ./build.sh"}},
		{"fence indented past a list item", page("# T", "", "1. List the files:", "", "        ```bash", "        ls -l", "        ```"),
			[]string{"run 6 ls -l"}},
		{"a title attribute that is a caption", page("# T", "", "```shell title=\"Terminal\"", "mkdir -p out", "```"),
			[]string{"run 4 mkdir -p out"}},
		{"a title attribute that is a file", page("# T", "", "```python title=\"app.py\"", "print(1)", "```"),
			[]string{"write 3 app.py"}},
		{"html pre with entities", page("# T", "", "Run:", "", "<pre><code class=\"language-bash\">sort -n &lt; nums.txt &gt; sorted.txt", "</code></pre>"),
			[]string{"run 5 sort -n < nums.txt > sorted.txt"}},
		{"mdx CodeBlock with a file title", page("# T", "", "<CodeBlock language=\"bash\" title=\"setup.sh\">", "mkdir -p out", "</CodeBlock>"),
			[]string{"write 3 setup.sh"}},
		{"hugo highlight", page("# T", "", "{{< highlight bash >}}", "# count them", "wc -l notes.txt", "{{< /highlight >}}"),
			[]string{"run 5 wc -l notes.txt"}},
		{"liquid highlight saved to a file", page("# T", "", "Save this as `hello.rb`:", "", "{% highlight ruby %}", "puts 'hi'", "{% endhighlight %}"),
			[]string{"write 5 hello.rb"}},
		{"myst code-block saved to a file", page("# T", "", "Save this as `hi.py`:", "", "```{code-block} python", ":linenos:", "", "print('hi')", "```"),
			[]string{"write 5 hi.py"}},
		{"myst eval-rst is markup", page("# T", "", "```{eval-rst}", ".. autofunction:: tool.main", "```"),
			[]string{"skip 3 a MyST {eval-rst} directive: markup for the documentation generator, not code to run"}},
		{"details with a fence", page("# T", "", "<details>", "<summary>Details</summary>", "", "```bash", "uname -a", "```", "", "</details>"),
			[]string{"run 7 uname -a"}},
		{"admonition with a fence", page("# T", "", "!!! note", "    Run:", "", "    ```bash", "    date", "    ```"),
			[]string{"run 7 date"}},
		{"github alert quote", page("# T", "", "> [!NOTE]", "> Run:", ">", "> ```bash", "> date", "> ```"),
			[]string{"run 7 date"}},
	}
	for _, tc := range tests {
		got := readAs(Plan(spectest.Tutorial(t, tc.md)))
		if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, tc.want)
		}
	}
}

// The tab forms keep the Linux tab's blocks and omit the others': MkDocs'
// content tabs, Docusaurus' Tabs and MyST's tab sets.
func TestPlanFollowsTheLinuxTabInEveryForm(t *testing.T) {
	for name, md := range map[string]string{
		"mkdocs": page("# T", "", `=== "macOS"`, "", "    ```bash", "    brew install jq", "    ```", "", `=== "Linux"`, "", "    ```bash", "    apt-get install -y jq", "    ```"),
		"docusaurus": page("# T", "", "<Tabs>", `<TabItem value="mac" label="macOS">`, "", "```bash", "brew install jq", "```", "", "</TabItem>",
			`<TabItem value="linux" label="Linux">`, "", "```bash", "apt-get install -y jq", "```", "", "</TabItem>", "</Tabs>"),
		"myst": page("# T", "", "`````{tab-set}", "````{tab-item} macOS", "```bash", "brew install jq", "```", "````",
			"````{tab-item} Linux", "```bash", "apt-get install -y jq", "```", "````", "`````"),
	} {
		var runs, omits []string
		for _, s := range Plan(spectest.Tutorial(t, md)) {
			switch s.Kind {
			case StepRun:
				runs = append(runs, s.Command.Text)
			case StepOmit:
				omits = append(omits, s.Why)
			}
		}
		if len(runs) != 1 || runs[0] != "apt-get install -y jq" || len(omits) != 1 || !strings.Contains(omits[0], `"macOS" tab`) {
			t.Errorf("%s: ran %q, omitted %q; want the Linux tab run and the macOS tab omitted", name, runs, omits)
		}
	}
}

// A block for the reader's own answer is never run or compared, whatever
// form it comes in: a placeholder comment in an indented block, an HTML
// <pre> or a highlight tag; a solution in a <details>, an admonition, a
// titled div or a MyST directive.
func TestPlanLeavesTheReadersAnswerInEveryForm(t *testing.T) {
	for name, md := range map[string]string{
		"indented placeholder": page("# T", "", "Try it:", "", "    # write your answer here"),
		"html placeholder":     page("# T", "", "Try it:", "", "<pre><code class=\"language-bash\"># your command here", "</code></pre>"),
		"hugo placeholder":     page("# T", "", "{{< highlight bash >}}", "# add your solution here", "{{< /highlight >}}"),
		"details solution":     page("# T", "", "<details>", "<summary>Solution</summary>", "", "```bash", "wc -l notes.txt", "```", "", "</details>"),
		"admonition solution":  page("# T", "", `??? success "Show the answer"`, "", "    ```bash", "    wc -l notes.txt", "    ```"),
		"admonition exercise":  page("# T", "", "!!! exercise", "", "    ```bash", "    wc -l notes.txt", "    ```"),
		"titled div":           page("# T", "", ":::tip[Solution]", "", "```bash", "wc -l notes.txt", "```", "", ":::"),
		"myst solution":        page("# T", "", "```{solution} ex-count", "wc -l notes.txt", "```"),
	} {
		for _, s := range Plan(spectest.Tutorial(t, md)) {
			if s.Kind == StepRun || s.Kind == StepCompare || s.Kind == StepWrite {
				t.Errorf("%s: the reader's answer is read as a %s step at line %d", name, s.Kind, s.Line)
			}
		}
	}
}

// A <details> or an admonition that is not an exercise is the page's path.
func TestPlanFollowsOtherCollapsedBlocks(t *testing.T) {
	md := page("# T", "", `??? note "Why this works"`, "", "    ```bash", "    wc -l notes.txt", "    ```", "",
		"<details>", "<summary>Full listing</summary>", "", "```bash", "ls -l", "```", "", "</details>")
	got := readAs(Plan(spectest.Tutorial(t, md)))
	want := []string{"run 6 wc -l notes.txt", "run 13 ls -l"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got %q, want %q", got, want)
	}
}
