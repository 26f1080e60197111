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

// A server's configuration block is placed by the file its lead-in names,
// in whatever language the lead-in is written: what every wording shares
// is the name.
func TestConfigurationBlockNamedInAnyLanguage(t *testing.T) {
	for _, c := range []struct{ md, want string }{
		{"# T\n\n`conf/nginx.conf` 配置文件如下：\n\n```nginx\nworker_processes 1;\n```\n", "conf/nginx.conf"},
		{"# T\n\nLe fichier `Caddyfile` contient :\n\n```caddy\n:8080 {\n\trespond \"hi\"\n}\n```\n", "Caddyfile"},
		{"# T\n\nSo sieht `CMakeLists.txt` aus:\n\n```cmake\nproject(demo C)\n```\n", "CMakeLists.txt"},
	} {
		steps := Plan(spectest.Tutorial(t, c.md))
		if len(steps) != 1 || steps[0].Kind != StepWrite || steps[0].File.Path != c.want {
			t.Errorf("%q: steps %+v, want a write of %s", c.md, steps, c.want)
		}
	}
}
