package session

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"time"
)

// MaxOutputBytes bounds the output kept from one command (its end is kept).
const MaxOutputBytes = 1 << 20

// Result is what running one command gave.
type Result struct {
	Output    string // stdout and stderr, interleaved as written
	ExitCode  int    // 128+N when killed by signal N
	TimedOut  bool
	StartedAt time.Time
	Duration  time.Duration
}

// Session is a shell session in a working folder.
type Session struct {
	shell   string // path of bash, or of sh when the image has no bash
	bash    bool
	dir     string // private folder for state files and outputs
	workDir string
	env     []string
	state   State
	seq     int
}

// safePath is what a path must look like to be written unquoted into the
// save trap.
var safePath = regexp.MustCompile(`^[A-Za-z0-9/._-]+$`)

// New starts a session in workDir with the environment env. It uses bash
// when the image has it, sh otherwise. The variables of env that belong to
// the wrapper (SMILE_*) are not passed on to commands.
func New(workDir string, env []string) (*Session, error) {
	shell, bash := "", false
	if p, err := exec.LookPath("bash"); err == nil {
		shell, bash = p, true
	} else if p, err := exec.LookPath("sh"); err == nil {
		shell = p
	} else {
		return nil, errors.New("start shell session: the image has neither bash nor sh")
	}
	dir, err := os.MkdirTemp("", "smile-session-")
	if err != nil {
		return nil, fmt.Errorf("start shell session: %w", err)
	}
	if !safePath.MatchString(dir) {
		return nil, fmt.Errorf("start shell session: unusable state folder %q", dir)
	}
	s := &Session{shell: shell, bash: bash, dir: dir, workDir: workDir, env: commandEnv(env, shell)}
	if err := s.addSudo(); err != nil {
		return nil, fmt.Errorf("start shell session: %w", err)
	}
	s.state = initialState(workDir, s.env)
	return s, nil
}

// sudoShim stands in for sudo when the learner is root and the image has no
// sudo: tutorials written for a desktop say `sudo apt-get install ...`, and
// root needs no sudo to do that. Options are dropped; the command runs as is.
const sudoShim = `#!/bin/sh
# Added by SMILE: you are root in this container, so sudo just runs the command.
while [ $# -gt 0 ]; do
	case $1 in
	-u | -g | -C | -D | -h | -p | -r | -t | -U) shift 2 ;;
	--) shift; break ;;
	-*) shift ;;
	*) break ;;
	esac
done
[ $# -eq 0 ] && exit 0
exec "$@"
`

// addSudo puts the sudo shim at the end of PATH when it is needed.
func (s *Session) addSudo() error {
	if os.Getuid() != 0 {
		return nil
	}
	path := ""
	for _, kv := range s.env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			path = v
		}
	}
	for _, d := range filepath.SplitList(path) {
		if info, err := os.Stat(filepath.Join(d, "sudo")); err == nil && !info.IsDir() {
			return nil
		}
	}
	bin := filepath.Join(s.dir, "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(bin, "sudo"), []byte(sudoShim), 0o755); err != nil {
		return err
	}
	if err := os.Chmod(s.dir, 0o755); err != nil {
		return err
	}
	for i, kv := range s.env {
		if strings.HasPrefix(kv, "PATH=") {
			s.env[i] = kv + string(filepath.ListSeparator) + bin
			return nil
		}
	}
	s.env = append(s.env, "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:"+bin)
	return nil
}

// Shell names the shell commands run in ("bash" or "sh").
func (s *Session) Shell() string { return filepath.Base(s.shell) }

// State returns what the last command left behind.
func (s *Session) State() State { return s.state }

// SetState makes the next command start from st, e.g. to retry a command
// from the state it first started in.
func (s *Session) SetState(st State) { s.state = st }

// Close removes the session's private files.
func (s *Session) Close() error { return os.RemoveAll(s.dir) }

