// Command benchcheckpoint measures resume from checkpoints on the real engine
// and prints one Markdown table:
//
//	(a) a tutorial with a slow setup step (-setup seconds) then four gaps the
//	    literal Mentor works around: `smile apply --wait` with resume
//	    checkpoint and with fromStart, wall time, ratio, and the gap lines;
//	(b) the last step edited while the folder's controller runs: from the
//	    save to the new generation's report, with the cache (the checkpoint
//	    run's folder) and without it (the fromStart run's folder);
//	(c) one checkpoint (work folder copy + filesystem commit) of a container
//	    whose work folder holds 100 MB: p50/p95 over -n samples and the size
//	    of each, and the disk the (a) run's checkpoints use.
//
// It expects bin/ built (hack/bench-checkpoint.sh does) and the base image
// present. The table goes to stdout, progress to stderr; it removes what it
// creates.
//
// -parts picks the measures: "ac" leaves (b) out, the quickest pass that
// still takes every path (the smoke test in test/e2e runs it so).
//
// Usage: go run ./hack/benchcheckpoint [-bin bin] [-setup 20] [-n 10] [-parts abc]
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/smile-loop/smile/reconcile/checkpoints"
	"github.com/smile-loop/smile/runtime"
	"github.com/smile-loop/smile/runtime/docker"
	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/status"
	"github.com/smile-loop/smile/status/store"
	"github.com/smile-loop/smile/status/wire"
)

type options struct {
	bin     string
	image   string
	setup   int
	samples int
	parts   string
}

func main() {
	var o options
	flag.StringVar(&o.bin, "bin", "bin", "the folder holding smile, smile-controller and smile-wrapper")
	flag.StringVar(&o.image, "image", docker.BaseImage, "the image the runs use")
	flag.IntVar(&o.setup, "setup", 20, "seconds the tutorial's setup step takes")
	flag.IntVar(&o.samples, "n", 10, "checkpoints of the 100 MB container to time")
	flag.StringVar(&o.parts, "parts", "abc", "the measures to take: a, b (needs a), c")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, o); err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(1)
	}
}

type line struct{ measure, value, target string }

func run(ctx context.Context, o options) error {
	var err error
	if o.bin, err = filepath.Abs(o.bin); err != nil {
		return err
	}
	if !strings.Contains(o.parts, "a") || strings.Trim(o.parts, "abc") != "" || o.samples < 1 {
		return fmt.Errorf("-parts %q: want a, ab, ac or abc (b and c read what a left); -n %d: want at least 1", o.parts, o.samples)
	}
	var rows []line
	cp, err := newFolder(o, "checkpoint")
	if err != nil {
		return err
	}
	defer cp.remove()
	top, err := newFolder(o, "fromStart")
	if err != nil {
		return err
	}
	defer top.remove()

	progress("(a) resume checkpoint")
	a1, err := cp.apply(ctx)
	if err != nil {
		return err
	}
	progress("(a) resume fromStart")
	a2, err := top.apply(ctx)
	if err != nil {
		return err
	}
	same := "yes"
	if !slices.Equal(a1.gaps, a2.gaps) {
		same = fmt.Sprintf("NO: %v vs %v", a1.gaps, a2.gaps)
	}
	rows = append(rows,
		line{fmt.Sprintf("(a) %d s setup + 4 gaps, resume checkpoint: wall (%d iterations, verified %s)", o.setup, a1.iterations, a1.verified), dur(a1.wall), "-"},
		line{fmt.Sprintf("(a) same, resume fromStart: wall (%d iterations)", a2.iterations), dur(a2.wall), "-"},
		line{"(a) ratio checkpoint / fromStart", fmt.Sprintf("×%.2f", a1.wall.Seconds()/a2.wall.Seconds()), "≤ ×0.5"},
		line{"(a) same gap lines: " + strings.Join(a1.gaps, ", "), same, "yes"},
	)

	if strings.Contains(o.parts, "b") {
		b, err := measureEdits(ctx, cp, top)
		if err != nil {
			return err
		}
		rows = append(rows, b...)
	}
	if strings.Contains(o.parts, "c") {
		c, err := measureSnapshots(ctx, o, cp)
		if err != nil {
			return err
		}
		rows = append(rows, c...)
	}

	fmt.Println("| Measure | Value | Target |")
	fmt.Println("| --- | ---: | --- |")
	for _, r := range rows {
		fmt.Printf("| %s | %s | %s |\n", r.measure, r.value, r.target)
	}
	return nil
}

