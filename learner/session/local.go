package session

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"
)

// Local hands act in this process's own system: the wrapper's, inside the
// container, or a test's.
type Local struct{}

var _ Hands = Local{}

// Do is part of the Hands interface. Failures of the operation itself (a
// file that cannot be written) are in the Response; the error is for a
// request that makes no sense.
func (Local) Do(ctx context.Context, req Request) (Response, error) {
	switch req.Op {
	case OpInit:
		return localInit(req.Env, req.User, req.Path), nil
	case OpRun:
		if req.Run == nil {
			return Response{}, errors.New("run request without a command")
		}
		return localRun(ctx, *req.Run), nil
	case OpWrite:
		return localWrite(req), nil
	case OpRead:
		return localRead(req.Path, req.Limit), nil
	case OpStat:
		info, err := os.Stat(req.Path)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return Response{}, nil
			}
			return failed(err), nil
		}
		return Response{Exists: true, Mode: info.Mode()}, nil
	case OpLookPath:
		return localLookPath(req.Path, req.Env), nil
	case OpList:
		return localList(req), nil
	case OpClose:
		if err := os.RemoveAll(req.Path); err != nil {
			return failed(err), nil
		}
		return Response{}, nil
	}
	return Response{}, fmt.Errorf("unknown hands operation %q", req.Op)
}

// localInit finds the shell, makes the session's private folder and, for
// root without sudo, the sudo shim. With an account (container.user), the
// commands' home and user are its, the work folder becomes its, and no shim
// is made: sudo is then the image's own.
func localInit(env []string, as, workDir string) Response {
	shell, bash := "", false
	if p, err := exec.LookPath("bash"); err == nil {
		shell, bash = p, true
	} else if p, err := exec.LookPath("sh"); err == nil {
		shell = p
	} else {
		return Response{Err: "the image has neither bash nor sh"}
	}
	dir, err := os.MkdirTemp("", "smile-session-")
	if err != nil {
		return failed(err)
	}
	if !safePath.MatchString(dir) {
		return Response{Err: fmt.Sprintf("unusable state folder %q", dir)}
	}
	res := Response{Shell: shell, Bash: bash, Dir: dir, Home: "/root", User: "root", Environ: os.Environ()}
	if u, err := user.Current(); err == nil {
		res.Home, res.User = u.HomeDir, u.Username
	} else if os.Getuid() != 0 {
		res.Home, res.User = os.TempDir(), fmt.Sprintf("user%d", os.Getuid())
	}
	if env == nil {
		env = res.Environ
	}
	if as != "" {
		a, err := lookupAccount(as)
		if err == nil && workDir != "" {
			err = a.own(workDir)
		}
		if err != nil {
			return Response{Err: fmt.Sprintf("container.user: %v", err)}
		}
		res.Home, res.User = a.home, a.name
		return res
	}
	if sudo, err := addSudo(dir, envValue(env, "PATH")); err != nil {
		return failed(err)
	} else {
		res.SudoDir = sudo
	}
	return res
}

// addSudo writes the sudo shim into dir/bin when the learner is root and
// the image has no sudo, and returns that folder ("" when not needed).
func addSudo(dir, path string) (string, error) {
	if os.Getuid() != 0 {
		return "", nil
	}
	if path == "" {
		path = defaultPath
	}
	for _, d := range filepath.SplitList(path) {
		if info, err := os.Stat(filepath.Join(d, "sudo")); err == nil && !info.IsDir() {
			return "", nil
		}
	}
	bin := filepath.Join(dir, "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(bin, "sudo"), []byte(sudoShim), 0o755); err != nil {
		return "", err
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		return "", err
	}
	return bin, nil
}

const defaultPath = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

func envValue(env []string, name string) string {
	v := ""
	for _, kv := range env {
		if s, ok := strings.CutPrefix(kv, name+"="); ok {
			v = s
		}
	}
	return v
}

