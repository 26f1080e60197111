package fake

import (
	"context"
	"fmt"

	"github.com/smile-loop/smile/runtime"
)

// SetExecIO makes every later ExecIO answer with f (exit 0 and no output
// without one). A test can run the request for real, e.g. with
// session.Serve on the request's stdin.
func (r *Runtime) SetExecIO(f ExecIOFunc) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.execIO = f
}

// ExecIO is part of the runtime.Runtime interface. Like Exec, it records
// the command (see Execs) and fails in a container that is not running.
func (r *Runtime) ExecIO(ctx context.Context, nameOrID string, req runtime.ExecRequest) (runtime.ExecResult, error) {
	name, running, fail, err := r.execStart(nameOrID, req.Cmd)
	if err != nil {
		return runtime.ExecResult{}, err
	}
	r.mu.Lock()
	f := r.execIO
	r.mu.Unlock()

	switch {
	case fail != nil:
		return runtime.ExecResult{ExitCode: -1}, fail
	case !running:
		return runtime.ExecResult{ExitCode: -1}, fmt.Errorf("exec in container %s: container is not running", name)
	case f != nil:
		return f(ctx, name, req)
	default:
		return runtime.ExecResult{}, nil
	}
}
