// Package ctlclient talks to the controller that serves a workspace (the
// background `smile-controller` apply hands a run to): finding it, starting
// it, and the calls of its API the CLI makes (run, progress, stop, delete).
package ctlclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/smile-loop/smile/status/store"

	"github.com/smile-loop/smile/status/wire"

	"github.com/smile-loop/smile/reconcile/server"
	"github.com/smile-loop/smile/status"
)

// Client talks to the controller serving a workspace.
type Client struct {
	// Info is what the controller published about itself (address, token,
	// PID, whether it runs in the foreground).
	Info store.ControllerInfo
	// HTTP makes the calls.
	HTTP *http.Client
}

func Find(dir string) (*Client, error) {
	info, err := store.ReadControllerInfo(dir)
	if err != nil {
		return nil, err
	}
	c := &Client{Info: info, HTTP: &http.Client{Timeout: 30 * time.Second}}
	if c.Alive() {
		return c, nil
	}
	// A controller that is being killed holds its lock a moment longer than
	// it answers: wait for the lock, so the caller can start a new one.
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if !store.Held(store.ControllerLockPath(dir)) {
			break
		}
	}
	return nil, store.ErrNoController
}

// alive reports whether the controller answers at all.
func (c *Client) Alive() bool {
	client := &http.Client{Timeout: 2 * time.Second}
	req, err := http.NewRequest(http.MethodGet, "http://"+c.Info.APIAddr+wire.PathStatus, nil)
	if err != nil {
		return false
	}
	req.Header.Set("Authorization", "Bearer "+c.Info.Token)
	resp, err := client.Do(req)
	if err != nil {
		return false
	}
	resp.Body.Close()
	return true
}

// DashboardURL is where the controller serves its dashboard (the index of
// the workspace's runs), with a
// one-time token that logs a browser in (it then drops it from the address
// bar). Without one, the bare address: the dashboard then answers 401.
func (c *Client) DashboardURL() string { return c.dashboardURL("/") }

// RunDashboardURL is the address of one run's page on the dashboard, with a
// one-time token as DashboardURL's.
func (c *Client) RunDashboardURL(name string) string {
	return c.dashboardURL("/run?name=" + url.QueryEscape(name))
}

func (c *Client) dashboardURL(path string) string {
	base := "http://" + c.Info.APIAddr + path
	var res server.DashboardLoginResponse
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := c.Call(ctx, http.MethodPost, server.PathDashboardLogin, c.Info.Token, struct{}{}, &res); err != nil || res.Token == "" {
		return base
	}
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	return base + sep + server.TokenParam + "=" + url.QueryEscape(res.Token)
}

