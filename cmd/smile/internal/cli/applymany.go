package cli

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/smile-loop/smile/cmd/smile/internal/gate"

	"github.com/smile-loop/smile/cmd/smile/internal/applyset"
	"github.com/smile-loop/smile/cmd/smile/internal/ctlclient"
	"github.com/smile-loop/smile/cmd/smile/internal/doctor"
	"github.com/smile-loop/smile/cmd/smile/internal/progress"
	"github.com/smile-loop/smile/reconcile"
	"github.com/smile-loop/smile/reconcile/server"
	"github.com/smile-loop/smile/reconcile/wrapperbin"
	"github.com/smile-loop/smile/runtime/docker"
	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/status"
	"github.com/smile-loop/smile/status/store"
)

// runHost is where runs are applied and followed: a background controller
// through its API, or a controller in this process.
type runHost interface {
	apply(ctx context.Context, t applyset.Target) (reconcile.ApplyResult, error)
	status(ctx context.Context, name string) (*status.Run, error)
	step(ctx context.Context, name string) string
	stop(ctx context.Context, t applyset.Target, reason string) error
	dashboard() string
	// close ends a controller this apply started in its own process.
	close()
}

// clientHost is a background controller.
type clientHost struct {
	c        *ctlclient.Client
	parallel int
	force    bool
}

func (h *clientHost) apply(ctx context.Context, t applyset.Target) (reconcile.ApplyResult, error) {
	return applyDoc(ctx, h.c, t.Path, t.Doc, h.parallel, h.force)
}

func (h *clientHost) status(ctx context.Context, name string) (*status.Run, error) {
	return h.c.Run(ctx, name)
}

func (h *clientHost) step(ctx context.Context, name string) string { return h.c.Progress(ctx, name) }

func (h *clientHost) stop(ctx context.Context, t applyset.Target, reason string) error {
	return h.c.Stopper()(ctx, t.Name(), reason)
}

func (h *clientHost) dashboard() string { return h.c.DashboardURL() }
func (h *clientHost) close()            {}

// applyDoc applies one SmileRun of a file through the controller, and sets
// its limit of active runs when parallel is above 0; force runs an unchanged
// run that has ended again.
func applyDoc(ctx context.Context, c *ctlclient.Client, manifest, name string, parallel int, force bool) (reconcile.ApplyResult, error) {
	var res reconcile.ApplyResult
	req := server.ApplyRequest{Manifest: manifest, Name: name, Parallel: parallel, Force: force}
	err := c.Call(ctx, http.MethodPost, server.PathApply, c.Info.Token, req, &res)
	return res, err
}

// managerHost is a controller in this process, for the length of the apply.
type managerHost struct {
	ctl   *reconcile.Controller
	force bool
	done  func()
	mu    sync.Mutex
	steps map[string]string
}

func newManagerHost(ctl *reconcile.Controller, done func()) *managerHost {
	h := &managerHost{ctl: ctl, done: done, steps: map[string]string{}}
	sub := ctl.Hub().Subscribe()
	go func() {
		for ev := range sub.C {
			if ev.Progress != nil {
				h.mu.Lock()
				h.steps[ev.Run.Metadata.Name] = ev.Progress.Step
				h.mu.Unlock()
			}
		}
	}()
	prev := h.done
	h.done = func() { sub.Close(); prev() }
	return h
}

func (h *managerHost) apply(_ context.Context, t applyset.Target) (reconcile.ApplyResult, error) {
	if h.force {
		return h.ctl.ApplyAgain(t.Path, t.Doc)
	}
	return h.ctl.ApplyDoc(t.Path, t.Doc)
}

func (h *managerHost) status(_ context.Context, name string) (*status.Run, error) {
	run, err := h.ctl.Run(name)
	if errors.Is(err, store.ErrNotFound) {
		return nil, status.ErrNoStatusYet // not written yet, as the API says
	}
	return run, err
}

func (h *managerHost) step(_ context.Context, name string) string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.steps[name]
}

func (h *managerHost) stop(_ context.Context, t applyset.Target, reason string) error {
	return h.ctl.RequestStop(t.Name(), reason)
}

func (h *managerHost) dashboard() string {
	return fmt.Sprintf("http://%s/?%s=%s", h.ctl.APIAddr(), server.TokenParam, url.QueryEscape(h.ctl.DashboardLogin()))
}

func (h *managerHost) close() { h.done() }

// controllerDir is the workspace whose controller serves a manifest (the
// git repository, else the manifest's folder).
func controllerDir(t applyset.Target) string { return spec.ProjectRoot(t.Dir()) }

