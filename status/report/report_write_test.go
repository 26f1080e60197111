package report

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/smile-loop/smile/status/store"
)

// countWrites is a report Writer that counts its tries: fail decides, per
// path and try, whether a write fails before reaching the disk.
func countWrites(t *testing.T, fail func(path string, try int) bool) (Writer, map[string]int) {
	t.Helper()
	tries := map[string]int{}
	w := Writer{Delay: time.Millisecond, WriteFile: func(path string, data []byte, perm os.FileMode) error {
		tries[filepath.Base(path)]++
		if fail != nil && fail(path, tries[filepath.Base(path)]) {
			return errors.New("disk says no")
		}
		return store.WriteFileAtomic(path, data, perm)
	}}
	return w, tries
}

func TestWriteReports(t *testing.T) {
	w, tries := countWrites(t, nil)
	r := BuildReport(sampleRun(), sampleInput())
	dir := filepath.Join(t.TempDir(), "out", "reports") // created on demand
	var fallback bytes.Buffer

	ref, err := w.WriteReports(dir, r, &fallback)
	if err != nil {
		t.Fatal(err)
	}
	js, _ := RenderJSON(r)
	for _, f := range []struct {
		name, ref string
		want      []byte
	}{
		{ReportMarkdownFile, ref.Markdown, RenderMarkdown(r)},
		{ReportJSONFile, ref.JSON, js},
		{AuditLogFile, ref.AuditLog, RenderAuditLog(r)},
	} {
		path := filepath.Join(dir, f.name)
		if f.ref != path {
			t.Errorf("ref for %s = %q, want %q", f.name, f.ref, path)
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, f.want) {
			t.Errorf("%s differs from its rendering", f.name)
		}
		if tries[f.name] != 1 {
			t.Errorf("%s written in %d tries, want 1", f.name, tries[f.name])
		}
	}
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if want := []string{AuditLogFile, ReportJSONFile, ReportMarkdownFile}; !slices.Equal(names, want) {
		t.Errorf("dir holds %q, want only %q (no temporary files)", names, want)
	}
	if fallback.Len() != 0 {
		t.Errorf("fallback got %d bytes on success", fallback.Len())
	}
	if ref.WrittenAt.IsZero() {
		t.Errorf("ref has no writtenAt")
	}
}

func TestWriteReportsRetriesThenFallsBack(t *testing.T) {
	w, tries := countWrites(t, nil) // the real write, on a folder that cannot exist
	file := filepath.Join(t.TempDir(), "plain-file")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(file, "reports")
	r := BuildReport(sampleRun(), sampleInput())
	var fallback bytes.Buffer

	ref, err := w.WriteReports(dir, r, &fallback)
	if err == nil {
		t.Fatal("WriteReports under a regular file succeeded")
	}
	if !strings.Contains(err.Error(), dir) {
		t.Errorf("error %q does not name the folder", err)
	}
	for _, name := range []string{ReportMarkdownFile, ReportJSONFile, AuditLogFile} {
		if tries[name] != 3 {
			t.Errorf("%s tried %d times, want 3", name, tries[name])
		}
	}
	js, _ := RenderJSON(r)
	want := slices.Concat(RenderMarkdown(r), js, RenderAuditLog(r))
	if !bytes.Equal(fallback.Bytes(), want) {
		t.Errorf("fallback got %d bytes, want the three reports (%d bytes)", fallback.Len(), len(want))
	}
	if ref == nil || ref.Markdown != "" || ref.JSON != "" || ref.AuditLog != "" {
		t.Errorf("ref = %+v, want no paths", ref)
	}
}

func TestWriteReportsPartialFailure(t *testing.T) {
	w, tries := countWrites(t, func(path string, try int) bool {
		// The JSON never lands; the Markdown fails twice, then lands.
		return filepath.Base(path) == ReportJSONFile || (filepath.Base(path) == ReportMarkdownFile && try < 3)
	})
	dir := t.TempDir()
	r := BuildReport(sampleRun(), sampleInput())
	var fallback bytes.Buffer

	ref, err := w.WriteReports(dir, r, &fallback)
	if err == nil || !strings.Contains(err.Error(), ReportJSONFile) {
		t.Fatalf("err = %v, want one naming %s", err, ReportJSONFile)
	}
	if tries[ReportMarkdownFile] != 3 || tries[ReportJSONFile] != 3 || tries[AuditLogFile] != 1 {
		t.Errorf("tries = %v, want md 3, json 3, log 1", tries)
	}
	js, _ := RenderJSON(r)
	if !bytes.Equal(fallback.Bytes(), js) {
		t.Errorf("fallback = %q, want only the JSON that was not written", fallback.String())
	}
	if ref.Markdown != filepath.Join(dir, ReportMarkdownFile) || ref.JSON != "" || ref.AuditLog != filepath.Join(dir, AuditLogFile) {
		t.Errorf("ref = %+v, want the Markdown and the log", ref)
	}
	if _, err := w.WriteReports(t.TempDir(), r, nil); err == nil {
		t.Errorf("a nil fallback hid the error")
	}
}

func TestWriteReportsErrorIsOneLine(t *testing.T) {
	w, _ := countWrites(t, func(string, int) bool { return true })
	_, err := w.WriteReports(t.TempDir(), &Report{}, nil)
	if err == nil || strings.Contains(err.Error(), "\n") {
		t.Fatalf("err = %q, want one line", err)
	}
	if strings.Count(err.Error(), "disk says no") != 3 {
		t.Errorf("err = %q, want each file's failure", err)
	}
}
