package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/smile-loop/smile/cmd/smile/internal/gate"

	"github.com/smile-loop/smile/cmd/smile/internal/applyset"
	"github.com/smile-loop/smile/cmd/smile/internal/ctlclient"
	"github.com/smile-loop/smile/cmd/smile/internal/doctor"
	"github.com/smile-loop/smile/cmd/smile/internal/progress"
	"github.com/smile-loop/smile/status/store"

	"github.com/smile-loop/smile/spec/runfile"

	"github.com/smile-loop/smile/status/report"

	"github.com/go-logr/logr"
	"github.com/spf13/cobra"

	"github.com/smile-loop/smile/reconcile"
	"github.com/smile-loop/smile/reconcile/server"
	"github.com/smile-loop/smile/reconcile/wrapperbin"
	"github.com/smile-loop/smile/runtime/docker"
	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/status"
)

type applyOptions struct {
	// file is the one manifest of the pre-commit hook; files are -f's.
	file      string
	files     []string
	recursive bool
	// parallel bounds the runs the controller keeps active (0: its default).
	parallel int
	// outputDir is where one file per format for all runs goes.
	outputDir  string
	streamsOut io.Writer
	wait       bool
	failOn     string
	wrapper    string
	formats    string
	detach     bool
	// force runs an unchanged run that has ended again (a new generation).
	force bool
	// quiet prints only the gaps, one `path:line: [severity/category]
	// problem` line each (the pre-commit hook): no progress, no dashboard.
	quiet bool
}

func newApplyCommand(streams Streams) *cobra.Command {
	o := &applyOptions{}
	cmd := &cobra.Command{
		Use:   "apply -f FILE|FOLDER|- ...",
		Short: "Apply a SmileRun manifest: check its tutorial in a container",
		Long: `Apply a SmileRun manifest. SMILE resolves it with smile.json beside it, checks the tutorial,
and runs the loop: the Student follows the tutorial in a container, the Mentor helps when it is stuck.

With --wait, apply follows the run to its end, prints where the report is, and exits 0 only when the
tutorial completed with no gap at or above --fail-on (2 when it found gaps or did not complete, 3 when
it was inconclusive: SMILE exercised less of the page's code than minCoverage, 1 when SMILE could not run).

-f takes files (every SmileRun of a multi-document YAML file), folders (their *.yaml, *.yml and *.json
SmileRun manifests; -R descends into subfolders), "-" (stdin) and may be given several times. The
controller keeps --parallel runs active at once and queues the others (phase Queued). With --wait on
several runs, apply follows them all, prints a table (RUN, TUTORIAL, STATUS, GAPS, VERIFIED) and exits
by the worst result; sarif, junit, github and summary are then one file for all runs in --output-dir.`,
		Example: `  smile apply -f run.yaml --wait
  smile apply -f run.yaml --wait --fail-on major
  smile apply -f docs -R --wait --format sarif --parallel 2
  cat runs.yaml | smile apply -f - --wait`,
		Args: manifestsWithF,
		RunE: func(cmd *cobra.Command, args []string) error {
			return o.run(cmd.Context(), streams)
		},
	}
	cmd.Flags().StringArrayVarP(&o.files, "filename", "f", nil, "SmileRun manifests to apply: a file, a folder or - (stdin); repeatable")
	cmd.Flags().BoolVarP(&o.recursive, "recursive", "R", false, "with a folder, also apply the manifests of its subfolders")
	cmd.Flags().IntVar(&o.parallel, "parallel", 0, fmt.Sprintf("how many runs the controller keeps active at once, the others queued (default from this machine: %d)", reconcile.DefaultParallel()))
	cmd.Flags().StringVar(&o.outputDir, "output-dir", ".", "with --wait on several runs, where the one sarif, junit, github and summary file for all of them goes")
	cmd.Flags().BoolVar(&o.wait, "wait", false, "follow the run to its end and exit by its result")
	cmd.Flags().BoolVar(&o.force, "force", false, "run again even when nothing changed since the last run (a new generation); refused while the run is still going")
	cmd.Flags().StringVar(&o.failOn, "fail-on", "minor", "with --wait, the lowest gap severity that fails: "+gate.Values+"; environment findings fail only when named")
	cmd.Flags().StringVar(&o.formats, "format", "", "with --wait, also write the report in these formats (comma-separated: "+strings.Join(report.Formats, ", ")+") into the run's outputDir")
	cmd.Flags().BoolVar(&o.detach, "detach", false, "with --wait, Ctrl-C leaves the run going (or, without a controller, resumable) instead of stopping it")
	cmd.Flags().StringVar(&o.wrapper, "wrapper", "", "the smile-wrapper binary to mount into containers (default: beside smile, or $SMILE_WRAPPER)")
	_ = cmd.MarkFlagRequired("filename")
	return cmd
}

