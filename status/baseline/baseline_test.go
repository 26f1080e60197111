package baseline

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/smile-loop/smile/status"
)

func gap(line int, cat status.Category, quote string) status.Gap {
	return status.Gap{Category: cat, Location: status.GapLocation{LineNumber: line, Quote: quote}}
}

func TestAcceptAndStates(t *testing.T) {
	dir := t.TempDir()
	b, err := Load(dir)
	if err != nil || len(b.Accepted) != 0 {
		t.Fatalf("no file: want an empty baseline, got %+v, %v", b, err)
	}
	now := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	gaps := []status.Gap{gap(12, status.CategoryMissingFile, "cat notes.txt"), gap(20, status.CategoryOutputMismatch, "Hello")}
	if n := b.Accept("docs/t.md", "quick", gaps, now); n != 2 {
		t.Fatalf("accepted %d, want 2", n)
	}
	if n := b.Accept("docs/t.md", "quick", gaps, now); n != 0 {
		t.Errorf("accepting the same gaps again added %d", n)
	}
	if err := b.Save(dir); err != nil {
		t.Fatal(err)
	}
	again, err := Load(dir)
	if err != nil || !reflect.DeepEqual(again.Accepted, b.Accepted) {
		t.Fatalf("round trip: %+v, %v", again, err)
	}
	// An edit above moves the first gap 3 lines down; the second is fixed;
	// a new one appears. Lines never make a gap new.
	later := []status.Gap{gap(15, status.CategoryMissingFile, "cat  notes.txt"), gap(30, status.CategoryCommandFailure, "make")}
	states, absent := again.States("docs/t.md", later)
	if !reflect.DeepEqual(states, []string{StateUnchanged, StateNew}) || len(absent) != 1 || absent[0].Quote != "Hello" {
		t.Errorf("states %v, absent %+v", states, absent)
	}
	if counted := again.Counted("docs/t.md", later); len(counted) != 1 || counted[0].Location.Quote != "make" {
		t.Errorf("counted %+v, want only the new gap", counted)
	}
	if counted := again.Counted("docs/other.md", later); len(counted) != 2 {
		t.Errorf("another tutorial's gaps are never accepted: %+v", counted)
	}
}

func TestLoadRejectsABadFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(dir); err == nil || !strings.Contains(err.Error(), FileName) {
		t.Errorf("a broken baseline loads: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte(`{"version": 2, "accepted": []}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(dir); err == nil || !strings.Contains(err.Error(), "version 2") {
		t.Errorf("a baseline of another version loads: %v", err)
	}
}