// measureEdits is (b): the last step edited in each folder.
func measureEdits(ctx context.Context, cp, top *folder) ([]line, error) {
	progress("(b) edit the last step, with the cache")
	b1, err := cp.editLastStep(ctx)
	if err != nil {
		return nil, err
	}
	progress("(b) edit the last step, without the cache")
	b2, err := top.editLastStep(ctx)
	if err != nil {
		return nil, err
	}
	return []line{
		{"(b) save → report after editing the last step, with the cache", dur(b1), "≤ 2 s"},
		{"(b) same, without the cache (resume fromStart)", dur(b2), "-"},
	}, nil
}

// measureSnapshots is (c): the cost of one checkpoint, and the disk the
// checkpoint run's snapshots use.
func measureSnapshots(ctx context.Context, o options, cp *folder) ([]line, error) {
	progress("(c) checkpoints of a 100 MB work folder")
	c, err := snapshotCost(ctx, o)
	if err != nil {
		return nil, err
	}
	after, err := store.Load(filepath.Join(spec.DefaultRunDir(cp.dir, "bench-checkpoint"), "state.json"))
	if err != nil {
		return nil, err
	}
	n, size := checkpoints.Use(&after.Status)
	gens := "two generations ((a) then (b))"
	if !strings.Contains(o.parts, "b") {
		gens = "one generation ((a))"
	}
	return append(c, line{"(c) disk used by the checkpoint run's snapshots, " + gens, fmt.Sprintf("%d checkpoints, %.1f kB", n, float64(size)/1e3),
		fmt.Sprintf("≤ %s (checkpointDisk's default, LRU)", spec.DefaultCheckpointDisk)}), nil
}

// folder is one copy of the bench tutorial with its run.
type folder struct {
	o      options
	dir    string
	resume string
}

type applied struct {
	wall       time.Duration
	iterations int
	verified   string
	gaps       []string
	status     status.Status
}

func newFolder(o options, resume string) (*folder, error) {
	dir, err := os.MkdirTemp("", "smile-bench-checkpoint-")
	if err != nil {
		return nil, err
	}
	f := &folder{o: o, dir: dir, resume: resume}
	manifest := fmt.Sprintf("apiVersion: smile.dev/v1alpha1\nkind: SmileRun\nmetadata: {name: bench-checkpoint}\nspec:\n  llmProvider: literal\n"+
		"  resume: %s\n  containerImage: %s\n  maxIterations: 8\n  timeout: 1200\n  container: {keepOnFailure: false}\n", resume, o.image)
	if err := os.WriteFile(filepath.Join(dir, "run.yaml"), []byte(manifest), 0o644); err != nil {
		return nil, err
	}
	return f, os.WriteFile(filepath.Join(dir, "tutorial.md"), []byte(benchTutorial(o.setup, "echo finished")), 0o644)
}

// benchTutorial has a slow first step, then four gaps the literal Mentor
// works around: two misspelt file names, a script never made executable and
// a folder never made.
func benchTutorial(setup int, last string) string {
	return "# A slow setup and four gaps\n\n## 1. Set up\n\nThis takes a while.\n\n```bash\nsleep " + strconv.Itoa(setup) +
		" && printf 'port: 8080\\n' > config.yaml\n```\n\n## 2. Check the configuration\n\n```bash\ncat conifg.yaml\n```\n\n" +
		"## 3. Start script\n\nSave the following as `start.sh`:\n\n```sh\n#!/bin/sh\necho started\n```\n\n```bash\n./start.sh\n```\n\n" +
		"## 4. Check it again\n\n```bash\ncat confg.yaml\n```\n\n## 5. Enter the logs folder\n\n```bash\ncd logs\n```\n\n" +
		"## 6. Finish\n\n```bash\n" + last + "\n```\n"
}

func (f *folder) smile(ctx context.Context, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, filepath.Join(f.o.bin, "smile"), args...)
	cmd.Dir = f.dir
	return cmd.CombinedOutput()
}

func (f *folder) apply(ctx context.Context) (applied, error) {
	start := time.Now()
	out, err := f.smile(ctx, "apply", "-f", "run.yaml", "--wait", "--fail-on", "none")
	a := applied{wall: time.Since(start)}
	if err != nil {
		return a, fmt.Errorf("smile apply (%s): %w\n%s", f.resume, err, out)
	}
	run, err := store.Load(filepath.Join(spec.DefaultRunDir(f.dir, "bench-checkpoint"), "state.json"))
	if err != nil {
		return a, err
	}
	a.status, a.iterations, a.verified = run.Status, run.Status.Iteration, "-"
	if v := run.Status.Verification; v != nil && v.Done {
		a.verified = strconv.FormatBool(v.Verified)
	}
	for _, g := range run.Status.Gaps {
		a.gaps = append(a.gaps, fmt.Sprintf("%s@%d", g.Category, g.Location.LineNumber))
	}
	if run.Status.Phase != status.PhaseCompleted || len(a.gaps) != 4 {
		return a, fmt.Errorf("the %s run ended %s with gaps %v, want completed with 4\n%s", f.resume, run.Status.Phase, a.gaps, out)
	}
	return a, nil
}

