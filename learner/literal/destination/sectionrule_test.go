package destination

import "testing"

func TestParseSectionRule(t *testing.T) {
	tests := []struct{ paragraph, file, command string }{
		{"Put each example in a file named `Makefile` and run `make`.", "Makefile", "make"},
		{"Save every snippet below as `demo.sh`, then run `sh demo.sh`.", "demo.sh", "sh demo.sh"},
		{"All the examples go into `main.go`.", "main.go", ""},
		{"Each example prints a greeting.", "", ""},
		{"Create a file named `app.py`:", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.paragraph, func(t *testing.T) {
			r, ok := ParseSectionRule(tt.paragraph)
			if ok != (tt.file != "") || r.Dest.Path != tt.file || r.Command != tt.command {
				t.Errorf("ParseSectionRule(%q) = %+v, %v; want %q and %q", tt.paragraph, r, ok, tt.file, tt.command)
			}
		})
	}
}