// manifestsWithF refuses arguments, which apply takes only after -f: the
// error shows the command with -f (cobra's own says "unknown command").
func manifestsWithF(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	return fmt.Errorf("%s takes manifests after -f: `%s -f %s`", cmd.CommandPath(), cmd.CommandPath(), strings.Join(args, " -f "))
}

func (o *applyOptions) run(ctx context.Context, streams Streams) error {
	threshold, err := gate.Parse(o.failOn)
	if err != nil {
		return err
	}
	if _, err := report.ParseFormats(o.formats); o.formats != "" && err != nil {
		return err
	}
	if ctx == nil {
		ctx = context.Background()
	}
	if o.quiet {
		streams.ErrOut = io.Discard
	}
	ctx, cancel := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer cancel()
	if o.parallel < 0 {
		return fmt.Errorf("--parallel must be at least 1, got %d", o.parallel)
	}
	if o.file == "" {
		targets, err := applyset.Collect(o.files, o.recursive, streams.In)
		if err != nil {
			return err
		}
		if len(targets) > 1 || targets[0].Doc != "" || slices.Contains(o.files, "-") {
			return o.runMany(ctx, streams, targets, threshold)
		}
		o.file = relToWD(targets[0].Path) // as the user wrote it, to say how to run it again
		if abs, err := filepath.Abs(o.files[0]); err == nil && abs == targets[0].Path {
			o.file = o.files[0]
		}
	}
	manifest, err := filepath.Abs(o.file)
	if err != nil {
		return err
	}
	ws, err := o.check(ctx, streams, manifest)
	if err != nil {
		return err
	}
	wrapper, err := wrapperbin.Find(o.wrapper)
	if err != nil {
		return err
	}
	// A controller serves the workspace: hand the manifest to it.
	if c, err := ctlclient.Find(ws); err == nil {
		if c.Info.Foreground {
			return loopRunning(c, ws)
		}
		return o.handOff(ctx, streams, c, manifest, threshold)
	}
	if !o.wait {
		c, err := ctlclient.Start(ctx, ws, wrapper)
		if err != nil {
			return err
		}
		if err := o.handOff(ctx, streams, c, manifest, threshold); err != nil {
			stopIdle(c)
			return err
		}
		return nil
	}
	return o.inProcess(ctx, streams, ws, manifest, wrapper, threshold)
}

// check reads and resolves the manifest, says the warnings of its settings
// and checks its provider can run here: bad input fails here, before any
// controller is involved or started (the controller would refuse it the same
// way). It returns the manifest's workspace.
func (o *applyOptions) check(ctx context.Context, streams Streams, manifest string) (string, error) {
	m, err := runfile.Load(manifest)
	if err != nil {
		return "", err
	}
	dir := filepath.Dir(manifest)
	d, err := spec.Resolve(m, dir)
	if err != nil {
		return "", err
	}
	// Unknown smile.json keys are ignored (E03), but said once, here; so
	// are settings that do not do what they say.
	warnings, _ := spec.ConfigWarnings(m.ConfigPath(dir))
	for _, w := range append(warnings, settingWarnings(d)...) {
		fmt.Fprintf(streams.ErrOut, "warning: %s\n", w)
	}
	// One controller per workspace (the git repository, else this folder).
	ws := spec.ProjectRoot(dir)
	// A provider that cannot run here fails now, before any container: the
	// key is this process's to check unless a controller already runs.
	_, noController := ctlclient.Find(ws)
	if err := doctor.Preflight(ctx, d.Config, providerFrom(m, dir, o.file), noController != nil); err != nil {
		return "", err
	}
	return ws, nil
}

