package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// ControllerInfo is what a running controller publishes about itself in
// .smile/controller.json, so the CLI can find it.
type ControllerInfo struct {
	PID          int       `json:"pid"`
	Instance     string    `json:"instance"`
	Dir          string    `json:"dir"`
	APIAddr      string    `json:"apiAddr"`
	CallbackAddr string    `json:"callbackAddr"`
	StartedAt    time.Time `json:"startedAt"`
	Version      string    `json:"version,omitempty"`
	// Token authenticates control calls (apply, delete). The file is 0600.
	Token string `json:"token"`
	// Foreground is true for a controller that `smile apply --wait` runs for
	// the length of one apply.
	Foreground bool `json:"foreground,omitempty"`
}

// ControllerInfoPath is where a workspace's controller publishes itself.
func ControllerInfoPath(dir string) string {
	return filepath.Join(dir, HomeDir, "controller.json")
}

// ControllerLockPath is the lock that makes one controller per workspace.
func ControllerLockPath(dir string) string {
	return filepath.Join(dir, HomeDir, "controller")
}

// WriteControllerInfo publishes a controller's info atomically.
func WriteControllerInfo(dir string, info ControllerInfo) error {
	data, err := json.MarshalIndent(info, "", "  ")
	if err != nil {
		return err
	}
	return WriteFileAtomic(ControllerInfoPath(dir), append(data, '\n'), 0o600)
}

// ErrNoController means no live controller serves the workspace.
var ErrNoController = errors.New("no controller running")

// ReadControllerInfo returns the workspace's controller if its process is alive
// and holds the workspace's controller lock (a stale file from a killed
// controller is ignored).
func ReadControllerInfo(dir string) (ControllerInfo, error) {
	var info ControllerInfo
	data, err := os.ReadFile(ControllerInfoPath(dir))
	if errors.Is(err, fs.ErrNotExist) {
		return info, ErrNoController
	}
	if err != nil {
		return info, err
	}
	if err := json.Unmarshal(data, &info); err != nil {
		return info, fmt.Errorf("read %s: %w", ControllerInfoPath(dir), err)
	}
	if info.PID <= 0 || syscall.Kill(info.PID, 0) != nil || !Held(ControllerLockPath(dir)) {
		return info, ErrNoController
	}
	// The lock names its holder: a file left by a controller that died
	// while another took over is not the live one.
	holder, err := os.ReadFile(LockPath(ControllerLockPath(dir)))
	if err != nil || strings.TrimSpace(string(holder)) != strconv.Itoa(info.PID) {
		return info, ErrNoController
	}
	return info, nil
}
