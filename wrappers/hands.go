package wrappers

import (
	"context"
	"fmt"
	"os"

	"github.com/smile-loop/smile/learner/session"
)

// Sub-commands of the wrapper for containers whose learner runs in the
// controller (literal, openai): the container holds no token, no task and
// no key; the controller only execs these.
const (
	// CmdHands answers one session request (JSON on stdin, JSON on stdout):
	// run a command with its process group killed on timeout, write, read.
	CmdHands = "hands-exec"
	// CmdHandsServe answers session requests until its stdin ends, one line
	// of JSON each way, each handled as CmdHands handles its one: the
	// controller's persistent hands channel (session.Stream), one exec per
	// attempt instead of one per request.
	CmdHandsServe = "hands-serve"
	// CmdIdle is PID 1 of such a container: it waits to be stopped.
	CmdIdle = "idle"
	// ReadyFile is written by CmdIdle when it starts.
	ReadyFile = "/tmp/.smile-ready"
)

// subcommand runs a sub-command named by args[0]; ok is false when args
// name none (the wrapper then plays its task).
func subcommand(ctx context.Context, args []string) (code int, ok bool) {
	if len(args) == 0 {
		return 0, false
	}
	switch args[0] {
	case CmdHands, CmdHandsServe:
		if err := guardSelf(); err != nil {
			fmt.Fprintln(os.Stderr, "smile-wrapper "+args[0]+": cannot put itself out of the commands' reach:", err)
			return ExitBadTask, true
		}
	}
	switch args[0] {
	case CmdHands:
		if err := session.Serve(ctx, os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, "smile-wrapper hands-exec:", err)
			return ExitBadTask, true
		}
		return 0, true
	case CmdHandsServe:
		if err := session.ServeStream(ctx, os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, "smile-wrapper hands-serve:", err)
			return ExitBadTask, true
		}
		return 0, true
	case CmdIdle:
		// The image's entrypoint has run: the learner may begin.
		if err := os.WriteFile(ReadyFile, nil, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "smile-wrapper idle: cannot say the container is ready:", err)
			return ExitBadTask, true
		}
		<-ctx.Done()
		return 0, true
	}
	return 0, false
}