// providerFrom says where a run's llmProvider is set, for an error about
// it: the manifest, its smile.json, or "" when nowhere (the default).
func providerFrom(m *spec.SmileRun, dir, manifest string) string {
	settings, err := m.Settings(dir)
	if err != nil {
		return ""
	}
	for _, s := range settings {
		switch {
		case s.Path != "llmProvider":
		case s.Source == spec.SourceManifest:
			return manifest
		case s.Source == spec.SourceConfig:
			return relToWD(m.ConfigPath(dir))
		}
	}
	return ""
}

// loopRunning is the error of an apply that finds the folder served by
// another `smile apply --wait`: that process runs the loop for the length of
// its own run and exits after it, so handing a manifest to it would start a
// second run nobody waits for.
func loopRunning(c *ctlclient.Client, dir string) error {
	return fmt.Errorf("%w: smile apply --wait (pid %d) is running the loop in %s; wait for it to finish",
		store.ErrLoopRunning, c.Info.PID, dir)
}

// stopIdle ends a controller this apply started for a manifest it then
// failed to apply, so a failed apply leaves nothing running. The controller
// has no run of its own yet: SIGTERM lets it release its locks.
func stopIdle(c *ctlclient.Client) {
	if p, err := os.FindProcess(c.Info.PID); err == nil {
		_ = p.Signal(syscall.SIGTERM)
	}
}

// raceWinner waits briefly for the controller that took the folder's lock
// first to publish itself (it takes the lock before it writes
// controller.json).
func raceWinner(ctx context.Context, dir string) (*ctlclient.Client, error) {
	var err error
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline) && ctx.Err() == nil; time.Sleep(50 * time.Millisecond) {
		var c *ctlclient.Client
		if c, err = ctlclient.Find(dir); err == nil {
			return c, nil
		}
	}
	return nil, err
}

// handOff applies through the folder's running controller and, with --wait,
// follows the run by polling its API.
func (o *applyOptions) handOff(ctx context.Context, streams Streams, c *ctlclient.Client, manifest string, threshold gate.Gate) error {
	res, err := applyDoc(ctx, c, manifest, "", o.parallel, o.force)
	if err != nil {
		return err
	}
	if !o.quiet { // a hook's output is its gaps alone
		fmt.Fprintf(streams.Out, "%s/%s %s\n", spec.Resource, res.Name, res.Outcome)
	}
	if !o.wait {
		return nil
	}
	prog := progress.New(streams.ErrOut)
	defer prog.Done()
	tick := time.NewTicker(300 * time.Millisecond)
	defer tick.Stop()
	for shown, seen := false, false; ; {
		// The step first, then the status: the status read after it shows
		// the attempt the step belongs to (progress lines follow its start).
		step := c.Progress(ctx, res.Name)
		run, err := c.Run(ctx, res.Name)
		if err != nil && !errors.Is(err, status.ErrNoStatusYet) { // not written yet: poll again
			if ctx.Err() != nil {
				return o.interrupted(streams, manifest, res.Name, c.Stopper(), c.Waiter(res.Name))
			}
			if errors.Is(err, status.ErrUnknownRun) {
				return fmt.Errorf("run %s was deleted while it was followed: %w", res.Name, err)
			}
			return err
		}
		if run != nil && run.Metadata.InputDigest == res.Digest {
			seen = true
		} else if run != nil && seen && run.Metadata.InputDigest != "" {
			// The tutorial was edited (or the run applied again) since: the
			// run now ends for the new inputs, and so does the wait.
			fmt.Fprintf(streams.ErrOut, "%s/%s: its inputs changed (generation %d); following them\n", spec.Resource, res.Name, run.Metadata.Generation)
			res.Digest = run.Metadata.InputDigest
		}
		if !shown && !reconcile.Finished(run, res.Digest) {
			// Only for a run still going: the address of a finished one
			// would outlive what it shows.
			fmt.Fprintf(streams.ErrOut, "dashboard: %s\n", c.RunDashboardURL(res.Name))
			shown = true
		}
		prog.Update(run, step)
		if reconcile.Finished(run, res.Digest) {
			prog.Done()
			printUnwritten(streams.Out, manifest, run)
			return o.finish(streams, manifest, run, threshold)
		}
		select {
		case <-ctx.Done():
			return o.interrupted(streams, manifest, res.Name, c.Stopper(), c.Waiter(res.Name))
		case <-tick.C:
		}
	}
}

