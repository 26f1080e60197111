package reconcile

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/smile-loop/smile/reconcile/checkpoints"
	"github.com/smile-loop/smile/status/store"
)

// ErrControllerRunning means another live controller serves the workspace.
var ErrControllerRunning = errors.New("a controller is already running for this workspace")

// ServeFolder makes a started Manager the controller of a workspace (the
// folder holding .git, spec.FindWorkspace): it takes the workspace's
// controller lock (one controller per workspace) and publishes where its API
// is in .smile/controller.json. release undoes both.
func (m *Manager) ServeFolder(dir, version string, foreground bool) (release func(), err error) {
	dir, err = filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if err := store.EnsureHome(dir); err != nil {
		return nil, err
	}
	lock, err := store.Acquire(store.ControllerLockPath(dir))
	if errors.Is(err, store.ErrLoopRunning) {
		return nil, fmt.Errorf("%w (%s)", ErrControllerRunning, dir)
	}
	if err != nil {
		return nil, err
	}
	store.RemoveStaleTemps(store.ControllerInfoPath(dir)) // ours alone now
	info := store.ControllerInfo{
		PID: os.Getpid(), Instance: m.opts.Instance, Dir: dir,
		APIAddr: m.APIAddr(), CallbackAddr: m.CallbackAddr(),
		StartedAt: time.Now().UTC(), Version: version, Token: m.opts.ControlToken, Foreground: foreground,
	}
	if err := store.WriteControllerInfo(dir, info); err != nil {
		lock.Release()
		return nil, err
	}
	return func() {
		_ = os.Remove(store.ControllerInfoPath(dir))
		lock.Release()
	}, nil
}

// Controller is a Manager started as the controller of one workspace.
type Controller struct {
	*Manager
	cancel  context.CancelFunc
	release func()
}

// StartController is the one start-up path of a workspace's controller, for the
// background smile-controller and for the in-process path of `smile apply
// --wait` (foreground): a Manager on opts.Runtime with its listeners open,
// holding the workspace's controller lock and published in
// .smile/controller.json. It fails with ErrControllerRunning when another
// controller serves the workspace. ctx ends its workers; Close stops it.
func StartController(ctx context.Context, opts Options, dir string, foreground bool) (*Controller, error) {
	ctx, cancel := context.WithCancel(ctx)
	m := NewManager(opts)
	if err := m.Start(ctx); err != nil {
		cancel()
		m.Wait()
		return nil, err
	}
	release, err := m.ServeFolder(dir, opts.Version, foreground)
	if err != nil {
		cancel()
		m.Wait()
		return nil, err
	}
	// Snapshots of deleted folders, engine-wide: in the background, as
	// removing images takes a while; Close waits for it to end.
	m.wg.Add(1)
	go func() {
		defer m.wg.Done()
		checkpoints.SweepAtStart(context.WithoutCancel(ctx), opts.Runtime, m.log)
	}()
	return &Controller{Manager: m, cancel: cancel, release: release}, nil
}

// Close stops the workers and listeners and waits for them, then gives the
// workspace up: no other controller takes it while this one still runs a loop.
func (c *Controller) Close() {
	c.cancel()
	c.Wait()
	c.release()
}
