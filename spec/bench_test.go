package spec

import (
	"fmt"
	"github.com/smile-loop/smile/spec/markdown"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func BenchmarkLoadConfig(b *testing.B) {
	path := writeFile(b, b.TempDir(), ConfigFileName, `{
  "tutorial": "docs/quickstart.md",
  "llmProvider": "Claude",
  "maxIterations": 7,
  "timeout": 900,
  "containerImage": "ghcr.io/acme/tutorial-env:1.2",
  "studentBehavior": {
    "maxRetriesBeforeHelp": 5,
    "askOnMissingDependency": false,
    "askOnAmbiguousInstruction": true,
    "askOnCommandFailure": true,
    "askOnTimeout": true,
    "timeoutSeconds": 120,
    "patienceLevel": "Medium"
  },
  "container": {"keepOnFailure": true, "keepOnSuccess": false},
  "stateFile": ".smile/state.json",
  "outputDir": "reports"
}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := LoadConfig(path); err != nil {
			b.Fatal(err)
		}
	}
}

// bigTutorial writes a tutorial of just under 100 KB, made of the quickstart
// fixture's sections repeated, with its five images (16 KB each) beside it.
func bigTutorial(b *testing.B) (path string, size int) {
	b.Helper()
	src, err := os.ReadFile(filepath.Join("markdown", "testdata", "quickstart.md"))
	if err != nil {
		b.Fatal(err)
	}
	body := string(src[strings.Index(string(src), "# Build"):])
	dir := b.TempDir()
	var md strings.Builder
	for part := 1; ; part++ {
		section := fmt.Sprintf("\n# Part %d\n\n![Part %d](images/part-%d.png)\n\n%s", part, part, part%5, body)
		if md.Len()+len(section) > MaxTutorialBytes {
			break
		}
		md.WriteString(section)
	}
	images := []string{"finished-app.png", "python.svg", "layers.svg", "browser.jpg"}
	for i := range 5 {
		images = append(images, fmt.Sprintf("part-%d.png", i))
	}
	for _, name := range images {
		writeFile(b, dir, filepath.Join("images", name), strings.Repeat("\x89PNG", 4096))
	}
	return writeFile(b, dir, "tutorial.md", md.String()), md.Len()
}

func BenchmarkLoadTutorial100KB(b *testing.B) {
	path, size := bigTutorial(b)
	tut, err := LoadTutorial(path)
	if err != nil {
		b.Fatal(err)
	}
	var missing int
	for _, img := range tut.Images {
		if img.Missing {
			missing++
		}
	}
	if missing > 0 || len(tut.Images) < 100 {
		b.Fatalf("%d images, %d missing: the fixture is wrong", len(tut.Images), missing)
	}
	b.Logf("%d bytes, %d blocks, %d images", size, len(tut.Blocks), len(tut.Images))
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := LoadTutorial(path); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseMarkdown100KB(b *testing.B) {
	path, size := bigTutorial(b)
	src, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		markdown.ParseMarkdown(src)
	}
}