// editLastStep starts the folder's controller, saves the tutorial with its
// last step changed and waits for the new generation's report.
func (f *folder) editLastStep(ctx context.Context) (time.Duration, error) {
	if out, err := f.smile(ctx, "apply", "-f", "run.yaml"); err != nil {
		return 0, fmt.Errorf("start the controller: %w\n%s", err, out)
	}
	defer func() { _, _ = f.smile(context.WithoutCancel(ctx), "controller", "stop") }()
	state := filepath.Join(spec.DefaultRunDir(f.dir, "bench-checkpoint"), "state.json")
	before, err := store.Load(state)
	if err != nil {
		return 0, err
	}
	time.Sleep(time.Second) // the controller settles on the unchanged run
	start := time.Now()
	if err := os.WriteFile(filepath.Join(f.dir, "tutorial.md"), []byte(benchTutorial(f.o.setup, "echo finished again")), 0o644); err != nil {
		return 0, err
	}
	deadline := time.Now().Add(20 * time.Minute)
	for time.Now().Before(deadline) {
		if run, err := store.Load(state); err == nil && run.Metadata.Generation > before.Metadata.Generation &&
			run.Status.ObservedGeneration == run.Metadata.Generation && run.Status.Report != nil {
			return time.Since(start), nil
		}
		select {
		case <-ctx.Done():
			return 0, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
	return 0, errors.New("no report for the edited tutorial within 20 minutes")
}

func (f *folder) remove() {
	_, _ = f.smile(context.Background(), "delete", "bench-checkpoint")
	_ = os.RemoveAll(f.dir)
}

// snapshotCost times checkpoints.Keep on a container whose work
// folder holds 100 MB, as the controller takes one.
func snapshotCost(ctx context.Context, o options) ([]line, error) {
	rt, err := docker.New()
	if err != nil {
		return nil, err
	}
	defer rt.Close()
	work, err := os.MkdirTemp("", "smile-bench-work-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(work)
	name := fmt.Sprintf("smile-bench-checkpoint-%d", os.Getpid())
	labels := map[string]string{runtime.LabelOwner: "smile-bench", runtime.LabelRun: name}
	if _, err := rt.Start(ctx, runtime.ContainerSpec{Name: name, Image: o.image, Cmd: []string{"sleep", "infinity"}, Labels: labels,
		Mounts: []runtime.Mount{{Source: work, Target: wire.ContainerWorkDir}}}); err != nil {
		return nil, err
	}
	defer func() { _ = rt.Remove(context.WithoutCancel(ctx), name) }()
	if res, err := rt.ExecIO(ctx, name, runtime.ExecRequest{Cmd: []string{"sh", "-c", "head -c 100000000 /dev/urandom > " + wire.ContainerWorkDir + "/blob"}}); err != nil || res.ExitCode != 0 {
		return nil, fmt.Errorf("write 100 MB: %v %s", err, res.Stderr)
	}
	snapLabels := map[string]string{runtime.LabelOwner: "smile-bench", runtime.LabelRun: name, runtime.LabelKind: runtime.KindSnapshot}
	var costs []time.Duration
	var size int64
	for i := range o.samples {
		ref := fmt.Sprintf("smile-bench-checkpoint:%d-%d", os.Getpid(), i)
		start := time.Now()
		snap, err := checkpoints.Keep(ctx, rt, name, ref, snapLabels)
		costs = append(costs, time.Since(start))
		_ = rt.RemoveSnapshot(context.WithoutCancel(ctx), ref)
		if err != nil {
			return nil, err
		}
		size = snap.SizeBytes
	}
	slices.Sort(costs)
	p := func(q float64) time.Duration { return costs[min(len(costs)-1, int(q*float64(len(costs))))] }
	return []line{
		{fmt.Sprintf("(c) one checkpoint of a 100 MB work folder (copy + commit), p50 / p95 of %d", len(costs)), dur(p(0.5)) + " / " + dur(p(0.95)), "-"},
		{"(c) disk of that checkpoint (its own layer)", fmt.Sprintf("%.1f MB", float64(size)/1e6), "-"},
	}, nil
}

func dur(d time.Duration) string { return d.Round(10 * time.Millisecond).String() }

func progress(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "%s "+format+"\n", append([]any{time.Now().Format("15:04:05")}, args...)...)
}