func (c *Client) Call(ctx context.Context, method, path, token string, in, out any) error {
	var body bytes.Buffer
	if in != nil {
		if err := json.NewEncoder(&body).Encode(in); err != nil {
			return err
		}
	}
	req, err := http.NewRequestWithContext(ctx, method, "http://"+c.Info.APIAddr+path, &body)
	if err != nil {
		return err
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return fmt.Errorf("call the controller (pid %d): %w", c.Info.PID, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		var e wire.ErrorResponse
		_ = json.NewDecoder(resp.Body).Decode(&e)
		if e.Error == "" {
			e.Error = resp.Status
		}
		return &APIError{code: resp.StatusCode, msg: e.Error, reason: e.Reason}
	}
	if out != nil {
		return json.NewDecoder(resp.Body).Decode(out)
	}
	return nil
}

// APIError is the controller's answer to a call it refused.
type APIError struct {
	code   int
	msg    string
	reason status.Reason
}

func (e *APIError) Error() string { return e.msg }

// Is maps the controller's answer back to the sentinel it was made from: a
// 404 is an unknown run, reason NoStatusYet a status not written yet.
func (e *APIError) Is(target error) bool {
	switch target {
	case status.ErrUnknownRun:
		return e.code == http.StatusNotFound
	case status.ErrNoStatusYet:
		return e.reason == status.ReasonNoStatusYet
	}
	return false
}

func (c *Client) Delete(ctx context.Context, name string) error {
	return c.Call(ctx, http.MethodPost, server.PathDelete, c.Info.Token, server.DeleteRequest{Name: name}, nil)
}

func (c *Client) Stop(ctx context.Context, runToken, name, reason string) (wire.StopResponse, error) {
	var res wire.StopResponse
	err := c.Call(ctx, http.MethodPost, wire.PathStop+"?name="+url.QueryEscape(name), runToken, wire.StopRequest{Reason: reason}, &res)
	return res, err
}

// run returns a run's status as the controller last wrote it.
func (c *Client) Run(ctx context.Context, name string) (*status.Run, error) {
	var run status.Run
	err := c.Call(ctx, http.MethodGet, wire.PathStatus+"?view=run&name="+url.QueryEscape(name), c.Info.Token, nil, &run)
	return &run, err
}

// Start starts `smile-controller --dir WORKSPACE` in the
// background, its log in the workspace's .smile/controller.log, and waits
// until it serves the workspace.
func Start(ctx context.Context, dir, wrapper string) (*Client, error) {
	bin, err := siblingBinary("smile-controller")
	if err != nil {
		return nil, err
	}
	logPath := filepath.Join(dir, store.HomeDir, "controller.log")
	if err := store.EnsureHome(dir); err != nil {
		return nil, err
	}
	logFile, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	defer logFile.Close()
	// The log is appended to: what this controller writes starts here.
	start, err := logFile.Seek(0, io.SeekEnd)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, "--dir", dir, "--wrapper", wrapper)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true} // outlives this terminal
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", bin, err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	deadline := time.NewTimer(20 * time.Second)
	defer deadline.Stop()
	for {
		if c, err := Find(dir); err == nil {
			return c, nil
		}
		select {
		case err := <-exited:
			return nil, exitedError(err, logPath, start)
		case <-deadline.C:
			return nil, fmt.Errorf("the controller did not start within 20s: see %s", logPath)
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// siblingBinary finds a SMILE binary beside this one, else on PATH.
func siblingBinary(name string) (string, error) {
	if exe, err := os.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(exe), name)
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	p, err := exec.LookPath(name)
	if err != nil {
		return "", fmt.Errorf("%s not found beside smile or on PATH: build it with hack/build.sh", name)
	}
	return p, nil
}

// exitedError is the error of a controller that exited before it served:
// the last lines it wrote to the log, from start on. The lines before start
// are an earlier controller's, not why this one failed.
func exitedError(err error, logPath string, start int64) error {
	msg := fmt.Sprintf("the controller exited (%v)", err)
	if lines := lastLines(logPath, start, 5); lines != "" {
		msg += ": " + lines
	} else {
		msg += fmt.Sprintf(" and wrote nothing to %s", logPath)
	}
	return errors.New(msg)
}

// lastLines are the last n lines of the file at path, from offset on.
func lastLines(path string, offset int64, n int) string {
	data, err := os.ReadFile(path)
	if err != nil || offset > int64(len(data)) {
		return ""
	}
	text := strings.TrimSpace(string(data[offset:]))
	if text == "" {
		return ""
	}
	lines := strings.Split(text, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// progress returns the step the run's current attempt last reported ("" if none).
func (c *Client) Progress(ctx context.Context, name string) string {
	var p struct {
		Step string `json:"step"`
	}
	if err := c.Call(ctx, http.MethodGet, wire.PathProgress+"?name="+url.QueryEscape(name), c.Info.Token, nil, &p); err != nil {
		return ""
	}
	return p.Step
}

// stopper stops a run through this controller with the run's own token,
// read from its state file (as `smile stop` does).
func (c *Client) Stopper() func(ctx context.Context, name, reason string) error {
	return func(ctx context.Context, name, reason string) error {
		rec, err := store.Registry{Dir: c.Info.Dir}.Get(name)
		if err != nil {
			return err
		}
		run, err := store.Load(rec.StateFile)
		if err != nil {
			return err
		}
		_, err = c.Stop(ctx, run.Status.Token, name, reason)
		return err
	}
}

// waiter polls the controller until the run has ended and reported.
func (c *Client) Waiter(name string) func(ctx context.Context) (*status.Run, error) {
	return func(ctx context.Context) (*status.Run, error) {
		for {
			if run, err := c.Run(ctx, name); err == nil && run.Status.Phase.Terminal() && run.Status.Report != nil {
				return run, nil
			}
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(200 * time.Millisecond):
			}
		}
	}
}
