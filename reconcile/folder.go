package reconcile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/smile-loop/smile/status/store"
)

// ErrControllerRunning means another live controller serves the folder.
var ErrControllerRunning = errors.New("a controller is already running for this folder")

// ServeFolder makes a started Manager the controller of a folder: it takes the
// folder's controller lock (one controller per folder) and publishes where
// its API is in .smile/controller.json. release undoes both.
func (m *Manager) ServeFolder(dir, version string, foreground bool) (release func(), err error) {
	dir, err = filepath.Abs(dir)
	if err != nil {
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
