package reconcile

import (
	"testing"

	"github.com/smile-loop/smile/runtime"
)

// TestContainersAreLimited: the Student's container carries the default
// limits, or the ones smile.json sets.
func TestContainersAreLimited(t *testing.T) {
	tests := []struct {
		name, spec string
		want       runtime.Resources
	}{
		{"defaults", "", runtime.Resources{PidsLimit: 512, MemoryBytes: 2 << 30, NanoCPUs: 2e9}},
		{"set", "  container: {pids: 64, memory: 256m, cpus: 0.5}\n", runtime.Resources{PidsLimit: 64, MemoryBytes: 256 << 20, NanoCPUs: 5e8}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := llmHarness(t, "  llmProvider: claude\n"+tt.spec)
			run := h.settle()
			cs, ok := h.rt.Spec(run.Status.Attempt.Container)
			if !ok {
				t.Fatal("no Student container")
			}
			if cs.Resources != tt.want {
				t.Fatalf("container resources = %+v, want %+v", cs.Resources, tt.want)
			}
		})
	}
}
