package report

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the report golden files in testdata/")

// TestReportGolden pins the whole rendered report. After an intended change:
// go test ./status/ -run TestReportGolden -update, then read the diff.
func TestReportGolden(t *testing.T) {
	r := BuildReport(sampleRun(), sampleInput())
	for _, tc := range []struct {
		file string
		got  []byte
	}{
		{"report.md.golden", RenderMarkdown(r)},
		{"audit.log.golden", RenderAuditLog(r)},
	} {
		t.Run(tc.file, func(t *testing.T) {
			path := filepath.Join("testdata", tc.file)
			if *update {
				if err := os.WriteFile(path, tc.got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if !bytes.Equal(tc.got, want) {
				t.Errorf("%s differs from the rendering (run with -update if intended)\n--- got ---\n%s", path, tc.got)
			}
		})
	}
}
