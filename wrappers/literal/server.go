package literal

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

var (
	// anotherTerminal marks a command the reader runs beside the others.
	anotherTerminal = regexp.MustCompile(`(?i)\b(?:in|from|open|using)\s+(?:a(?:nother)?|the\s+other|a\s+new|a\s+second|a\s+separate|another\s+new|a\s+different)\s+` +
		`(?:terminal|shell|tab|window|console|session)\b`)
	// serverText is what a program that keeps running prints once it is up.
	serverText = regexp.MustCompile(`(?i)serving (?:http )?on|listening on|listening at|running on https?://|started server|server (?:started|running|listening|is running)|` +
		`press ctrl\+c to (?:quit|stop|exit)|ctrl-c to (?:quit|stop)|development server at|now listening|application started|ready in \d`)
)

// knownServer is a command that starts a development server, which keeps
// running whether or not the tutorial shows what it prints.
var knownServer = regexp.MustCompile(`^(?:sudo\s+)?(?:(?:uv|poetry|pipenv|pdm|hatch)\s+run\s+)?(?:fastapi\s+(?:dev|run)\b|(?:npm|pnpm|yarn|bun)\s+(?:run\s+)?(?:start|dev|serve)|npx\s+(?:vite|next\s+dev|serve)|` +
	`(?:flask|uvicorn|gunicorn|hypercorn)\b|python[\d.]*\s+-m\s+(?:http\.server|flask\s+run|uvicorn)|` +
	`python[\d.]*\s+manage\.py\s+runserver|(?:bundle\s+exec\s+)?rails\s+s(?:erver)?\b|(?:hugo|mkdocs)\s+serve|jekyll\s+serve|` +
	`php\s+-S\b|php\s+artisan\s+serve|docker\s+compose\s+up(?:\s+[^-\s]\S*)*\s*$)`)

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
		if serverText.MatchString(expectedText(shown)) || knownServer.MatchString(strings.TrimSpace(steps[i].Command.Text)) {
			steps[i].Background = true
		}
		if steps[i].Background {
			steps[i].Shown = shown
		}
	}
}

// runBackground starts a command detached, with its output in a log, and
// watches the log (with short commands in the session) until it shows what
// the tutorial shows (or a server's first words), until it ends, or for a
// bounded wait. A command that ends is judged like any other; one that keeps
// running is left running for the steps after it.
func (s *student) runBackground(ctx context.Context, st Step) error {
	cmd := st.Command
	logPath := fmt.Sprintf("${TMPDIR:-/tmp}/smile-background-%d.log", cmd.Line)
	script := fmt.Sprintf("rm -f \"%[2]s.rc\"; { ( %[1]s\n) > \"%[2]s\" 2>&1 < /dev/null; echo $? > \"%[2]s.rc\"; } &",
		withInput(cmd.Text, st.Stdin), logPath)
	res, err := s.sess.Run(ctx, script, s.timeout)
	if err != nil {
		return fmt.Errorf("cannot start line %d in the background: %w", cmd.Line, err)
	}
	s.out.CommandsRun = append(s.out.CommandsRun, cmd.Text)
	wait := quietWait
	if hasExpectation(st.Shown) {
		wait = min(serverWait, s.timeout)
	}
	for {
		output, code, ended, err := s.peek(ctx, logPath)
		if err != nil {
			return fmt.Errorf("cannot watch line %d: %w", cmd.Line, err)
		}
		res.Output, res.Duration = output, time.Since(res.StartedAt)
		if ended {
			res.ExitCode = code
			s.auditCommand(cmd.Line, cmd.Text, res, 1, false)
			d := decide(s.classify(ctx, cmd, res).Category, s.behavior, s.resolution(cmd.Line, cmd.EndLine))
			d.Attempts = 1
			return s.judge(ctx, st, res, 1, d)
		}
		up := serverText.MatchString(output)
		if hasExpectation(st.Shown) {
			_, up = matchTolerant(st.Shown, output)
		}
		if up || res.Duration > wait || ctx.Err() != nil {
			break
		}
		time.Sleep(pollEvery)
	}
	s.auditCommand(cmd.Line, cmd.Text, res, 1, false)
	s.action(fmt.Sprintf("started line %d in the background: `%s`; it keeps running for the steps after it", cmd.Line, firstLine(cmd.Text)))
	s.env.Log.Info("Started in the background", "line", cmd.Line)
	s.last = &lastRun{command: cmd, output: res.Output, ok: true}
	return s.checkOutput(cmd, cmd.Expected, res.Output, cmd.Line, max(cmd.EndLine, lastExpected(cmd)), st.Tolerant)
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

func expectedText(lines []ExpectedLine) string {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l.Text + "\n")
	}
	return b.String()
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
