package markdown

import (
	"fmt"
	"strings"
	"testing"
)

// codeOnly keeps a document's code blocks, written as "line-end lang
// [first code line number]: text" so a table can pin each form's reading.
func codeOnly(doc Document) []string {
	var out []string
	for _, b := range doc.Blocks {
		if b.Kind != BlockCode {
			continue
		}
		first := 0
		if len(b.Code) > 0 {
			first = b.Code[0].Line
		}
		out = append(out, fmt.Sprintf("%d-%d %s [%d]: %s", b.Line, b.EndLine, b.Lang, first, strings.TrimSuffix(b.Text, "\n")))
	}
	return out
}

// Every form a page carries code in is a code block with its language, the
// exact lines of its content, and the text a reader sees (HTML entities
// decoded, highlighting tags dropped, a directive's options left out).
func TestParseMarkdownCodeForms(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"indented by four spaces", lines("Build:", "", "    make all", "    make check"),
			[]string{"3-4  [3]: make all\nmake check"}},
		{"indented by a tab", lines("Build:", "", "\tmake all"),
			[]string{"3-3  [3]: make all"}},
		{"indented in a numbered list", lines("1. Run:", "", "       make build", "", "2. Done."),
			[]string{"3-3  [3]: make build"}},
		{"fence in a list item", lines("1. Check:", "", "   ```bash", "   ls -l", "   ```"),
			[]string{"3-5 bash [4]: ls -l"}},
		{"fence indented past the list item's content", lines("1. Check:", "", "        ```bash", "        ls -l", "          | wc", "        ```"),
			[]string{"3-6 bash [4]: ls -l\n  | wc"}},
		{"two fences indented past the item", lines("- Two:", "", "      ```sh", "      a", "      ```", "", "      ```sh", "      b", "      ```"),
			[]string{"3-5 sh [4]: a", "7-9 sh [8]: b"}},
		{"fence swallowed by a lazy list line", lines("1. Check:", "        ```bash", "        ls -l", "        ```", "2. Next."),
			[]string{"2-4 bash [3]: ls -l"}},
		{"fence in a block quote in a list", lines("- Note:", "", "  > ```sh", "  > echo hi", "  > ```"),
			[]string{"3-5 sh [4]: echo hi"}},
		{"pandoc attributes", lines("```{.python .numberLines}", "print(1)", "```"),
			[]string{"1-3 python [2]: print(1)"}},
		{"attributes after the language", lines("```python {linenos=true}", "print(1)", "```"),
			[]string{"1-3 python [2]: print(1)"}},
		{"a title attribute", lines(`~~~shell title="Terminal"`, "echo hi", "~~~"),
			[]string{"1-3 shell [2]: echo hi"}},
		{"a longer fence holds a shorter one", lines("````md", "```", "x", "```", "````"),
			[]string{"1-5 md [2]: ```\nx\n```"}},
		{"no language", lines("```", "echo hi", "```"),
			[]string{"1-3  [2]: echo hi"}},
		{"html pre code with entities", lines("Run:", "", `<pre><code class="language-bash">grep -c x &lt; in.txt &amp;&amp; echo &quot;ok&quot;`, "</code></pre>"),
			[]string{`3-4 bash [3]: grep -c x < in.txt && echo "ok"`}},
		{"html pre with a class", lines(`<pre class="bash">`, "ls -la", "</pre>"),
			[]string{"1-3 bash [2]: ls -la"}},
		{"html pre with blank lines", lines("<pre>", "a &gt; b", "", "c", "</pre>"),
			[]string{"1-5  [2]: a > b\n\nc"}},
		{"highlighted spans are dropped", lines(`<div class="highlight"><pre><span></span><code><span class="nb">echo</span> <span class="s2">&quot;hi&quot;</span>`, `<span class="nb">pwd</span>`, "</code></pre></div>"),
			[]string{`1-3  [1]: echo "hi"` + "\npwd"}},
		{"jekyll's wrappers name the language", lines(`<div class="language-ruby highlighter-rouge"><div class="highlight"><pre class="highlight"><code>puts 1`, "", "puts 2", "</code></pre></div></div>"),
			[]string{"1-4 ruby [1]: puts 1\n\nputs 2"}},
		{"pandoc's sourceCode class", lines(`<pre class="sourceCode sh"><code class="sourceCode sh">ls</code></pre>`),
			[]string{"1-1 sh [1]: ls"}},
		{"html pre in a block quote", lines("> <pre>", "> echo &lt;hi&gt;", "> </pre>"),
			[]string{"1-3  [2]: echo <hi>"}},
		{"docusaurus CodeBlock", lines(`<CodeBlock language="bash" title="setup.sh">`, "echo &quot;hi&quot;", "", "ls", "</CodeBlock>"),
			[]string{`1-5 bash [2]: echo "hi"` + "\n\nls"}},
		{"docusaurus CodeBlock with a template literal", lines("<CodeBlock language=\"js\">{`const s = \\`${x}\\`;", "console.log(s)`}</CodeBlock>"),
			[]string{"1-2 js [1]: const s = `${x}`;\nconsole.log(s)"}},
		{"hugo highlight", lines("{{< highlight bash \"linenos=table\" >}}", "# a comment, not a heading", "make", "{{< /highlight >}}"),
			[]string{"1-4 bash [2]: # a comment, not a heading\nmake"}},
		{"hugo code with a named language", lines(`{{< code lang="python" >}}`, "print(1)", "", "print(2)", "{{< /code >}}"),
			[]string{"1-5 python [2]: print(1)\n\nprint(2)"}},
		{"liquid highlight in a list", lines("- Run:", "", "  {% highlight ruby linenos %}", "  puts 1", "  {% endhighlight %}"),
			[]string{"3-5 ruby [4]: puts 1"}},
		{"myst code-block with options", lines("```{code-block} python", ":caption: hello", ":linenos:", "", "print(1)", "```"),
			[]string{"1-6 python [5]: print(1)"}},
		{"myst code-cell with yaml options", lines("```{code-cell} ipython3", "---", "tags: [hide]", "---", "x = 1", "```"),
			[]string{"1-6 ipython3 [5]: x = 1"}},
		{"myst eval-rst stays markup", lines("```{eval-rst}", ".. note:: rst", "```"),
			[]string{"1-3 eval-rst [2]: .. note:: rst"}},
		{"myst note holds the page's own blocks", lines("````{note}", "Run:", "", "```bash", "make", "```", "````"),
			[]string{"4-6 bash [5]: make"}},
		{"braces around a language are no directive", lines("```{python}", "x = 1", "```"),
			[]string{"1-3 python [2]: x = 1"}},
		{"details with a fence", lines("<details>", "<summary>More</summary>", "", "```bash", "ls", "```", "", "</details>"),
			[]string{"4-6 bash [5]: ls"}},
		{"mkdocs admonition", lines("!!! note", "    Run:", "", "    ```bash", "    ls", "    ```"),
			[]string{"4-6 bash [5]: ls"}},
		{"github alert quote", lines("> [!NOTE]", "> Run:", ">", "> ```bash", "> ls", "> ```"),
			[]string{"4-6 bash [5]: ls"}},
		{"a pre in a fence is code, not html", lines("```html", "<pre>x</pre>", "```"),
			[]string{"1-3 html [2]: <pre>x</pre>"}},
		{"a pre never closed stays html", lines("<pre>", "x"), nil},
		{"a tag never closed stays prose", lines("{{< highlight bash >}}", "x"), nil},
	}
	for _, tc := range tests {
		got := codeOnly(ParseMarkdown([]byte(tc.in)))
		if strings.Join(got, "\n---\n") != strings.Join(tc.want, "\n---\n") {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, tc.want)
		}
	}
}

