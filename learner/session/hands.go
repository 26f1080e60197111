package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"syscall"
	"time"
)

// Hands is where a session's commands run and its files live: this process
// (Local) or a container driven from outside it (Remote). A session never
// touches the system itself; it asks its hands, one Request at a time, so
// the learner's logic can run in the controller while only the commands run
// in the container.
type Hands interface {
	Do(ctx context.Context, req Request) (Response, error)
}

// Operations a Request asks for.
const (
	OpInit     = "init"     // find the shell, make the state folder, add the sudo shim
	OpRun      = "run"      // run one command of the session
	OpWrite    = "write"    // write (or append to) a file, making its folder
	OpRead     = "read"     // read the start of a file
	OpStat     = "stat"     // describe a path
	OpLookPath = "lookpath" // find a program on PATH
	OpList     = "list"     // list the files under a folder, recursively
	OpClose    = "close"    // remove the state folder
)

// Request is one thing the hands do. It is plain data so that it can cross
// into a container as JSON on an exec's stdin.
type Request struct {
	Op   string `json:"op"`
	Path string `json:"path,omitempty"`
	// Data is the content to write (OpWrite).
	Data   []byte `json:"data,omitempty"`
	Append bool   `json:"append,omitempty"`
	// Limit bounds what OpRead and OpList return.
	Limit int `json:"limit,omitempty"`
	// Run is the command to run (OpRun).
	Run *RunRequest `json:"run,omitempty"`
	// Env is the environment OpInit and OpLookPath look PATH up in.
	Env []string `json:"env,omitempty"`
	// Depth and Skip bound OpList: it lists at most Depth levels and does
	// not enter the folders Skip names; MarkDirs ends folders with "/".
	Depth    int      `json:"depth,omitempty"`
	Skip     []string `json:"skip,omitempty"`
	MarkDirs bool     `json:"markDirs,omitempty"`
	// ID names the request on a Stream; its Response carries it back.
	ID string `json:"id,omitempty"`
	// User is the account (container.user, account.go) the page's commands
	// run as and the files written for them belong to; "" for the hands'
	// own. OpInit gives it the work folder (Path).
	User string `json:"user,omitempty"`
}

// RunRequest is one command of a session.
type RunRequest struct {
	Shell   string        `json:"shell"`
	Bash    bool          `json:"bash"`
	Dir     string        `json:"dir"` // the session's private folder
	Seq     int           `json:"seq"`
	Restore string        `json:"restore"` // the script that restores the state
	Command string        `json:"command"`
	Env     []string      `json:"env"`
	WorkDir string        `json:"workDir"`
	Timeout time.Duration `json:"timeout"`
	// User is the account the command runs as ("": the hands' own).
	User string `json:"user,omitempty"`
	// Owner is the account the work folder belongs to: after a privileged
	// run (User ""), what it made there is given to it.
	Owner string `json:"owner,omitempty"`
}

// Response is what the hands did. Err is set when the operation failed;
// Errno keeps the system error so that callers can still tell a missing
// file from a permission problem.
type Response struct {
	// ID is the Request's (ServeStream).
	ID    string `json:"id,omitempty"`
	Err   string `json:"err,omitempty"`
	Errno int    `json:"errno,omitempty"`
	// OpInit
	Shell   string `json:"shell,omitempty"`
	Bash    bool   `json:"bash,omitempty"`
	Dir     string `json:"dir,omitempty"`
	Home    string `json:"home,omitempty"`
	User    string `json:"user,omitempty"`
	SudoDir string `json:"sudoDir,omitempty"`
	// Environ is the environment of the hands' own process.
	Environ []string `json:"environ,omitempty"`
	// OpRun
	Result *Result `json:"result,omitempty"`
	// Saved are the files the save trap wrote, by name (OpRun).
	Saved map[string]string `json:"saved,omitempty"`
	// OpRead
	Data []byte `json:"data,omitempty"`
	// OpStat
	Exists bool        `json:"exists,omitempty"`
	Mode   fs.FileMode `json:"mode,omitempty"`
	// OpLookPath (the program's path) and OpList (paths relative to Path)
	Found string   `json:"found,omitempty"`
	Paths []string `json:"paths,omitempty"`
}

// Error turns a failed Response back into an error that errors.Is matches
// against fs.ErrNotExist, fs.ErrPermission and syscall errors, as the local
// call's error would.
func (r Response) Error(op, path string) error {
	if r.Err == "" {
		return nil
	}
	if r.Errno != 0 {
		return &fs.PathError{Op: op, Path: path, Err: syscall.Errno(r.Errno)}
	}
	return errors.New(r.Err)
}

// failed records err in a Response, keeping its errno when it has one.
func failed(err error) Response {
	res := Response{Err: err.Error()}
	var errno syscall.Errno
	if errors.As(err, &errno) {
		res.Errno = int(errno)
	}
	return res
}

// MaxRequestBytes bounds a request Serve accepts: a file the Student writes
// plus the session's state.
const MaxRequestBytes = 64 << 20

// Serve answers one JSON Request from r with Local hands and writes the JSON
// Response to w. It is the container side of Remote (smile-wrapper
// hands-exec): it needs nothing from its environment and writes nothing but
// the files it is asked to.
func Serve(ctx context.Context, r io.Reader, w io.Writer) error {
	var req Request
	if err := json.NewDecoder(io.LimitReader(r, MaxRequestBytes)).Decode(&req); err != nil {
		return fmt.Errorf("read hands request: %w", err)
	}
	res, err := Local{}.Do(ctx, req)
	if err != nil {
		res = failed(err)
	}
	res.ID = req.ID
	if err := json.NewEncoder(w).Encode(res); err != nil {
		return fmt.Errorf("write hands response: %w", err)
	}
	return nil
}

// ExecFunc runs the hands-exec program in the container with stdin and
// returns what it printed on stdout. timeout bounds the whole exec.
type ExecFunc func(ctx context.Context, stdin []byte, timeout time.Duration) (stdout []byte, err error)

// Remote hands send every Request to a hands-exec process in a container.
type Remote struct {
	Exec ExecFunc
}

// execSlack is how long an exec may outlive the command's own timeout: the
// hands-exec process kills the command's group, then reports.
const execSlack = 30 * time.Second

// Do is part of the Hands interface.
func (h Remote) Do(ctx context.Context, req Request) (Response, error) {
	body, err := json.Marshal(req)
	if err != nil {
		return Response{}, fmt.Errorf("encode %s request: %w", req.Op, err)
	}
	timeout := execSlack
	if req.Run != nil {
		timeout += req.Run.Timeout
	}
	out, err := h.Exec(ctx, body, timeout)
	if err != nil {
		return Response{}, fmt.Errorf("%s in the container: %w", req.Op, err)
	}
	var res Response
	if err := json.Unmarshal(out, &res); err != nil {
		return Response{}, fmt.Errorf("%s in the container: bad answer %.200q: %w", req.Op, out, err)
	}
	return res, nil
}