// localRun runs one command of a session: restore, run, save. When the
// timeout passes, the command's whole process group is killed, background
// children included.
func localRun(ctx context.Context, rr RunRequest) Response {
	// A tutorial may clean /tmp; the session's folder comes back.
	if err := os.MkdirAll(rr.Dir, 0o755); err != nil {
		return failed(err)
	}
	files, err := shellFiles(rr.Restore)
	defer func() {
		for _, f := range files {
			f.Close()
		}
	}()
	if err != nil {
		return failed(err)
	}
	outPath := filepath.Join(rr.Dir, fmt.Sprintf("output-%d", rr.Seq))
	out, err := os.Create(outPath)
	if err != nil {
		return failed(err)
	}
	defer os.Remove(outPath)
	defer out.Close()
	before := shellPrint(rr.Shell)
	res, err := runShell(ctx, rr, files, out)
	if err != nil {
		return failed(err)
	}
	if rr.User == "" && rr.Owner != "" {
		// A privileged step (a workaround) made files in the work folder:
		// they are the page's account's, as the rest of the folder.
		if a, err := lookupAccount(rr.Owner); err == nil {
			_ = a.own(rr.WorkDir)
		}
	}
	res.ShellChanged = shellChange(before, shellPrint(rr.Shell))
	res.Output = readTail(outPath, MaxOutputBytes)
	saved := map[string]string{}
	for i, name := range saveFiles {
		// The shell has exited: what it saved is sealed before it is read,
		// so a process it left running cannot change it any more.
		f := files[1+i]
		if err := seal(f); err != nil {
			return failed(err)
		}
		if data, err := io.ReadAll(io.NewSectionReader(f, 0, math.MaxInt64)); err == nil && len(data) > 0 {
			saved[name] = string(data)
		}
	}
	return Response{Result: &res, Saved: saved}
}

// shellFiles are the open files a command's shell gets (state.go,
// restoreFD): the restore script, sealed, then one empty file for each part
// of the state its save trap writes.
func shellFiles(restore string) ([]*os.File, error) {
	f, err := memfd("smile-restore")
	if err != nil {
		return nil, err
	}
	files := []*os.File{f}
	if _, err := f.WriteString(restore); err != nil {
		return files, err
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return files, err
	}
	if err := seal(f); err != nil {
		return files, err
	}
	for _, name := range saveFiles {
		f, err := memfd("smile-" + name)
		if err != nil {
			return files, err
		}
		files = append(files, f)
	}
	return files, nil
}

// runShell starts the shell on the command with the restore script first.
func runShell(ctx context.Context, rr RunRequest, files []*os.File, out *os.File) (Result, error) {
	runCtx, cancel := context.WithTimeout(ctx, rr.Timeout)
	defer cancel()
	restore := fmt.Sprintf("/dev/fd/%d", restoreFD)
	var cmd *exec.Cmd
	if rr.Bash {
		// BASH_ENV is read before the command, so the command is line 1 of
		// its own script, as when typed.
		cmd = exec.CommandContext(runCtx, rr.Shell, "--noprofile", "--norc", "-c", rr.Command)
		cmd.Env = append(append([]string{}, rr.Env...), "BASH_ENV="+restore)
	} else {
		cmd = exec.CommandContext(runCtx, rr.Shell, "-c", ". "+restore+"\n"+rr.Command)
		cmd.Env = rr.Env
	}
	cmd.Args[0] = filepath.Base(rr.Shell) // errors read "bash: line 1: ...", as in a terminal
	cmd.Dir = rr.WorkDir
	// Output goes to a file, not a pipe: a background child that keeps the
	// file open must not keep the command alive.
	cmd.Stdout, cmd.Stderr = out, out
	// The restore script on restoreFD (3), the state's files from saveFD on.
	cmd.ExtraFiles = make([]*os.File, saveFD-restoreFD+len(saveFiles))
	cmd.ExtraFiles[0] = files[0]
	copy(cmd.ExtraFiles[saveFD-restoreFD:], files[1:])
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if rr.User != "" {
		a, err := lookupAccount(rr.User)
		if err != nil {
			return Result{}, fmt.Errorf("container.user: %w", err)
		}
		cmd.SysProcAttr.Credential = a.credential()
	}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 2 * time.Second

	// Its input ends at once, as /dev/null would, except that the hands see
	// a program that asks its reader for an answer (asked_linux.go).
	in, w, pipe, err := newAskInput()
	if err != nil {
		return Result{}, err
	}
	defer in.Close()
	cmd.Stdin = in

	res := Result{StartedAt: time.Now()}
	runErr := cmd.Start()
	if runErr == nil {
		in.Close()
		watch := watchAsks(cmd.Process.Pid, w, pipe)
		runErr = cmd.Wait()
		res.Asked = watch.stop()
	} else if w != nil {
		w.Close()
	}
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
		return res, fmt.Errorf("run command with %s: %w", rr.Shell, runErr)
	}
	if res.TimedOut {
		// The shell is gone; make sure nothing it started is left either.
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	return res, nil
}