// The text around a form stays prose: the paragraph before a highlight tag
// and after a <pre> keep their own lines.
func TestParseMarkdownCodeFormsKeepProse(t *testing.T) {
	doc := ParseMarkdown([]byte(lines("Run this:", "{% highlight bash %}", "ls", "{% endhighlight %}", "It lists files.", "", "<pre>", "pwd", "</pre>", "Then.")))
	var got []string
	for _, b := range doc.Blocks {
		got = append(got, fmt.Sprintf("%s %d-%d %q", b.Kind, b.Line, b.EndLine, b.Text))
	}
	want := []string{`paragraph 1-1 "Run this:"`, `code 2-4 "ls\n"`, `paragraph 5-5 "It lists files."`, `code 7-9 "pwd\n"`, `paragraph 10-10 "Then."`}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("blocks:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A MyST tab set is a group of tabs like MkDocs' and Docusaurus': each tab
// item's blocks carry its label, the group numbered after the page's other
// groups.
func TestParseMarkdownMySTTabs(t *testing.T) {
	in := lines(
		`=== "Linux"`, // 1
		"",
		"    ```bash",
		"    uname",
		"    ```",
		"",
		"`````{tab-set}", // 7
		"````{tab-item} Linux",
		"```bash",
		"ls", // 10
		"```",
		"````",
		"````{tab-item} macOS",
		"```bash",
		"ls -G", // 15
		"```",
		"````",
		"`````",
	)
	var got []string
	for _, b := range ParseMarkdown([]byte(in)).Blocks {
		if b.Kind == BlockCode {
			got = append(got, fmt.Sprintf("%d %s/%d", b.Line, b.Tab, b.TabGroup))
		}
	}
	want := []string{"3 Linux/1", "9 Linux/2", "14 macOS/2"}
	if strings.Join(got, ", ") != strings.Join(want, ", ") {
		t.Errorf("tabs = %v, want %v", got, want)
	}
}
