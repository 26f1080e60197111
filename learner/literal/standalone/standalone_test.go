package standalone

import "testing"

func TestOf(t *testing.T) {
	tests := []struct {
		name, lang, text string
		want             bool
		entry            bool
		file             string
	}{
		{"go main", "go", "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(1)\n}\n", true, true, "main.go"},
		{"go library", "golang", "package shapes\n\nfunc Area() int { return 1 }\n", false, false, ""},
		{"go main without func main", "go", "package main\n\nvar x = 1\n", false, false, ""},
		{"c main", "c", "#include <stdio.h>\nint main(void) {\n  return 0;\n}\n", true, true, "main.c"},
		{"c with a local header", "c", "#include \"list.h\"\nint main(void) { return 0; }\n", false, false, ""},
		{"c function only", "c", "int add(int a, int b) { return a + b; }\n", false, false, ""},
		{"cpp main", "c++", "#include <iostream>\nint main() { std::cout << 1; }\n", true, true, "main.cpp"},
		{"rust main", "rust", "fn main() {\n    println!(\"hi\");\n}\n", true, true, "main.rs"},
		{"rust with a module", "rs", "mod shapes;\nfn main() {}\n", false, false, ""},
		{"java class", "java", "public class Hello {\n  public static void main(String[] args) {}\n}\n", true, true, "Hello.java"},
		{"python script", "python", "print('hi')\n", true, false, "main.py"},
		{"perl script with its interpreter line", "perl", "#!/usr/bin/perl\nprint \"hi\\n\";\n", true, true, "main.pl"},
		{"perl script without", "perl", "print \"hi\\n\";\n", true, false, "main.pl"},
		{"python main guard", "py", "def f():\n    pass\n\nif __name__ == '__main__':\n    f()\n", true, true, "main.py"},
		{"python session", "python", ">>> 1 + 1\n2\n", false, false, ""},
		{"node module", "js", "import fs from 'node:fs'\nconsole.log(1)\n", true, false, "main.mjs"},
		{"browser script", "javascript", "document.title = 'x'\n", false, false, ""},
		{"php without its tag", "php", "echo 1;\n", false, false, ""},
		{"yaml is no program", "yaml", "a: 1\n", false, false, ""},
		{"empty", "go", "\n", false, false, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, ok := Of(tc.lang, tc.text)
			if ok != tc.want || p.Entry != tc.entry || p.File != tc.file {
				t.Errorf("Of(%q) = %+v, %v; want ok %v, entry %v, file %q", tc.lang, p, ok, tc.want, tc.entry, tc.file)
			}
		})
	}
}
