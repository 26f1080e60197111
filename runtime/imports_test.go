package runtime_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Only runtime/docker may import the Docker client, so that moving to its
// successor (or to a Pod runtime) is one package's change.
func TestOnlyRuntimeDockerImportsTheDockerClient(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	allowed := filepath.Join(root, "runtime", "docker")
	checked := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "testdata" || d.Name() == ".smile") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		checked++
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if (p == "github.com/docker/docker" || strings.HasPrefix(p, "github.com/docker/docker/") ||
				strings.HasPrefix(p, "github.com/moby/moby/")) && filepath.Dir(path) != allowed {
				rel, _ := filepath.Rel(root, path)
				t.Errorf("%s imports %s: only runtime/docker may", rel, p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 50 {
		t.Fatalf("checked only %d Go files under %s: is the walk broken?", checked, root)
	}
	if _, err := os.Stat(filepath.Join(allowed, "docker.go")); err != nil {
		t.Fatalf("runtime/docker/docker.go not found: %v", err)
	}
}