// printUnwritten prints the report of a run whose files could not be
// written (a full disk): the controller printed it on its own standard
// output (E16), which is not this apply's.
func printUnwritten(w io.Writer, manifest string, run *status.Run) {
	if run.Status.Reason != status.ReasonUnwritable {
		return
	}
	if rep, _, err := reportOf(manifest, run); err == nil {
		_, _ = w.Write(report.RenderMarkdown(rep))
	}
}

// inProcess runs the controller in this process for the length of the
// apply: nothing is left running afterwards.
func (o *applyOptions) inProcess(ctx context.Context, streams Streams, dir, manifest, wrapper string, threshold gate.Gate) error {
	logFile, log, err := openLog(dir)
	if err != nil {
		return err
	}
	defer logFile.Close()
	rt, err := docker.New()
	if err != nil {
		return err
	}
	defer rt.Close()
	// The controller outlives a Ctrl-C long enough to stop the run cleanly.
	opts := reconcile.Options{Runtime: rt, WrapperPath: wrapper, Log: log, ReportFallback: streams.Out, Version: Version, Parallel: o.parallel}
	mgr, err := reconcile.StartController(context.WithoutCancel(ctx), opts, dir, true)
	if errors.Is(err, reconcile.ErrControllerRunning) {
		// Another apply became the folder's controller meanwhile: follow a
		// background controller; another apply --wait runs the loop itself.
		c, ferr := raceWinner(ctx, dir)
		if ferr != nil {
			return fmt.Errorf("%w: another smile serves %s", store.ErrLoopRunning, dir)
		}
		if c.Info.Foreground {
			return loopRunning(c, dir)
		}
		return o.handOff(ctx, streams, c, manifest, threshold)
	}
	if err != nil {
		return err
	}
	defer mgr.Close()
	sub := mgr.Hub().Subscribe()
	defer sub.Close()
	apply := mgr.Apply
	if o.force {
		apply = func(path string) (reconcile.ApplyResult, error) { return mgr.ApplyAgain(path, "") }
	}
	res, err := apply(manifest)
	if err != nil {
		return err
	}
	if !o.quiet { // a hook's output is its gaps alone
		fmt.Fprintf(streams.Out, "%s/%s %s\n", spec.Resource, res.Name, res.Outcome)
	}
	// The dashboard is served by this process, while the run goes: its
	// address is printed only then, and taken back when the apply ends.
	if prev, err := mgr.Run(res.Name); err != nil || !reconcile.Finished(prev, res.Digest) {
		// The token logs the browser in (a cookie) and leaves its address bar.
		fmt.Fprintf(streams.ErrOut, "dashboard: http://%s/run?name=%s&%s=%s (served until this apply ends)\n", mgr.APIAddr(), url.QueryEscape(res.Name), server.TokenParam, url.QueryEscape(mgr.DashboardLogin()))
		defer fmt.Fprintln(streams.ErrOut, "dashboard: closed")
	}
	prog := progress.New(streams.ErrOut)
	printed := progress.Follow(sub, res.Name, prog)
	run, err := mgr.WaitFinished(ctx, res.Name, res.Digest)
	printed() // every event printed before what comes after them
	sub.Close()
	prog.Done()
	if err != nil {
		if errors.Is(err, context.Canceled) {
			stopRun := func(ctx context.Context, name, reason string) error { return mgr.RequestStop(name, reason) }
			waitRun := func(ctx context.Context) (*status.Run, error) { return mgr.WaitFinished(ctx, res.Name, "") }
			return o.interrupted(streams, manifest, res.Name, stopRun, waitRun)
		}
		return err
	}
	return o.finish(streams, manifest, run, threshold)
}

