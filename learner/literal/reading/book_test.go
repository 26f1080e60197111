package reading

import (
	"strings"
	"testing"

	"github.com/smile-loop/smile/spec/spectest"
)

// The file a Rust block is written to holds its hidden lines without the
// mark, and its attributes as they are.
func TestRustHiddenLinesAreWrittenUnmarked(t *testing.T) {
	md := "# T\n\nPut this in `src/main.rs`:\n\n```rust\n# use std::fmt;\n#\n#[derive(Debug)]\nstruct P;\n#   fn main() {}\n```\n"
	steps := Plan(spectest.Tutorial(t, md))
	if len(steps) != 1 || steps[0].Kind != StepWrite {
		t.Fatalf("steps %+v", steps)
	}
	want := "use std::fmt;\n\n#[derive(Debug)]\nstruct P;\n  fn main() {}"
	if got := strings.TrimRight(steps[0].Content, "\n"); got != want {
		t.Errorf("content\n%q\nwant\n%q", got, want)
	}
}
