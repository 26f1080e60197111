package spec_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/smile-loop/smile/spec/markdown"

	"github.com/smile-loop/smile/spec"
)

// LoadConfig lays smile.json over the defaults: fields the file leaves out,
// nested ones included, keep their default; enums take any letter case;
// unknown fields are ignored.
func ExampleLoadConfig() {
	dir, err := os.MkdirTemp("", "smile-example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, spec.ConfigFileName)
	config := `{
  "llmProvider": "Claude",
  "maxIterations": 3,
  "studentBehavior": {"patienceLevel": "High"},
  "someFutureField": true
}`
	if err := os.WriteFile(path, []byte(config), 0o644); err != nil {
		fmt.Println(err)
		return
	}

	cfg, err := spec.LoadConfig(path)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("provider:", cfg.LLMProvider)
	fmt.Println("maxIterations:", cfg.MaxIterations)
	fmt.Println("timeout:", cfg.Timeout)
	fmt.Println("patience:", cfg.StudentBehavior.PatienceLevel)
	fmt.Println("step timeout:", cfg.StudentBehavior.TimeoutSeconds)
	fmt.Println("attempts before help:", cfg.StudentBehavior.PatienceLevel.Attempts(cfg.StudentBehavior.MaxRetriesBeforeHelp))

	// A file with a syntax error names the line and column.
	if err := os.WriteFile(path, []byte("{\n  \"timeout\": 60,\n}\n"), 0o644); err != nil {
		fmt.Println(err)
		return
	}
	_, err = spec.LoadConfig(path)
	fmt.Println(filepath.Base(err.Error()))
	// Output:
	// provider: claude
	// maxIterations: 3
	// timeout: 1800
	// patience: high
	// step timeout: 60
	// attempts before help: 6
	// smile.json:3:1: invalid JSON: invalid character '}' looking for beginning of object key string
}

// ParseMarkdown keeps the exact line of every block: a fenced block runs from
// its opening fence to its closing one, and each line of code keeps its own
// number, even inside a list item.
func ExampleParseMarkdown() {
	tutorial := "# Quickstart\n" +
		"\n" +
		"1. Install the tools:\n" +
		"\n" +
		"   ```bash\n" +
		"   sudo apt-get install -y make\n" +
		"   make --version\n" +
		"   ```\n" +
		"\n" +
		"![Result](images/result.png)\n"

	doc := markdown.ParseMarkdown([]byte(tutorial))
	for _, b := range doc.Blocks {
		fmt.Printf("%s lines %d-%d", b.Kind, b.Line, b.EndLine)
		if b.Lang != "" {
			fmt.Printf(" (%s)", b.Lang)
		}
		fmt.Println()
		for _, c := range b.Code {
			fmt.Printf("  %d: %s\n", c.Line, c.Text)
		}
	}
	for _, img := range doc.Images {
		fmt.Printf("image %s on line %d\n", img.Destination, img.Line)
	}
	// Output:
	// heading lines 1-1
	// paragraph lines 3-3
	// code lines 5-8 (bash)
	//   6: sudo apt-get install -y make
	//   7: make --version
	// paragraph lines 10-10
	// image images/result.png on line 10
}
