package docker

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/smile-loop/smile/runtime"
)

// The benchmarks time what a run pays per attempt on the real engine;
// hack/ scripts report them with:
//
//	go test -run x -bench . -benchtime 10x ./runtime/docker

// reportMillis adds ms/op, the unit the design's budgets use.
func reportMillis(b *testing.B) {
	b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/op")
}

// BenchmarkCreateStart times Start (create and start) of a fresh container;
// removing it is not timed.
func BenchmarkCreateStart(b *testing.B) {
	r := newRuntime(b)
	run := testRun(b, r)
	ctx := context.Background()
	b.ResetTimer()
	for i := range b.N {
		c, err := r.Start(ctx, testSpec(run, "bench"+strconv.Itoa(i)))
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		if err := r.Remove(ctx, c.ID); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
	reportMillis(b)
}

// BenchmarkReset times runtime.Reset of a running container: the cleanup
// script, the removal and a new Start under the same name.
func BenchmarkReset(b *testing.B) {
	r := newRuntime(b)
	spec := testSpec(testRun(b, r), "reset")
	ctx := context.Background()
	c := start(b, r, spec)
	b.ResetTimer()
	for range b.N {
		next, err := runtime.Reset(ctx, r, c.Name, spec)
		if err != nil {
			b.Fatal(err)
		}
		c = next
	}
	reportMillis(b)
}

// BenchmarkExec times one round trip of a command in a running container.
func BenchmarkExec(b *testing.B) {
	r := newRuntime(b)
	c := start(b, r, testSpec(testRun(b, r), "exec"))
	ctx := context.Background()
	b.ResetTimer()
	for range b.N {
		if code, _, err := r.Exec(ctx, c.Name, []string{"true"}, 10*time.Second); err != nil || code != 0 {
			b.Fatalf("Exec = %d, %v", code, err)
		}
	}
	reportMillis(b)
}
