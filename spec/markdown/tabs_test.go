package markdown

import (
	"fmt"
	"testing"
)

func TestParseMarkdownTabs(t *testing.T) {
	tests := []struct {
		name string
		md   string
		want []string // "line lang tab group" of each code block
	}{{
		name: "mkdocs tabs are dedented and labelled",
		md:   "=== \"Linux\"\n\n    ```bash\n    ls\n    ```\n\n=== \"Windows\"\n\n    ```powershell\n    dir\n    ```\n\nAfter.\n\n```bash\npwd\n```\n",
		want: []string{"3 bash Linux 1", "9 powershell Windows 1", "15 bash  0"},
	}, {
		name: "admonition body is dedented, not tabbed",
		md:   "!!! note\n\n    ```bash\n    ls\n    ```\n",
		want: []string{"3 bash  0"},
	}, {
		name: "liquid tabs",
		md:   "{% tabs %}\n{% tab Windows %}\n\n```cmd\ndir\n```\n\n{% endtab %}\n{% tab Linux %}\n\n```bash\nls\n```\n\n{% endtab %}\n{% endtabs %}\n\n```bash\npwd\n```\n",
		want: []string{"4 cmd Windows 1", "11 bash Linux 1", "18 bash  0"},
	}, {
		name: "docusaurus tabs use the label",
		md:   "<Tabs>\n<TabItem value=\"win\" label=\"Windows\">\n\n```bat\ndir\n```\n\n</TabItem>\n<TabItem value=\"linux\">\n\n```sh\nls\n```\n\n</TabItem>\n</Tabs>\n",
		want: []string{"4 bat Windows 1", "11 sh linux 1"},
	}, {
		name: "two separate groups",
		md:   "=== \"A\"\n\n    ```sh\n    a\n    ```\n\nText between.\n\n=== \"B\"\n\n    ```sh\n    b\n    ```\n",
		want: []string{"3 sh A 1", "11 sh B 2"},
	}, {
		name: "vitepress code group: each titled fence is a tab, up to the closing colons",
		md:   "::: code-group\n\n```sh [npm]\nnpm i\n```\n\n```sh [yarn]\nyarn\n:::\n```\n\n:::\n\n```sh\nls\n```\n",
		want: []string{"3 sh npm 1", "7 sh yarn 1", "14 sh  0"},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, b := range ParseMarkdown([]byte(tc.md)).Blocks {
				if b.Kind == BlockCode {
					got = append(got, fmt.Sprintf("%d %s %s %d", b.Line, b.Lang, b.Tab, b.TabGroup))
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}

func TestParseMarkdownHeadingLevel(t *testing.T) {
	doc := ParseMarkdown([]byte("# One\n\n### Three\n\nTwo\n---\n"))
	var got []int
	for _, b := range doc.Blocks {
		if b.Kind == BlockHeading {
			got = append(got, b.Level)
		}
	}
	if fmt.Sprint(got) != "[1 3 2]" {
		t.Errorf("levels = %v, want [1 3 2]", got)
	}
}