// hostFor finds or starts the controller serving dir: a background one
// (started when none runs and apply does not wait), else one in this
// process (apply --wait with none running: nothing is left behind).
func (o *applyOptions) hostFor(ctx context.Context, dir, wrapper string) (runHost, error) {
	if c, err := ctlclient.Find(dir); err == nil {
		if c.Info.Foreground {
			return nil, loopRunning(c, dir)
		}
		return &clientHost{c: c, parallel: o.parallel, force: o.force}, nil
	}
	if !o.wait {
		c, err := ctlclient.Start(ctx, dir, wrapper)
		if err != nil {
			return nil, err
		}
		return &clientHost{c: c, parallel: o.parallel, force: o.force}, nil
	}
	logFile, log, err := openLog(dir)
	if err != nil {
		return nil, err
	}
	rt, err := docker.New()
	if err != nil {
		logFile.Close()
		return nil, err
	}
	opts := reconcile.Options{Runtime: rt, WrapperPath: wrapper, Log: log, ReportFallback: o.streamsOut, Version: Version, Parallel: o.parallel}
	ctl, err := reconcile.StartController(context.WithoutCancel(ctx), opts, dir, true)
	if errors.Is(err, reconcile.ErrControllerRunning) {
		rt.Close()
		logFile.Close()
		c, ferr := raceWinner(ctx, dir)
		if ferr != nil {
			return nil, fmt.Errorf("%w: another smile serves %s", store.ErrLoopRunning, dir)
		}
		if c.Info.Foreground {
			return nil, loopRunning(c, dir)
		}
		return &clientHost{c: c, parallel: o.parallel, force: o.force}, nil
	}
	if err != nil {
		rt.Close()
		logFile.Close()
		return nil, err
	}
	h := newManagerHost(ctl, func() { ctl.Close(); rt.Close(); logFile.Close() })
	h.force = o.force
	return h, nil
}

// applied is a run apply handed to a controller, and what became of it.
type applied struct {
	t      applyset.Target
	host   runHost
	res    reconcile.ApplyResult
	run    *status.Run
	failed error // the apply itself failed
	done   bool
}

// runMany applies several SmileRuns (apply -f on folders, several files,
// multi-document YAML or stdin) and, with --wait, follows them all with one
// progress display, prints a table of the results, writes one file per
// format for all of them and exits by the worst result.
func (o *applyOptions) runMany(ctx context.Context, streams Streams, targets []applyset.Target, threshold gate.Gate) error {
	o.streamsOut = streams.Out
	var ignored []string
	checked := map[string]bool{} // one check per provider and image
	for _, t := range targets {
		d, err := t.Resolve()
		if err != nil {
			return err
		}
		ignored = append(ignored, settingWarnings(d)...)
		if key := string(d.Config.LLMProvider) + " " + d.Config.ContainerImage; !checked[key] {
			checked[key] = true
			_, noController := ctlclient.Find(controllerDir(t))
			if err := doctor.Preflight(ctx, d.Config, providerFrom(t.Run, t.Dir(), relToWD(t.Path)), noController != nil); err != nil {
				return fmt.Errorf("%s: %w", relToWD(t.Path), err)
			}
		}
	}
	warnConfigs(streams, targets)
	for _, w := range ignored {
		fmt.Fprintf(streams.ErrOut, "warning: %s\n", w)
	}
	wrapper, err := wrapperbin.Find(o.wrapper)
	if err != nil {
		return err
	}
	hosts := map[string]runHost{}
	defer func() {
		for _, h := range hosts {
			h.close()
		}
	}()
	var runs []*applied
	for _, t := range targets {
		dir := controllerDir(t)
		h, ok := hosts[dir]
		if !ok {
			if h, err = o.hostFor(ctx, dir, wrapper); err != nil {
				return err
			}
			hosts[dir] = h
			if o.wait {
				fmt.Fprintf(streams.ErrOut, "dashboard: %s\n", h.dashboard())
			}
		}
		a := &applied{t: t, host: h}
		a.res, a.failed = h.apply(ctx, t)
		if a.failed != nil {
			fmt.Fprintf(streams.ErrOut, "error: %v\n", a.failed)
			a.done = true
		} else {
			fmt.Fprintf(streams.Out, "%s/%s %s\n", spec.Resource, a.res.Name, a.res.Outcome)
		}
		runs = append(runs, a)
	}
	if !o.wait {
		return applyErrors(runs)
	}
	if err := o.follow(ctx, streams, runs); err != nil {
		return err
	}
	return o.finishMany(streams, runs, threshold)
}

