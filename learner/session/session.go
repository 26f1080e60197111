package session

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"regexp"
	"strings"
	"time"
)

// MaxOutputBytes bounds the output kept from one command (its end is kept).
const MaxOutputBytes = 1 << 20

// Result is what running one command gave.
type Result struct {
	Output    string        `json:"output"`   // stdout and stderr, interleaved as written
	ExitCode  int           `json:"exitCode"` // 128+N when killed by signal N
	TimedOut  bool          `json:"timedOut,omitempty"`
	StartedAt time.Time     `json:"startedAt"`
	Duration  time.Duration `json:"duration"`
	// ShellChanged says what the command did to the shell commands run in,
	// or to the loader's preload list ("" when nothing): see shellprint.go.
	ShellChanged string `json:"shellChanged,omitempty"`
	// Asked names the programs seen waiting for their reader's typed answer
	// (bash for its read builtin, python3, passwd): the command had no
	// input, so they read its end instead (asked_linux.go).
	Asked []string `json:"asked,omitempty"`
}

// Session is a shell session in a working folder.
type Session struct {
	hands   Hands
	shell   string // path of bash, or of sh when the image has no bash
	bash    bool
	dir     string // private folder for state files and outputs
	workDir string
	env     []string
	state   State
	seq     int
	user    string // the account commands run as ("": the hands' own)
}

// safePath is what a path must look like to be written unquoted into the
// save trap.
var safePath = regexp.MustCompile(`^[A-Za-z0-9/._-]+$`)

// New starts a session in this process's system (Local hands): see NewWith.
func New(workDir string, env []string) (*Session, error) {
	return NewWith(context.Background(), Local{}, workDir, env)
}

// NewWith starts a session in workDir with the environment env (nil: the
// hands' own), whose commands and files go through hands. It uses bash when the system has
// it, sh otherwise. The variables of env that belong to the wrapper
// (SMILE_*) are not passed on to commands.
func NewWith(ctx context.Context, hands Hands, workDir string, env []string) (*Session, error) {
	return NewAs(ctx, hands, workDir, env, "")
}

// NewAs is NewWith whose commands run as the account as names
// (container.user, account.go; "": the hands' own), which then owns the
// work folder and the files the session writes.
func NewAs(ctx context.Context, hands Hands, workDir string, env []string, as string) (*Session, error) {
	res, err := hands.Do(ctx, Request{Op: OpInit, Env: env, Path: workDir, User: as})
	if err == nil {
		err = res.Error("init", workDir)
	}
	if err != nil {
		return nil, fmt.Errorf("start shell session: %w", err)
	}
	if !safePath.MatchString(res.Dir) {
		return nil, fmt.Errorf("start shell session: unusable state folder %q", res.Dir)
	}
	if env == nil {
		// The hands' own environment (a container's), not this process's.
		env = res.Environ
	}
	s := &Session{hands: hands, shell: res.Shell, bash: res.Bash, dir: res.Dir, workDir: workDir,
		env: commandEnv(env, res.Shell, res.Home, res.User), user: as}
	if res.SudoDir != "" {
		s.addPath(res.SudoDir)
	}
	s.state = initialState(workDir, s.env)
	return s, nil
}

// sudoShim stands in for sudo when the learner is root and the image has no
// sudo: tutorials written for a desktop say `sudo apt-get install ...`, and
// root needs no sudo to do that. Options are dropped (combined ones too,
// `-iu postgres`), but the user of -u: `sudo -u postgres createdb x` runs
// as postgres (runuser, util-linux's, which Debian always has), as the page
// means; the command runs as root when the image lacks runuser.
const sudoShim = `#!/bin/sh
# Added by SMILE: you are root in this container, so sudo just runs the command.
user=
while getopts ':u:g:C:D:h:p:r:t:U:R:T:AbEeHiKklnPSsVv' opt; do
	case $opt in
	u) user=$OPTARG ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] && exit 0
case $user in
'' | root | '#0') exec "$@" ;;
esac
if command -v runuser >/dev/null 2>&1; then
	exec runuser -u "$user" -- "$@"
fi
exec "$@"
`

// addPath puts dir at the end of the commands' PATH.
func (s *Session) addPath(dir string) {
	for i, kv := range s.env {
		if strings.HasPrefix(kv, "PATH=") {
			s.env[i] = kv + ":" + dir
			return
		}
	}
	s.env = append(s.env, "PATH="+defaultPath+":"+dir)
}

// Shell names the shell commands run in ("bash" or "sh").
func (s *Session) Shell() string { return path.Base(s.shell) }

// State returns what the last command left behind.
func (s *Session) State() State { return s.state }

// SetState makes the next command start from st, e.g. to retry a command
// from the state it first started in.
func (s *Session) SetState(st State) { s.state = st }

// Close removes the session's private files.
func (s *Session) Close() error {
	res, err := s.hands.Do(context.Background(), Request{Op: OpClose, Path: s.dir})
	if err == nil {
		err = res.Error("remove", s.dir)
	}
	if err != nil {
		return fmt.Errorf("close shell session: %w", err)
	}
	return nil
}

// Run runs one command (any shell text, possibly many lines) with stdin at
// /dev/null. When timeout passes, the command's whole process group is
// killed, background children included. The error is only for a shell that
// could not be started; a failing command is a Result.
func (s *Session) Run(ctx context.Context, command string, timeout time.Duration) (Result, error) {
	return s.run(ctx, command, timeout, s.user)
}

