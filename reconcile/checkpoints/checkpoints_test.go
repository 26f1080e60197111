package checkpoints

import (
	"reflect"
	"testing"
	"time"

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