func localWrite(req Request) Response {
	flags := os.O_CREATE | os.O_WRONLY | os.O_TRUNC
	if req.Append {
		flags = os.O_CREATE | os.O_WRONLY | os.O_APPEND
	}
	made := firstMissing(filepath.Dir(req.Path))
	err := os.MkdirAll(filepath.Dir(req.Path), 0o755)
	if err == nil {
		var f *os.File
		if f, err = os.OpenFile(req.Path, flags, 0o644); err == nil {
			_, err = f.Write(req.Data)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}
	}
	if err == nil && req.User != "" {
		// The page's commands run as the account: what is written for them
		// is its, the folders made on the way too.
		var a account
		if a, err = lookupAccount(req.User); err == nil {
			if made == "" {
				made = req.Path
			}
			err = a.own(made)
		}
	}
	if err != nil {
		return failed(err)
	}
	return Response{}
}

// firstMissing is the topmost folder of dir's path that does not exist yet
// ("" when dir exists).
func firstMissing(dir string) string {
	missing := ""
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if _, err := os.Lstat(d); err == nil {
			return missing
		}
		missing = d
		if d == filepath.Dir(d) {
			return missing
		}
	}
}

func localRead(path string, limit int) Response {
	f, err := os.Open(path)
	if err != nil {
		return failed(err)
	}
	defer f.Close()
	if limit <= 0 {
		limit = MaxOutputBytes
	}
	data, err := io.ReadAll(io.LimitReader(f, int64(limit)))
	if err != nil {
		return failed(err)
	}
	return Response{Data: data}
}

// localLookPath finds name on the PATH of env (the process's own PATH when
// env has none), as the session's commands would.
func localLookPath(name string, env []string) Response {
	path := envValue(env, "PATH")
	if path == "" {
		if p, err := exec.LookPath(name); err == nil {
			return Response{Found: p}
		}
		return Response{}
	}
	for _, d := range filepath.SplitList(path) {
		p := filepath.Join(d, name)
		if info, err := os.Stat(p); err == nil && !info.IsDir() && info.Mode()&0o111 != 0 {
			return Response{Found: p}
		}
	}
	return Response{}
}

// localList lists the files and folders under req.Path, relative to it, at
// most req.Limit of them, not entering the folders req.Skip names or those
// req.Depth levels down.
func localList(req Request) Response {
	paths, err := listTree(req, func(fn fs.WalkDirFunc) error { return filepath.WalkDir(req.Path, fn) }, req.Path, false)
	if err != nil {
		return failed(err)
	}
	return Response{Paths: paths}
}

// listTree is OpList over a walk that starts at root (walk's own path for it).
// With strict, a folder that cannot be read fails the listing instead of
// being left out.
func listTree(req Request, walk func(fs.WalkDirFunc) error, root string, strict bool) ([]string, error) {
	var paths []string
	err := walk(func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if strict {
				return err
			}
			return nil
		}
		if p == root {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		entry := filepath.ToSlash(rel)
		if d.IsDir() {
			if req.MarkDirs {
				entry += "/"
			}
			if slices.Contains(req.Skip, d.Name()) {
				return filepath.SkipDir
			}
			if req.Depth > 0 && strings.Count(rel, string(filepath.Separator))+1 >= req.Depth {
				paths = append(paths, entry)
				return filepath.SkipDir
			}
		}
		paths = append(paths, entry)
		if req.Limit > 0 && len(paths) >= req.Limit {
			return filepath.SkipAll
		}
		return nil
	})
	return paths, err
}
