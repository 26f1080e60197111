package spec

import (
	"errors"
	"github.com/smile-loop/smile/spec/markdown"
	"reflect"
	"strings"
	"testing"
)

func parseAnnotations(t *testing.T, page string) ([]Annotation, error) {
	t.Helper()
	doc := markdown.ParseMarkdown([]byte(page))
	return ParseAnnotations("page.md", page, doc.Blocks)
}

func TestParseAnnotations(t *testing.T) {
	page := "# Notes\n" + // 1
		"\n" + // 2
		"<!-- smile: skip -->\n" + // 3
		"```bash\n" + // 4
		"reboot\n" + // 5
		"```\n" + // 6
		"\n" + // 7
		"<!-- smile: file=src/app.py append -->\n" + // 8
		"```python\n" + // 9
		"print(1)\n" + // 10
		"```\n" + // 11
		"\n" + // 12
		"<!--smile: run-in=\"sqlite3 shop.db\" timeout=30-->\n" + // 13
		"```sql\n" + // 14
		"select 1;\n" + // 15
		"```\n" + // 16
		"\n" + // 17
		"```sh {smile-exit=1 .numberLines}\n" + // 18
		"grep nothing file\n" + // 19
		"```\n" + // 20
		"\n" + // 21
		"<!-- smile: skip-start -->\n" + // 22
		"```bash\n" + // 23
		"one\n" + // 24
		"```\n" + // 25
		"<!-- smile: skip-end -->\n" + // 26
		"\n" + // 27
		"```sh { excludeFromRunAll=true }\n" + // 28
		"two\n" + // 29
		"```\n" + // 30
		"\n" + // 31
		"```sh { background=false cwd=site }\n" + // 32
		"three\n" + // 33
		"```\n" + // 34
		"\n" + // 35
		"```sh {\"name\":\"serve\",\"background\":\"true\",\"cwd\":\"my site\"}\n" + // 36, as Runme writes them
		"four\n" + // 37
		"```\n" + // 38
		"\n" + // 39
		"```sh {\"excludeFromRunAll\":false,\"name\":\"five\"}\n" + // 40
		"five\n" + // 41
		"```\n" // 42
	got, err := parseAnnotations(t, page)
	if err != nil {
		t.Fatal(err)
	}
	want := []Annotation{
		{Line: 3, Col: 13, Key: "skip", Block: 4},
		{Line: 8, Col: 13, Key: "file", Value: "src/app.py", Block: 9},
		{Line: 8, Col: 29, Key: "append", Block: 9},
		{Line: 13, Col: 12, Key: "run-in", Value: "sqlite3 shop.db", Block: 14},
		{Line: 13, Col: 37, Key: "timeout", Value: "30", Block: 14},
		{Line: 18, Col: 1, Key: "exit", Value: "1", Block: 18},
		{Line: 22, Col: 13, Key: "skip-start"},
		{Line: 22, Key: "skip", Block: 23},
		{Line: 26, Col: 13, Key: "skip-end"},
		{Line: 28, Col: 1, Key: "skip", Block: 28},
		{Line: 32, Col: 1, Key: "cwd", Value: "site", Block: 32},
		{Line: 36, Col: 1, Key: "background", Block: 36},
		{Line: 36, Col: 1, Key: "cwd", Value: "my site", Block: 36},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("annotations:\n got %+v\nwant %+v", got, want)
	}
}