// settingWarnings are the run's settings that do not do what they say
// (spec.Config.Warnings), each with the run's name.
func settingWarnings(d *spec.Desired) []string {
	var out []string
	for _, w := range d.Config.Warnings() {
		out = append(out, fmt.Sprintf("smilerun %s: %s", d.Name, w))
	}
	return out
}

// warnConfigs says each smile.json's unknown keys once.
func warnConfigs(streams Streams, targets []applyset.Target) {
	seen := map[string]bool{}
	for _, t := range targets {
		p := t.Run.ConfigPath(t.Dir())
		if seen[p] {
			continue
		}
		seen[p] = true
		warnings, _ := spec.ConfigWarnings(p)
		for _, w := range warnings {
			fmt.Fprintf(streams.ErrOut, "warning: %s\n", w)
		}
	}
}

// applyErrors is the error of runs that could not be applied (exit 1).
func applyErrors(runs []*applied) error {
	var names []string
	for _, a := range runs {
		if a.failed != nil {
			names = append(names, a.t.Name())
		}
	}
	if len(names) == 0 {
		return nil
	}
	return &exitError{code: ExitError, err: fmt.Errorf("%s could not be applied", status.Plural(len(names), "run")+" ("+strings.Join(names, ", ")+")")}
}

// follow polls every run until each has finished for the inputs applied,
// showing their progress in one display. Ctrl-C stops them all (unless
// --detach).
func (o *applyOptions) follow(ctx context.Context, streams Streams, runs []*applied) error {
	prog := progress.NewMulti(streams.ErrOut, len(runs) > 1)
	defer prog.Done()
	tick := time.NewTicker(300 * time.Millisecond)
	defer tick.Stop()
	for {
		left := 0
		for _, a := range runs {
			if a.done {
				continue
			}
			run, err := a.host.status(ctx, a.res.Name)
			if err != nil && !errors.Is(err, status.ErrNoStatusYet) {
				if ctx.Err() != nil {
					break
				}
				return err
			}
			if err == nil {
				prog.Update(run, a.host.step(ctx, a.res.Name))
				if reconcile.Finished(run, a.res.Digest) {
					a.run, a.done = run, true
					continue
				}
			}
			left++
		}
		if left == 0 {
			return nil
		}
		select {
		case <-ctx.Done():
			prog.Done()
			return o.interruptMany(streams, runs)
		case <-tick.C:
		}
	}
}

// interruptMany ends apply --wait on several runs after a Ctrl-C: each run
// not finished is stopped (unless --detach), as interrupted does for one.
func (o *applyOptions) interruptMany(streams Streams, runs []*applied) error {
	again := "smile apply " + o.filesArgs() + " --wait"
	if o.detach {
		return &exitError{code: ExitError, err: fmt.Errorf("interrupted: the runs go on (detached); `%s` follows them again", again)}
	}
	ctx, cancel := context.WithTimeout(context.Background(), interruptGrace)
	defer cancel()
	var errs []error
	for _, a := range runs {
		if a.done {
			continue
		}
		fmt.Fprintf(streams.ErrOut, "interrupted: stopping run %s...\n", a.t.Name())
		if err := a.host.stop(ctx, a.t, "interrupted by the user (Ctrl-C in apply --wait)"); err != nil {
			errs = append(errs, fmt.Errorf("could not stop run %s: %w", a.t.Name(), err))
		}
	}
	for _, a := range runs {
		for !a.done && ctx.Err() == nil {
			if run, err := a.host.status(ctx, a.t.Name()); err == nil && run.Status.Phase.Terminal() && run.Status.Report != nil {
				a.done = true
				break
			}
			time.Sleep(200 * time.Millisecond)
		}
		if !a.done {
			errs = append(errs, fmt.Errorf("run %s did not stop within %s", a.t.Name(), interruptGrace))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return &exitError{code: ExitError, err: fmt.Errorf("interrupted: %w", err)}
	}
	return &exitError{code: ExitError, err: fmt.Errorf("interrupted: the runs stopped and their containers removed; `%s` runs them again", again)}
}

// filesArgs are the -f flags as given, for a command to run again.
func (o *applyOptions) filesArgs() string {
	var b strings.Builder
	for i, f := range o.files {
		if i > 0 {
			b.WriteString(" ")
		}
		b.WriteString("-f " + f)
	}
	if o.recursive {
		b.WriteString(" -R")
	}
	return b.String()
}

// relToWD is p relative to the current folder when inside it.
func relToWD(p string) string {
	if wd, err := filepath.Abs("."); err == nil {
		if rel, err := filepath.Rel(wd, p); err == nil && !strings.HasPrefix(rel, "..") {
			return rel
		}
	}
	return p
}
