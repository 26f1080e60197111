package literal

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/smile-loop/smile/status"
	"github.com/smile-loop/smile/wrappers/session"
)

var (
	// anotherTerminal marks a command the reader runs beside the others.
	anotherTerminal = regexp.MustCompile(`(?i)\b(?:in|from|open|using)\s+(?:a(?:nother)?|the\s+other|a\s+new|a\s+second|a\s+separate|another\s+new|a\s+different)\s+` +
		`(?:terminal|shell|tab|window|console|session)\b`)
	// serverText is what a program that keeps running prints once it is up.
	serverText = regexp.MustCompile(`(?i)serving (?:http )?on|listening on|listening at|running on https?://|started server|server (?:started|running|listening|is running)|` +
		`press ctrl\+c to (?:quit|stop|exit)|ctrl-c to (?:quit|stop)|development server at|now listening|application started|ready in \d`)
)

const (
	// serverWait bounds the wait for a server's first words.
	serverWait = 20 * time.Second
	// quietWait is how long a background command that shows nothing is
	// watched before the tutorial goes on.
	quietWait = 2 * time.Second
	pollEvery = 200 * time.Millisecond
)

// markServers finds servers: a command whose shown output (in its block or
// the block after it) is what a server prints when it is up. Every
// background command learns what it should show, to know when to go on.
func markServers(steps []Step) {
	for i := range steps {
		if steps[i].Kind != StepRun {
			continue
		}
		shown := steps[i].Command.Expected
		if len(shown) == 0 && i+1 < len(steps) && steps[i+1].Kind == StepCompare {
			shown = steps[i+1].Expected
		}
		if serverText.MatchString(expectedText(shown)) {
			steps[i].Background = true
		}
		if steps[i].Background {
			steps[i].Shown = shown
		}
	}
}

// runBackground starts a command detached, with its output in a log, and
// watches the log until it shows what the tutorial shows (or a server's
// first words), until it ends, or for a bounded wait. A command that ends is
// judged like any other; one that keeps running is left running for the
// steps after it.
func (s *student) runBackground(ctx context.Context, st Step) error {
	cmd := st.Command
	logPath := filepath.Join(os.TempDir(), fmt.Sprintf("smile-background-%d.log", cmd.Line))
	rcPath := logPath + ".rc"
	_ = os.Remove(rcPath)
	script := fmt.Sprintf("{ ( %s\n) > %s 2>&1 < /dev/null; echo $? > %s; } &", withInput(cmd.Text, st.Stdin), shellQuote(logPath), shellQuote(rcPath))
	res, err := s.sess.Run(ctx, script, s.timeout)
	if err != nil {
		return fmt.Errorf("cannot start line %d in the background: %w", cmd.Line, err)
	}
	s.out.CommandsRun = append(s.out.CommandsRun, cmd.Text)
	start := res.StartedAt
	wait := quietWait
	if hasExpectation(st.Shown) {
		wait = min(serverWait, s.timeout)
	}
	var output string
	for {
		data, _ := os.ReadFile(logPath)
		output = string(data)
		if rc, err := os.ReadFile(rcPath); err == nil {
			code, _ := strconv.Atoi(strings.TrimSpace(string(rc)))
			ended := session.Result{ExitCode: code, Output: output, StartedAt: start, Duration: time.Since(start)}
			s.auditCommand(cmd.Line, cmd.Text, ended, 1, false)
			return s.judge(ctx, st, ended, 1, Decision{Attempts: 1, Ask: decide(status.CategoryCommandFailure, s.behavior, "").Ask})
		}
		up := serverText.MatchString(output)
		if hasExpectation(st.Shown) {
			_, up = matchTolerant(st.Shown, output)
		}
		if up || time.Since(start) > wait || ctx.Err() != nil {
			break
		}
		time.Sleep(pollEvery)
	}
	res.Output, res.Duration = output, time.Since(start)
	s.auditCommand(cmd.Line, cmd.Text, res, 1, false)
	s.action(fmt.Sprintf("started line %d in the background: `%s`; it keeps running for the steps after it", cmd.Line, firstLine(cmd.Text)))
	s.env.Log.Info("Started in the background", "line", cmd.Line, "log", logPath)
	s.last = &lastRun{command: cmd, output: output, ok: true}
	return s.checkOutput(cmd, cmd.Expected, output, cmd.Line, max(cmd.EndLine, lastExpected(cmd)), st.Tolerant)
}

func expectedText(lines []ExpectedLine) string {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l.Text + "\n")
	}
	return b.String()
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