func TestParseAnnotationsErrors(t *testing.T) {
	block := "```bash\nls\n```\n"
	for _, tc := range []struct{ name, page, want string }{
		{"unknown key with a hint", "<!-- smile: skp -->\n" + block, `page.md:1:13: smile annotation: unknown annotation "skp" (did you mean "skip"?)`},
		{"unknown key without one", "<!-- smile: frobnicate -->\n" + block, `unknown annotation "frobnicate" (known: append, background`},
		{"unknown info key", "```bash {smile-skipp}\nls\n```\n", `page.md:1:1: smile annotation: unknown annotation "skipp" (did you mean "skip"?)`},
		{"no colon", "<!-- smile skip -->\n" + block, "page.md:1:1: smile annotation: write `<!-- smile: KEY -->`"},
		{"value missing", "<!-- smile: file -->\n" + block, "file needs a value: file=..."},
		{"flag with a value", "<!-- smile: skip=yes -->\n" + block, "skip takes no value"},
		{"bad exit code", "<!-- smile: exit=abc -->\n" + block, `exit must be an exit code from 0 to 255, got "abc"`},
		{"bad timeout", "<!-- smile: timeout=-3 -->\n" + block, `timeout must be a whole number of seconds, got "-3"`},
		{"end without start", "<!-- smile: skip-end -->\n", "page.md:1:13: smile annotation: skip-end without a skip-start before it"},
		{"start without end", "<!-- smile: skip-start -->\n" + block, "page.md:1:1: smile annotation: skip-start has no skip-end"},
		{"a heading in between", "<!-- smile: skip -->\n\n# Next\n\n" + block, `"skip" annotates no code block: the heading at line 3 comes first`},
		{"nothing after it", "Text.\n\n<!-- smile: output -->\n", `"output" annotates no code block: none follows it`},
		{"contradiction", "<!-- smile: skip output -->\n" + block, "say different things about one block"},
		{"append alone", "<!-- smile: append -->\n" + block, "append goes with file=PATH"},
		{"ready alone", "<!-- smile: ready=up -->\n" + block, "ready goes with background"},
		{"ready port not a number", "<!-- smile: background ready=port:http -->\n" + block, "ready=port:http: a port is a number from 1 to 65535"},
		{"ready port out of range", "<!-- smile: background ready=port:70000 -->\n" + block, "a port is a number from 1 to 65535"},
		{"ready URL without a host", "<!-- smile: background ready=http:// -->\n" + block, "not a URL the container can ask"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parseAnnotations(t, tc.page)
			if !errors.Is(err, ErrAnnotation) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error = %v, want ErrAnnotation saying %q", err, tc.want)
			}
		})
	}
}

// TestOtherCommentsAndAttributesAreNotOurs: comments for other tools and
// other tools' info-string attributes are left alone.
func TestOtherCommentsAndAttributesAreNotOurs(t *testing.T) {
	page := "<!-- markdownlint-disable MD013 -->\n<!-- smiley face -->\n\n```python {linenos=true title=\"app.py\"}\nprint(1)\n```\n"
	got, err := parseAnnotations(t, page)
	if err != nil || len(got) != 0 {
		t.Errorf("annotations = %+v, %v; want none", got, err)
	}
}

// TestLoadTutorialRefusesBadAnnotations: a bad annotation fails the load,
// naming the file, line and column.
func TestLoadTutorialRefusesBadAnnotations(t *testing.T) {
	dir := t.TempDir()
	path := dir + "/tutorial.md"
	writeTestFile(t, path, "# T\n\n<!-- smile: ski -->\n```bash\nls\n```\n")
	_, err := LoadTutorial(path)
	if !errors.Is(err, ErrAnnotation) || !strings.Contains(err.Error(), path+":3:13:") {
		t.Errorf("LoadTutorial = %v, want an annotation error at %s:3:13", err, path)
	}
}

func TestParseReady(t *testing.T) {
	for v, want := range map[string]Ready{
		"port:8080":                    {Port: 8080},
		"http://localhost:5000/health": {URL: "http://localhost:5000/health"},
		"https://127.0.0.1:8443/":      {URL: "https://127.0.0.1:8443/"},
		"Listening on":                 {Output: "Listening on"},
		" port:1 ":                     {Port: 1},
	} {
		if got, err := ParseReady(v); err != nil || got != want {
			t.Errorf("ParseReady(%q) = %+v, %v; want %+v", v, got, err, want)
		}
	}
}
