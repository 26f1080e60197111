package checkpoints

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/status"
)

var t0 = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)

// The cache keeps the most recently used checkpoints within its budget.
func TestEvictLeastRecentlyUsed(t *testing.T) {
	used := t0.Add(time.Hour)
	st := &status.Status{
		CheckpointCache: []status.Checkpoint{{Ref: "old-used", SizeBytes: 40, CreatedAt: t0, LastUsedAt: &used}, {Ref: "old", SizeBytes: 40, CreatedAt: t0.Add(time.Minute)}},
		Checkpoints:     []status.Checkpoint{{Ref: "new", SizeBytes: 40, CreatedAt: t0.Add(2 * time.Hour)}},
	}
	if got := Evict(st, 100); !reflect.DeepEqual(got, []string{"old"}) {
		t.Fatalf("evicted %v, want the least recently used", got)
	}
	if n, b := Use(st); n != 2 || b != 80 {
		t.Fatalf("use = %d, %d; want 2 checkpoints of 80 bytes", n, b)
	}
	if got := Evict(st, 10); !reflect.DeepEqual(got, []string{"old-used"}) || len(st.Checkpoints) != 1 {
		t.Fatalf("evicted %v leaving %+v: the newest always stays", got, st.Checkpoints)
	}
}

const tut = "# T\n\n```bash\nslow\n```\n\n```bash\ngap one\n```\n\n```bash\ngap two\n```\n\n```bash\nlast\n```\n"

func desired(content string) *spec.Desired {
	cfg := spec.DefaultConfig()
	cfg.LLMProvider = spec.ProviderLiteral
	return &spec.Desired{Config: cfg, Tutorial: &spec.Tutorial{Content: content}}
}

// A new generation keeps the notes about the unchanged start of the
// tutorial, in order, and the gaps it will not meet again; an edit above a
// note drops it and every note after it.
func TestCarry(t *testing.T) {
	img := spec.DefaultConfig().ContainerImage
	var notes []status.MentorNote
	for i, line := range []int{8, 12} {
		n := status.MentorNote{Iteration: i + 1, Line: line, Category: status.CategoryMissingFile, Resolution: status.ResolutionWorkaround, Workaround: "true"}
		n.Key = status.StepsKey(tut, line+1, notes)
		notes = append(notes, n)
	}
	old := status.Status{MentorNotes: notes, Gaps: []status.Gap{
		{Category: status.CategoryOutputMismatch, Location: status.GapLocation{LineNumber: 4}},
		{Category: status.CategoryMissingFile, Location: status.GapLocation{LineNumber: 8}},
		{Category: status.CategoryMissingFile, Location: status.GapLocation{LineNumber: 12}},
		{Category: status.CategoryOutputMismatch, Location: status.GapLocation{LineNumber: 16}},
	}}
	cache := []status.Checkpoint{{Ref: "c8", Line: 8, Image: img, Key: Key(img, status.StepsKey(tut, 8, nil)), Clean: true}}

	edited := strings.Replace(tut, "last", "last, edited", 1)
	got, gaps := Carry(old, desired(edited), cache)
	if len(got) != 2 || got[0].Iteration != 0 || got[1].Line != 12 {
		t.Fatalf("notes %+v, want both, as iteration 0", got)
	}
	var lines []int
	for _, g := range gaps {
		lines = append(lines, g.Location.LineNumber)
	}
	if !reflect.DeepEqual(lines, []int{4, 8, 12}) {
		t.Errorf("gaps at %v, want 4 (above the checkpoint), 8 and 12 (answered); 16 is met again", lines)
	}

	got, _ = Carry(old, desired(strings.Replace(tut, "gap two", "gap 2", 1)), cache)
	if len(got) != 1 || got[0].Line != 8 {
		t.Errorf("after an edit at line 12: notes %+v, want only the one at line 8", got)
	}
	if got, _ := Carry(old, desired(edited), nil); got != nil {
		t.Errorf("without a cache: %+v, want nothing carried", got)
	}
}
