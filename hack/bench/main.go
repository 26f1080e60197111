// Command bench measures what the issue asks a note to report and prints one
// Markdown table with the seed's limit beside each measure:
//
//   - config load: spec.LoadConfig of a smile.json that sets every field;
//   - tutorial load: spec.LoadTutorial of a ~100 KB tutorial that references
//     PNG and SVG images beside it;
//   - container create+start and reset on the real engine (the benchmarks of
//     runtime/docker, one operation per sample);
//   - one literal run of examples/quickstart (`smile apply --wait`, wall time)
//     against `docker run` of the commands its Student ran in the successful
//     iteration, in the same image: the ratio is the loop's overhead.
//
// It expects bin/ and the base image to be built (hack/bench.sh does that).
// The table goes to stdout, progress to stderr. Containers it starts are
// removed, also when it is interrupted.
//
// Usage: go run ./hack/bench [-n 5] [-loads 200] [-containers 10] [-bin bin] [-image smile-base:latest]
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"syscall"
	"time"
)

type options struct {
	runs       int    // quickstart and docker run samples
	loads      int    // config and tutorial load samples
	containers int    // create+start and reset samples
	bin        string // folder holding smile and smile-wrapper
	image      string
	repo       string // the repository's root
}

func main() {
	var o options
	flag.IntVar(&o.runs, "n", 5, "runs of the quickstart and of its docker run equivalent")
	flag.IntVar(&o.loads, "loads", 200, "samples of config and tutorial load")
	flag.IntVar(&o.containers, "containers", 10, "samples of container create+start and of reset")
	flag.StringVar(&o.bin, "bin", "bin", "the folder holding smile and smile-wrapper (hack/build.sh)")
	flag.StringVar(&o.image, "image", "smile-base:latest", "the image the quickstart uses (hack/build-image.sh)")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, o); err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, o options) error {
	var err error
	if o.repo, err = os.Getwd(); err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(o.repo, "go.mod")); err != nil {
		return fmt.Errorf("run from the repository's root (hack/bench.sh does): %w", err)
	}
	if o.bin, err = filepath.Abs(o.bin); err != nil {
		return err
	}
	if o.runs < 1 || o.loads < 1 || o.containers < 1 {
		return fmt.Errorf("-n, -loads and -containers must be positive")
	}
	loadBefore := loadAvg()
	started := time.Now()

	var rows []row
	progress("config and tutorial load: %d samples each", o.loads)
	loads, notes, err := measureLoads(o.loads)
	if err != nil {
		return err
	}
	rows = append(rows, loads...)

	progress("container create+start and reset on the real engine: %d samples each (go test -bench ./runtime/docker)", o.containers)
	cont, err := measureContainers(ctx, o)
	if err != nil {
		return err
	}
	rows = append(rows, cont...)

	progress("quickstart: %d runs of smile apply --wait, each followed by one docker run", o.runs)
	loop, loopNotes, err := measureLoop(ctx, o)
	if err != nil {
		return err
	}
	rows = append(rows, loop...)
	notes = append(notes, loopNotes...)

	printTable(os.Stdout, rows)
	fmt.Println()
	fmt.Printf("Machine: %d cores (%s/%s), %s, Docker %s. Load average (1, 5, 15 min) %s at the start, %s at the end; took %s.\n",
		goruntime.NumCPU(), goruntime.GOOS, goruntime.GOARCH, goruntime.Version(), dockerVersion(ctx), loadBefore, loadAvg(), time.Since(started).Round(time.Second))
	notes = append(notes, "p95 is the nearest-rank percentile: with fewer than 20 samples it is the slowest sample.")
	for _, n := range notes {
		fmt.Println()
		fmt.Println(n)
	}
	return nil
}

func progress(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "bench: "+format+"\n", args...)
}

// loadAvg is the first three fields of /proc/loadavg ("?" elsewhere).
func loadAvg() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(data))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}