// finish prints what the run found, writes the extra formats asked for, and
// turns the result into the exit code.
func (o *applyOptions) finish(streams Streams, manifest string, run *status.Run, threshold gate.Gate) error {
	counted, accepted, err := countedGaps(manifest, run)
	if err != nil {
		return err
	}
	if o.quiet {
		shown := *run // a hook lists the gaps that fail the commit: not the accepted ones, nor environment notes unless --fail-on names them
		shown.Status.Gaps = nil
		for _, g := range counted {
			if g.Category != status.CategoryEnvironment || threshold.Environment {
				shown.Status.Gaps = append(shown.Status.Gaps, g)
			}
		}
		printGapLines(streams.Out, manifest, &shown)
	} else {
		printResult(streams.Out, run)
		if accepted > 0 {
			fmt.Fprintf(streams.Out, "baseline: %d gap(s) accepted in %s, %d counted\n", accepted, baselineFile, len(counted))
		}
	}
	if o.formats != "" {
		formats, _ := report.ParseFormats(o.formats)
		rep, dir, err := reportOf(manifest, run)
		if err == nil {
			err = writeFormats(streams, dir, rep, formats)
		}
		if err != nil {
			return err
		}
	}
	return exitByResult(run, threshold, counted)
}

// interruptGrace bounds how long a Ctrl-C waits for the run to stop.
const interruptGrace = 30 * time.Second

// interrupted ends apply --wait after a Ctrl-C. With --detach the run is left
// as it is (still going in a background controller, or resumable by applying
// it again); otherwise it is stopped (phase Stopped, containers removed,
// report written) and apply says how to run it again.
func (o *applyOptions) interrupted(streams Streams, manifest, name string,
	stop func(ctx context.Context, name, reason string) error, wait func(ctx context.Context) (*status.Run, error)) error {
	again := fmt.Sprintf("smile apply -f %s --wait", o.file)
	if o.detach {
		return &exitError{code: ExitError, err: fmt.Errorf("interrupted: run %s goes on (detached); `%s` follows it again", name, again)}
	}
	ctx, cancel := context.WithTimeout(context.Background(), interruptGrace)
	defer cancel()
	fmt.Fprintf(streams.ErrOut, "interrupted: stopping run %s...\n", name)
	if err := stop(ctx, name, "interrupted by the user (Ctrl-C in apply --wait)"); err != nil {
		return &exitError{code: ExitError, err: fmt.Errorf("interrupted: could not stop run %s: %w", name, err)}
	}
	if _, err := wait(ctx); err != nil {
		return &exitError{code: ExitError, err: fmt.Errorf("interrupted: run %s did not stop within %s: %w", name, interruptGrace, err)}
	}
	return &exitError{code: ExitError, err: fmt.Errorf("interrupted: run %s stopped and its containers removed; `%s` runs it again", name, again)}
}

// exitByResult: 1 when SMILE could not run the loop, 3 when the run was
// inconclusive (it exercised less of the page than minCoverage, whatever
// gaps it found), 2 when the tutorial has gaps at or above the threshold or
// the loop did not complete.
// counted are the gaps the workspace's baseline does not accept; a run
// that did not complete counts as gaps unless the baseline accepts all of
// them (the team has accepted where it stops).
func exitByResult(run *status.Run, threshold gate.Gate, counted []status.Gap) error {
	st := run.Status
	// A spent budget ended the loop on purpose: not a failure to run (a stop
	// has a phase of its own).
	if st.Phase == status.PhaseError && st.Reason != status.ReasonBudgetExceeded {
		return &exitError{code: ExitError, err: fmt.Errorf("run %s failed: %s", run.Metadata.Name, st.Message)}
	}
	if threshold.Off() {
		return nil
	}
	if st.Phase == status.PhaseInconclusive {
		return &exitError{code: ExitInconclusive}
	}
	if st.Phase != status.PhaseCompleted && (len(counted) > 0 || len(st.Gaps) == 0) {
		return &exitError{code: ExitGaps}
	}
	for _, g := range counted {
		if threshold.Fails(g) {
			return &exitError{code: ExitGaps}
		}
	}
	return nil
}

