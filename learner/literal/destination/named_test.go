package destination

import (
	"path"
	"reflect"
	"strings"
	"testing"
)

func TestParts(t *testing.T) {
	cFiles := func(n string) bool { return path.Ext(n) == ".c" || path.Ext(n) == ".h" }
	tests := []struct {
		name string
		code string
		want []Part
	}{
		{"header and source", "// list.h\nint f(void);\n\n// list.c\nint f(void) { return 1; }\n",
			[]Part{{Path: "list.h", From: 0, To: 3}, {Path: "list.c", From: 3, To: 5}}},
		{"labelled block comments", "/* file: a.h */\nint a;\n\n/* file: a.c */\nint a = 1;\n",
			[]Part{{Path: "a.h", From: 0, To: 3}, {Path: "a.c", From: 3, To: 5}}},
		{"one file", "// main.c\nint main(void) { return 0; }\n", nil},
		{"first line is code", "int x;\n\n// other.c\nint y;\n", nil},
		{"a sentence naming a file is no header", "// list.h\nint f(void);\n\n// see list.c for the body\nint g;\n", nil},
		{"a header not after a blank line", "// list.h\nint f(void);\n// list.c\nint g;\n", nil},
		{"another kind of file", "// list.h\nint f(void);\n\n// notes.txt\nhello\n", nil},
		{"the same name twice", "// list.h\nint f(void);\n\n// list.h\nint g;\n", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Parts(strings.Split(strings.TrimSuffix(tc.code, "\n"), "\n"), cFiles)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Parts = %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestCleanFileName(t *testing.T) {
	for in, want := range map[string]string{
		"`app.py`":    "app.py",
		"*app.py*":    "app.py",
		"_app.py_":    "app.py",
		"__init__.py": "__init__.py", // its underscores are its name
		"_really_":    "",            // emphasis, not a file
		"notes.txt,":  "notes.txt",
		"http://x.io": "",
	} {
		if got := CleanFileName(in); got != want {
			t.Errorf("CleanFileName(%q) = %q, want %q", in, got, want)
		}
	}
	if got := FilesNamed("# __init__.py", func(string) bool { return true }); len(got) != 1 || got[0] != "__init__.py" {
		t.Errorf("FilesNamed of a comment naming __init__.py = %v", got)
	}
}