// Run runs one command (any shell text, possibly many lines) with stdin at
// /dev/null. When timeout passes, the command's whole process group is
// killed, background children included. The error is only for a shell that
// could not be started; a failing command is a Result.
func (s *Session) Run(ctx context.Context, command string, timeout time.Duration) (Result, error) {
	s.seq++
	next := filepath.Join(s.dir, "next")
	// A tutorial may clean /tmp; the session's folder comes back.
	if err := os.MkdirAll(s.dir, 0o755); err != nil {
		return Result{}, fmt.Errorf("run command: %w", err)
	}
	if err := os.RemoveAll(next); err != nil {
		return Result{}, fmt.Errorf("run command: %w", err)
	}
	if err := os.MkdirAll(next, 0o700); err != nil {
		return Result{}, fmt.Errorf("run command: %w", err)
	}
	restore := filepath.Join(s.dir, "restore.sh")
	if err := os.WriteFile(restore, []byte(s.state.script(s.bash, next, s.workDir)), 0o600); err != nil {
		return Result{}, fmt.Errorf("run command: %w", err)
	}
	outPath := filepath.Join(s.dir, fmt.Sprintf("output-%d", s.seq))
	out, err := os.Create(outPath)
	if err != nil {
		return Result{}, fmt.Errorf("run command: %w", err)
	}
	defer os.Remove(outPath)
	defer out.Close()

	runCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var cmd *exec.Cmd
	if s.bash {
		// BASH_ENV is read before the command, so the command is line 1 of
		// its own script, as when typed.
		cmd = exec.CommandContext(runCtx, s.shell, "--noprofile", "--norc", "-c", command)
		cmd.Env = append(append([]string{}, s.env...), "BASH_ENV="+restore)
	} else {
		cmd = exec.CommandContext(runCtx, s.shell, "-c", ". "+restore+"\n"+command)
		cmd.Env = s.env
	}
	cmd.Args[0] = filepath.Base(s.shell) // errors read "bash: line 1: ...", as in a terminal
	cmd.Dir = s.workDir
	// Output goes to a file, not a pipe: a background child that keeps the
	// file open must not keep the command alive.
	cmd.Stdout, cmd.Stderr = out, out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 2 * time.Second

	res := Result{StartedAt: time.Now()}
	runErr := cmd.Run()
	res.Duration = time.Since(res.StartedAt)
	res.TimedOut = errors.Is(runCtx.Err(), context.DeadlineExceeded) && ctx.Err() == nil
	var exitErr *exec.ExitError
	switch {
	case runErr == nil:
	case errors.As(runErr, &exitErr):
		res.ExitCode = exitErr.ExitCode()
		if ws, ok := exitErr.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			res.ExitCode = 128 + int(ws.Signal())
		}
	case res.TimedOut:
		res.ExitCode = 128 + int(syscall.SIGKILL)
	default:
		return res, fmt.Errorf("run command with %s: %w", s.shell, runErr)
	}
	if res.TimedOut {
		// The shell is gone; make sure nothing it started is left either.
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	res.Output = readTail(outPath, MaxOutputBytes)
	if st, ok := loadState(s.bash, next, s.state); ok {
		s.state = st
	}
	return res, nil
}

func readTail(path string, limit int64) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	if info, err := f.Stat(); err == nil && info.Size() > limit {
		_, _ = f.Seek(info.Size()-limit, io.SeekStart)
	}
	data, _ := io.ReadAll(io.LimitReader(f, limit))
	return strings.ToValidUTF8(string(data), "")
}

// commandEnv is the environment commands start with: the container's,
// without the wrapper's own variables (the token must never reach a
// tutorial command), with the login variables a learner's terminal has.
func commandEnv(env []string, shell string) []string {
	var out []string
	have := map[string]bool{}
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, "SMILE_") || name == "BASH_ENV" || name == "ENV" {
			continue
		}
		have[name] = true
		out = append(out, kv)
	}
	home, name := "/root", "root"
	if u, err := user.Current(); err == nil {
		home, name = u.HomeDir, u.Username
	} else if os.Getuid() != 0 {
		home, name = os.TempDir(), fmt.Sprintf("user%d", os.Getuid())
	}
	defaults := [][2]string{{"HOME", home}, {"USER", name}, {"LOGNAME", name}, {"SHELL", shell}}
	for _, d := range defaults {
		if !have[d[0]] {
			out = append(out, d[0]+"="+d[1])
		}
	}
	return out
}
