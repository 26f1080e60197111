// Command smile-controller is SMILE's controller for one folder: it runs the
// reconcile workers, watches the applied manifests and the files they point
// at, and serves the API the CLI and the containers call. `smile apply`
// starts it in the background when none runs.
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/go-logr/logr"

	"github.com/smile-loop/smile/reconcile"
	"github.com/smile-loop/smile/reconcile/wrapperbin"
	"github.com/smile-loop/smile/runtime/docker"
	"github.com/smile-loop/smile/spec"
)

var version = "dev"

func main() {
	if err := run(); err != nil {
		fmt.Fprintf(os.Stderr, "error: %v\n", err)
		os.Exit(1)
	}
}

func run() error {
	dir := flag.String("dir", ".", "a folder inside the workspace (the git repository, else where runs were applied) whose runs this controller serves")
	apiAddr := flag.String("api-addr", "127.0.0.1:0", "loopback address of the API for the CLI and observers")
	wrapper := flag.String("wrapper", "", "the smile-wrapper binary (default: beside this binary, or $SMILE_WRAPPER)")
	verbosity := flag.Int("v", 0, "log verbosity")
	idle := flag.Duration("idle-timeout", defaultIdle(), "exit after this long with no active run and no observer (0: never; default from $SMILE_CONTROLLER_IDLE_TIMEOUT, else 30m)")
	flag.Parse()
	*dir = spec.FindWorkspace(*dir)

	log := logr.FromSlogHandler(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.Level(-*verbosity)}))
	wrapperPath, err := wrapperbin.Find(*wrapper)
	if err != nil {
		return err
	}
	rt, err := docker.New()
	if err != nil {
		return err
	}
	defer rt.Close()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	opts := reconcile.Options{Runtime: rt, WrapperPath: wrapperPath, Log: log, APIAddr: *apiAddr, Version: version}
	mgr, err := reconcile.StartController(ctx, opts, *dir, false)
	if err != nil {
		return err
	}
	if err := mgr.ApplyRecorded(*dir); err != nil {
		log.Error(err, "Could not read the applied runs")
	}
	log.Info("Controller ready", "dir", *dir, "api", mgr.APIAddr(), "idleTimeout", idle.String())
	go mgr.ExitWhenIdle(ctx, *idle, idlePoll(*idle), stop)
	<-ctx.Done()
	log.Info("Shutting down")
	mgr.Close()
	return nil
}

// defaultIdle is the idle timeout when no flag gives one:
// $SMILE_CONTROLLER_IDLE_TIMEOUT (a Go duration such as 10m), else 30m.
func defaultIdle() time.Duration {
	if v := os.Getenv("SMILE_CONTROLLER_IDLE_TIMEOUT"); v != "" {
		if d, err := time.ParseDuration(v); err == nil && d >= 0 {
			return d
		}
		fmt.Fprintf(os.Stderr, "warning: SMILE_CONTROLLER_IDLE_TIMEOUT=%q is not a duration such as 10m; using 30m\n", v)
	}
	return 30 * time.Minute
}

// idlePoll checks often enough for a short timeout to be honoured closely.
func idlePoll(idle time.Duration) time.Duration {
	return min(max(idle/10, 100*time.Millisecond), 5*time.Second)
}
