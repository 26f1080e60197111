package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"
)

// shell runs a command as the agent's shell tool does: bash -c (sh when
// there is no bash) in dir, output and errors together, killed after
// timeout.
func shell(command, dir string, timeout time.Duration) (string, int) {
	sh := "/bin/sh"
	if p, err := exec.LookPath("bash"); err == nil {
		sh = p
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, sh, "-c", command)
	cmd.Dir = dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = time.Second
	out, err := cmd.CombinedOutput()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
		if code < 0 {
			code = 137
		}
	} else if err != nil {
		return err.Error(), 127
	}
	if ctx.Err() != nil {
		return string(out) + "\nCommand timed out", 143
	}
	return string(out), code
}

// shellOrBackground runs a command as Claude Code's Bash tool does when
// background tasks are on: at the timeout the command is not killed but
// left running, and the tool reports what it printed so far. done is false
// for such a command.
func shellOrBackground(command, dir string, timeout time.Duration) (output string, code int, done bool) {
	sh := "/bin/sh"
	if p, err := exec.LookPath("bash"); err == nil {
		sh = p
	}
	// Output goes to a file, not a pipe: the command may outlive the fake.
	out, err := os.CreateTemp("", "fake-bash-*.out")
	if err != nil {
		return err.Error(), 127, true
	}
	defer os.Remove(out.Name())
	defer out.Close()
	cmd := exec.Command(sh, "-c", command)
	cmd.Dir, cmd.Stdout, cmd.Stderr = dir, out, out
	if err := cmd.Start(); err != nil {
		return err.Error(), 127, true
	}
	ended := make(chan error, 1)
	go func() { ended <- cmd.Wait() }()
	select {
	case err := <-ended:
		data, _ := os.ReadFile(out.Name())
		if ee, ok := err.(*exec.ExitError); ok {
			return string(data), ee.ExitCode(), true
		}
		return string(data), 0, true
	case <-time.After(timeout):
		data, _ := os.ReadFile(out.Name())
		return string(data), 0, false
	}
}

func writeFile(dir, path, content string) error {
	if !filepath.IsAbs(path) {
		path = filepath.Join(dir, path)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(content), 0o644)
}
