// Package structure holds the module's size rules as a test: no package over
// MaxPackageLines lines of non-test Go, no function over MaxFuncLines lines.
package structure

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

const (
	// MaxPackageLines is the most lines of non-test Go one package may hold.
	MaxPackageLines = 3000
	// MaxFuncLines is the most lines one function or method may span.
	MaxFuncLines = 80
)

// violation is one breach of a size rule, named so a reader can find it.
type violation struct {
	where string // package directory, or file:line of a function
	what  string
	lines int
}

// moduleRoot walks up from the test's directory to the folder holding go.mod.
func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test's directory")
		}
		dir = parent
	}
}

// goFiles lists every non-test .go file under root, skipping hidden folders,
// testdata and vendor, as the go tool does.
func goFiles(root string) ([]string, error) {
	var files []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") ||
				name == "testdata" || name == "vendor") {
				return filepath.SkipDir
			}
			if path != root {
				if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
					return filepath.SkipDir // another module
				}
			}
			return nil
		}
		if strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") {
			files = append(files, path)
		}
		return nil
	})
	return files, err
}

// check parses every file and returns the breaches of both rules, sorted.
func check(root string, files []string) ([]violation, error) {
	fset := token.NewFileSet()
	pkgLines := map[string]int{}
	var out []violation
	for _, path := range files {
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		rel, _ := filepath.Rel(root, path)
		pkgLines[filepath.Dir(rel)] += fset.File(f.Pos()).LineCount()
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			start, end := fset.Position(fn.Pos()), fset.Position(fn.End())
			if n := end.Line - start.Line + 1; n > MaxFuncLines {
				out = append(out, violation{fmt.Sprintf("%s:%d", rel, start.Line), "func " + funcName(fn), n})
			}
		}
	}
	for dir, n := range pkgLines {
		if n > MaxPackageLines {
			out = append(out, violation{dir, "package", n})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].where < out[j].where })
	return out, nil
}

// funcName spells a function as Recv.Name for methods, Name otherwise.
func funcName(fn *ast.FuncDecl) string {
	if fn.Recv == nil || len(fn.Recv.List) == 0 {
		return fn.Name.Name
	}
	t := fn.Recv.List[0].Type
	for {
		switch x := t.(type) {
		case *ast.StarExpr:
			t = x.X
			continue
		case *ast.IndexExpr:
			t = x.X
			continue
		case *ast.IndexListExpr:
			t = x.X
			continue
		case *ast.Ident:
			return x.Name + "." + fn.Name.Name
		}
		return fn.Name.Name
	}
}

func TestSizeRules(t *testing.T) {
	root := moduleRoot(t)
	files, err := goFiles(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no Go files found under " + root)
	}
	violations, err := check(root, files)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range violations {
		limit := MaxFuncLines
		if v.what == "package" {
			limit = MaxPackageLines
		}
		t.Errorf("%s: %s has %d lines (limit %d)", v.where, v.what, v.lines, limit)
	}
}

// TestCheckFindsBreaches runs the check on a made-up module so the rules are
// seen to fire: one long function, one long package, a function of exactly
// MaxFuncLines lines (allowed) and test files (ignored).
func TestCheckFindsBreaches(t *testing.T) {
	root := t.TempDir()
	write := func(rel, body string) {
		path := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/m\n")
	write("a/long.go", "package a\n\ntype T struct{}\n\nfunc (t *T) Long() {\n"+
		strings.Repeat("\t_ = 1\n", MaxFuncLines-1)+"}\n\nfunc short() {}\n")
	write("a/long_test.go", "package a\n\nfunc TestIgnored() {\n"+strings.Repeat("\t_ = 1\n", 200)+"}\n")
	write("b/big.go", "package b\n"+strings.Repeat("var _ = 1\n", MaxPackageLines))
	write("c/ok.go", "package c\n\nfunc fine() {\n"+strings.Repeat("\t_ = 1\n", MaxFuncLines-2)+"}\n")
	files, err := goFiles(root)
	if err != nil {
		t.Fatal(err)
	}
	got, err := check(root, files)
	if err != nil {
		t.Fatal(err)
	}
	want := []violation{
		{"a/long.go:5", "func T.Long", MaxFuncLines + 1},
		{"b", "package", MaxPackageLines + 1},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("check found %v, want %v", got, want)
	}
}
