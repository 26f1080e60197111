package literal

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/smile-loop/smile/learner/literal/expect"
	"github.com/smile-loop/smile/learner/literal/mentor"
	"github.com/smile-loop/smile/learner/literal/patience"
	"github.com/smile-loop/smile/learner/literal/reading"
	"github.com/smile-loop/smile/learner/literal/servers"
)

const (
	// serverWait bounds the wait for a server's first words.
	serverWait = 20 * time.Second
	// quietWait is how long a background command that shows nothing is
	// watched before the tutorial goes on.
	quietWait = 2 * time.Second
	pollEvery = 200 * time.Millisecond
)

// runBackground starts a command detached, with its output in a log, and
// watches the log (with short commands in the session) until it shows what
// the tutorial shows (or a server's first words), until it ends, or for a
// bounded wait. A command that ends is judged like any other; one that keeps
// running is left running for the steps after it.
func (s *student) runBackground(ctx context.Context, st reading.Step) error {
	cmd := st.Command
	logPath := fmt.Sprintf("${TMPDIR:-/tmp}/smile-background-%d.log", cmd.Line)
	script := fmt.Sprintf("rm -f \"%[2]s.rc\"; { ( %[1]s\n) > \"%[2]s\" 2>&1 < /dev/null; echo $? > \"%[2]s.rc\"; } &",
		reading.WithInput(cmd.Text, st.Stdin), logPath)
	res, err := s.sess.Run(ctx, script, s.timeout)
	if err != nil {
		return fmt.Errorf("cannot start line %d in the background: %w", cmd.Line, err)
	}
	s.out.CommandsRun = append(s.out.CommandsRun, cmd.Text)
	wait := quietWait
	probe := servers.Probe(st.ReadyPort, st.ReadyURL)
	if expect.HasExpectation(st.Shown) || probe != "" {
		wait = min(serverWait, s.timeout)
	}
	up := false
	for {
		output, code, ended, err := s.peek(ctx, logPath)
		if err != nil {
			return fmt.Errorf("cannot watch line %d: %w", cmd.Line, err)
		}
		res.Output, res.Duration = output, time.Since(res.StartedAt)
		if ended {
			res.ExitCode = code
			s.auditCommand(cmd.Line, cmd.Text, res, 1, false)
			d := patience.Decide(s.classify(ctx, cmd, res).Category, s.behavior, s.resolution(cmd.Line, cmd.EndLine))
			d.Attempts = 1
			return s.judge(ctx, st, res, 1, d)
		}
		up = servers.UpText.MatchString(output)
		if expect.HasExpectation(st.Shown) {
			_, up = expect.MatchTolerant(st.Shown, output)
		} else if probe != "" {
			up = s.answers(ctx, probe)
		}
		if up || res.Duration > wait || ctx.Err() != nil {
			break
		}
		time.Sleep(pollEvery)
	}
	s.auditCommand(cmd.Line, cmd.Text, res, 1, false)
	ready := ""
	if probe != "" {
		ready = fmt.Sprintf(" (its ready check did not answer within %s)", wait)
		if up {
			ready = " (its ready check answered)"
		}
	}
	s.action(fmt.Sprintf("started line %d in the background: `%s`%s; it keeps running for the steps after it", cmd.Line, mentor.FirstLine(cmd.Text), ready))
	s.env.Log.Info("Started in the background", "line", cmd.Line)
	s.last = &lastRun{command: cmd, output: res.Output, ok: true}
	return s.checkOutput(cmd, cmd.Expected, res.Output, cmd.Line, max(cmd.EndLine, lastExpected(cmd)), st.Tolerant, st.Differs)
}

// answers runs a ready probe in the session, leaving its state as it was.
func (s *student) answers(ctx context.Context, probe string) bool {
	state := s.sess.State()
	defer s.sess.SetState(state)
	res, err := s.sess.Run(ctx, probe, 5*time.Second)
	return err == nil && servers.Answered(res.Output)
}

// endMarker separates a background command's log from its exit code.
const endMarker = "--smile-background-exit--"

// peek reads a background command's log and, once it has ended, its exit
// code, through the session.
func (s *student) peek(ctx context.Context, logPath string) (output string, code int, ended bool, err error) {
	script := fmt.Sprintf("cat \"%[1]s\" 2>/dev/null; if [ -f \"%[1]s.rc\" ]; then printf '%%s%%s' '%[2]s' \"$(cat \"%[1]s.rc\")\"; fi", logPath, endMarker)
	res, err := s.sess.Run(ctx, script, 5*time.Second)
	if err != nil {
		return "", 0, false, err
	}
	output = res.Output
	if i := strings.LastIndex(output, endMarker); i >= 0 {
		code, _ = strconv.Atoi(strings.TrimSpace(output[i+len(endMarker):]))
		return output[:i], code, true, nil
	}
	return output, 0, false, nil
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
