package runview

import (
	"reflect"
	"strings"
	"testing"
)

const page = "# Install <b>it</b>\n" + // 1
	"\n" + // 2
	"Run this:\n" + // 3
	"\n" + // 4
	"```bash\n" + // 5
	"echo hi\n" + // 6
	"echo there\n" + // 7
	"```\n" + // 8
	"\n" + // 9
	"<script>alert(1)</script>\n" + // 10
	"\n" + // 11
	"1. A step:\n" + // 12
	"\n" + // 13
	"   ```\n" + // 14
	"   make\n" + // 15
	"   ```\n" + // 16
	"\n" + // 17
	"[bad](javascript:alert(2)) <img src=x onerror=alert(3)>\n" + // 18
	"\n" + // 19
	"    indented code\n" // 20

func TestRenderMarksLinesAndDropsRawHTML(t *testing.T) {
	p, err := Render(page)
	if err != nil {
		t.Fatal(err)
	}
	want := []Block{{Line: 5, EndLine: 8}, {Line: 14, EndLine: 16}, {Line: 20, EndLine: 20}}
	if !reflect.DeepEqual(p.Blocks, want) {
		t.Errorf("blocks %+v, want %+v", p.Blocks, want)
	}
	for _, s := range []string{`<h1 data-line="1">`, `<p data-line="3">Run this:</p>`,
		`<pre class="code-block" data-line="5" data-end-line="8" data-lang="bash"><code>echo hi` + "\necho there\n</code></pre>",
		`<ol data-line="12">`, `data-line="14" data-end-line="16"><code>make`} {
		if !strings.Contains(p.HTML, s) {
			t.Errorf("the page lacks %s:\n%s", s, p.HTML)
		}
	}
	for _, s := range []string{"<script", "<b>", "javascript:", "onerror", "<img", " id="} {
		if strings.Contains(p.HTML, s) {
			t.Errorf("the page holds %q: raw HTML or a dangerous link got through:\n%s", s, p.HTML)
		}
	}
}

func TestRenderEscapesCodeAndLanguage(t *testing.T) {
	p, err := Render("```x\"><script>\n</code><script>alert(1)</script>\n```\n")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(p.HTML, "<script") || !strings.Contains(p.HTML, "&lt;/code&gt;&lt;script&gt;") {
		t.Errorf("code or its language was not escaped:\n%s", p.HTML)
	}
}