// baselineFile names the baseline where apply says what it accepted.
const baselineFile = "smile-baseline.json"

// printResult prints what the run found and where the report is.
func printResult(w io.Writer, run *status.Run) {
	st := run.Status
	counts := map[status.Severity]int{}
	env := 0
	for _, g := range st.Gaps {
		if g.Category == status.CategoryEnvironment {
			env++ // a note about the container, not a gap of the tutorial
			continue
		}
		counts[g.Severity]++
	}
	notes := ""
	if env > 0 {
		notes = ", " + status.Plural(env, "environment note")
	}
	fmt.Fprintf(w, "smilerun.smile.dev/%s %s after %d iteration(s): %d gap(s) (critical %d, major %d, minor %d)%s\n",
		run.Metadata.Name, st.Phase.LoopStatus(), st.Iteration, len(st.Gaps)-env,
		counts[status.SeverityCritical], counts[status.SeverityMajor], counts[status.SeverityMinor], notes)
	for _, g := range st.Gaps {
		fmt.Fprintf(w, "  line %d [%s/%s] %s\n", g.Location.LineNumber, g.Severity, g.Category, g.Title)
	}
	if st.Reason == status.ReasonInvalidSpec || (st.Phase != status.PhaseCompleted && st.Message != "") {
		fmt.Fprintf(w, "reason: %s\n", st.Message) // an Inconclusive run's says its coverage
	} else if c := st.RunCoverage(); c != nil {
		fmt.Fprintf(w, "coverage: %s\n", c.Sentence())
	}
	if st.Report != nil && st.Report.Markdown != "" {
		fmt.Fprintf(w, "report: %s\n", st.Report.Markdown)
	}
}

// openLog sends the controller's log to .smile/smile.log in the workspace,
// keeping the terminal for progress.
func openLog(dir string) (*os.File, logr.Logger, error) {
	path := filepath.Join(dir, store.HomeDir, "smile.log")
	if err := store.EnsureHome(dir); err != nil {
		return nil, logr.Discard(), err
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, logr.Discard(), fmt.Errorf("open log %s: %w", path, err)
	}
	h := slog.NewTextHandler(f, &slog.HandlerOptions{Level: slog.Level(-1)})
	return f, logr.FromSlogHandler(h), nil
}

// printGapLines prints a run's result the way linters do (golangci-lint,
// ruff): one `path:line: [severity/category] problem` line per gap, the path
// relative to the current folder; a loop that did not complete adds one line
// saying why. Nothing else.
func printGapLines(w io.Writer, manifest string, run *status.Run) {
	path := manifest
	if m, err := runfile.LoadNamed(manifest, run.Metadata.Name); err == nil {
		if d, err := spec.Resolve(m, filepath.Dir(manifest)); err == nil {
			path = d.Paths.Tutorial
		}
	}
	if wd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(wd, path); err == nil && !strings.HasPrefix(rel, "..") {
			path = rel
		}
	}
	st := run.Status
	for _, g := range st.Gaps {
		fmt.Fprintf(w, "%s:%d: [%s/%s] %s\n", path, g.Location.LineNumber, g.Severity, g.Category, oneLine(g.Problem))
		if g.SuggestedFix != "" {
			fmt.Fprintf(w, "    fix: %s\n", oneLine(g.SuggestedFix)) // what to change, under the line an editor jumps to
		}
	}
	printEnd(w, path, st)
}

// printEnd says, after its gap lines, why a run that did not complete
// ended: an inconclusive run's coverage, or why the loop stopped.
func printEnd(w io.Writer, path string, st status.Status) {
	switch st.Phase {
	case status.PhaseCompleted:
	case status.PhaseInconclusive:
		fmt.Fprintf(w, "%s: [%s] %s\n", path, st.Phase.LoopStatus(), oneLine(st.Message))
	default:
		fmt.Fprintf(w, "%s: [%s] the loop ended without completing: %s\n", path, st.Phase.LoopStatus(), oneLine(st.Message))
	}
}

// oneLine joins a text's lines, so one finding stays one output line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