// RunPrivileged is Run as the hands' own user, whatever account the
// session's commands run as: for SMILE's own steps (the smile.json setup,
// the Mentor's workarounds), not the page's.
func (s *Session) RunPrivileged(ctx context.Context, command string, timeout time.Duration) (Result, error) {
	return s.run(ctx, command, timeout, "")
}

func (s *Session) run(ctx context.Context, command string, timeout time.Duration, as string) (Result, error) {
	s.seq++
	rr := &RunRequest{Shell: s.shell, Bash: s.bash, Dir: s.dir, Seq: s.seq,
		Restore: s.state.script(s.bash, s.workDir), Command: command,
		Env: s.env, WorkDir: s.workDir, Timeout: timeout, User: as, Owner: s.user}
	res, err := s.hands.Do(ctx, Request{Op: OpRun, Run: rr})
	if err == nil {
		err = res.Error("run", s.shell)
	}
	if err != nil {
		return Result{}, fmt.Errorf("run command: %w", err)
	}
	if res.Result == nil {
		return Result{}, fmt.Errorf("run command: no result came back")
	}
	if st, ok := loadState(s.bash, res.Saved, s.state); ok {
		s.state = st
	}
	return *res.Result, nil
}

// WriteFile writes data to path (appends when add is true), making its
// folder, where the commands run. Its errors match fs.ErrPermission,
// fs.ErrNotExist and syscall errors as os.WriteFile's would.
func (s *Session) WriteFile(ctx context.Context, path string, data []byte, add bool) error {
	res, err := s.hands.Do(ctx, Request{Op: OpWrite, Path: path, Data: data, Append: add, User: s.user})
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return res.Error("open", path)
}

// ReadFile reads at most limit bytes from the start of path, where the
// commands run.
func (s *Session) ReadFile(ctx context.Context, path string, limit int) ([]byte, error) {
	return ReadFile(ctx, s.hands, path, limit)
}

// Getenv returns a variable of the environment the session started with
// (HOME, USER, PATH as the commands first see them).
func (s *Session) Getenv(name string) string { return envValue(s.env, name) }

// Hands returns where the session's commands run.
func (s *Session) Hands() Hands { return s.hands }

// WriteFile writes data to path through hands (appends when add is true).
func WriteFile(ctx context.Context, h Hands, path string, data []byte, add bool) error {
	res, err := h.Do(ctx, Request{Op: OpWrite, Path: path, Data: data, Append: add})
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return res.Error("open", path)
}

// ReadFile reads at most limit bytes from the start of path through hands.
func ReadFile(ctx context.Context, h Hands, path string, limit int) ([]byte, error) {
	res, err := h.Do(ctx, Request{Op: OpRead, Path: path, Limit: limit})
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return res.Data, res.Error("open", path)
}

// Stat reports whether path exists through hands, and its mode.
func Stat(ctx context.Context, h Hands, path string) (fs.FileMode, bool, error) {
	res, err := h.Do(ctx, Request{Op: OpStat, Path: path})
	if err == nil {
		err = res.Error("stat", path)
	}
	if err != nil {
		return 0, false, fmt.Errorf("stat %s: %w", path, err)
	}
	return res.Mode, res.Exists, nil
}

// LookPath finds a program on the PATH of env through hands ("" when it is
// not there).
func LookPath(ctx context.Context, h Hands, name string, env []string) (string, error) {
	res, err := h.Do(ctx, Request{Op: OpLookPath, Path: name, Env: env})
	if err == nil {
		err = res.Error("lookpath", name)
	}
	if err != nil {
		return "", fmt.Errorf("look for %s: %w", name, err)
	}
	return res.Found, nil
}

// ListRequest is what List lists.
type ListRequest struct {
	Root  string
	Limit int      // at most this many paths (0: all)
	Depth int      // at most this many levels (1: the folder's own entries; 0: all)
	Skip  []string // folder names not entered
	// MarkDirs ends the folders' paths with "/".
	MarkDirs bool
}

// List lists the paths under lr.Root (relative to it) through hands.
func List(ctx context.Context, h Hands, lr ListRequest) ([]string, error) {
	res, err := h.Do(ctx, Request{Op: OpList, Path: lr.Root, Limit: lr.Limit, Depth: lr.Depth, Skip: lr.Skip, MarkDirs: lr.MarkDirs})
	if err == nil {
		err = res.Error("list", lr.Root)
	}
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", lr.Root, err)
	}
	return res.Paths, nil
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

// commandEnv is the environment commands start with: the given one,
// without the wrapper's own variables (the token must never reach a
// tutorial command), with the login variables a learner's terminal has. A
// reader's terminal also names its type: without TERM, `clear`, `tput` and
// `top` refuse to run ("TERM environment variable not set"), a failure no
// reader meets. The commands' output still goes to a file, not a terminal,
// so programs that color or page only on a terminal do neither.
func commandEnv(env []string, shell, home, name string) []string {
	var out []string
	have := map[string]bool{}
	for _, kv := range env {
		key, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(key, "SMILE_") || key == "BASH_ENV" || key == "ENV" {
			continue
		}
		have[key] = true
		out = append(out, kv)
	}
	defaults := [][2]string{{"HOME", home}, {"USER", name}, {"LOGNAME", name}, {"SHELL", shell}, {"TERM", "xterm"}}
	for _, d := range defaults {
		if !have[d[0]] {
			out = append(out, d[0]+"="+d[1])
		}
	}
	return out
}
