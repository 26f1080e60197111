// Command benchplan measures how long the literal learner takes to read a
// page into steps (reading.Plan, what `smile plan` prints), and what it
// allocates, on pages of 10 KB to the tutorial size limit (100 KB) made of
// the corpus fixtures' pages put end to end. It runs nothing and needs no
// Docker; it prints one table.
//
//	go run ./hack/benchplan [-n 20] [-corpus test/corpus]
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/smile-loop/smile/learner/literal/reading"
	"github.com/smile-loop/smile/spec"
)

func main() {
	n := flag.Int("n", 20, "plans per size")
	corpus := flag.String("corpus", "test/corpus", "folder of the fixtures whose pages make the inputs")
	flag.Parse()
	pages, err := filepath.Glob(filepath.Join(*corpus, "*", "tutorial.md"))
	if err != nil || len(pages) == 0 {
		fmt.Fprintf(os.Stderr, "benchplan: no pages under %s (run from the repository's top)\n", *corpus)
		os.Exit(2)
	}
	slices.Sort(pages)
	dir, err := os.MkdirTemp("", "benchplan-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchplan:", err)
		os.Exit(1)
	}
	defer os.RemoveAll(dir)
	fmt.Printf("%-8s %7s %7s %7s %10s %10s %12s\n", "SIZE", "BYTES", "BLOCKS", "STEPS", "P50", "P95", "ALLOC/PLAN")
	for _, size := range []int{10 << 10, 50 << 10, spec.MaxTutorialBytes} {
		path, bytes := page(dir, pages, size)
		tut, err := spec.LoadTutorial(path)
		if err != nil {
			fmt.Fprintln(os.Stderr, "benchplan:", err)
			os.Exit(1)
		}
		steps, times, alloc := measure(tut, *n)
		fmt.Printf("%-8s %7d %7d %7d %10s %10s %10.1fMB\n", fmt.Sprintf("%dKB", size>>10), bytes, len(tut.Blocks), steps,
			times[len(times)/2].Round(time.Microsecond), times[len(times)*95/100].Round(time.Microsecond), float64(alloc)/float64(*n)/(1<<20))
	}
}

// page writes a tutorial of just under size bytes, the fixtures' pages one
// after another (each under a heading of its own), and returns its path.
func page(dir string, pages []string, size int) (string, int) {
	var md strings.Builder
	md.WriteString("# Benchmark\n")
	for i := 0; ; i++ {
		src, err := os.ReadFile(pages[i%len(pages)])
		if err != nil {
			continue
		}
		part := fmt.Sprintf("\n## Part %d\n\n%s\n", i, strings.ReplaceAll(string(src), "\n# ", "\n### "))
		if md.Len()+len(part) > size {
			break
		}
		md.WriteString(part)
	}
	path := filepath.Join(dir, fmt.Sprintf("tutorial-%d.md", size))
	if err := os.WriteFile(path, []byte(md.String()), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "benchplan:", err)
		os.Exit(1)
	}
	return path, md.Len()
}

// measure plans the page n times: the steps of one plan, each plan's wall
// time sorted, and the bytes all of them allocated.
func measure(tut *spec.Tutorial, n int) (int, []time.Duration, uint64) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	times := make([]time.Duration, 0, n)
	steps := 0
	for range n {
		began := time.Now()
		steps = len(reading.Plan(tut))
		times = append(times, time.Since(began))
	}
	runtime.ReadMemStats(&after)
	slices.Sort(times)
	return steps, times, after.TotalAlloc - before.TotalAlloc
}
