package transcript

import (
	"fmt"
	"strings"
)

// A page that shows a REPL in several blocks means one session: the
// variables, imports and open connections of the first block are there in
// the next, as they are for a reader who keeps the interpreter open between
// paragraphs. Each block of the session is typed into the same running
// program: the first starts it in the background, reading what is appended
// to a file, with its answers in another; each block appends its lines and
// then a line that prints a mark, and what the program answered up to the
// mark is the block's output. A block that starts the program with its own
// command (`$ python3` and then `>>>`) starts a new session, as it does for
// a reader.

// sessionMark is, per program, the line that prints its argument; a program
// without one keeps the one-process-per-block reading.
var sessionMark = map[string]func(token string) string{
	// The blank line first closes a compound statement left open.
	"python3": func(t string) string { return "\nprint(\"" + t + "\")" },
	"node":    func(t string) string { return "process.stdout.write(\"" + t + "\\n\")" },
}

// sessionQuiet makes a program's answers reach the file as they come: an
// interpreter writing to a file buffers what it prints.
var sessionQuiet = map[string]func(command string) string{
	"python3": func(c string) string { return strings.Replace(c, " -i -q ", " -u -i -q ", 1) },
}

// HasSession reports whether the program's blocks can share one session.
func HasSession(program string) bool { return sessionMark[program] != nil }

// InSession is the shell text that types stdin into the page's running
// session of the program command starts (starting it first, or again when
// fresh), and prints what it answered. ok is false when the program has no
// sessions (HasSession). id tells this block's mark apart.
func InSession(command, stdin string, fresh bool, id int) (script string, ok bool) {
	p := Started(command)
	if p == nil || sessionMark[p.Name] == nil || p.quiet == nil {
		return "", false
	}
	r := p.quiet(strings.TrimSpace(command))
	run := r.command
	if q := sessionQuiet[p.Name]; q != nil {
		run = q(run)
	}
	if r.pipe != "" {
		run += " | " + r.pipe
	}
	token := fmt.Sprintf("SMILE-SESSION-MARK-%d", id)
	input := stdin
	if !strings.HasSuffix(input, "\n") {
		input += "\n"
	}
	input += sessionMark[p.Name](token) + "\n"
	delim := "SMILE_SESSION_INPUT"
	for n := 1; strings.Contains(input, delim); n++ {
		delim = fmt.Sprintf("SMILE_SESSION_INPUT_%d", n)
	}
	restart := "! { [ -s \"$d/pid\" ] && kill -0 \"$(cat \"$d/pid\")\" 2>/dev/null; }"
	if fresh {
		restart = "true"
	}
	var b strings.Builder
	// A program the container lacks fails as it would typed at the
	// prompt ("command not found", 127), for the Student to judge.
	prog := strings.Fields(run)[0]
	fmt.Fprintf(&b, "command -v %s >/dev/null 2>&1 || { %s; exit; }\n", prog, prog)
	fmt.Fprintf(&b, "d=\"${TMPDIR:-/tmp}/smile-session-%s\"\n", p.Name)
	fmt.Fprintf(&b, "if %s; then\n", restart)
	b.WriteString("  [ -s \"$d/pid\" ] && kill \"$(cat \"$d/pid\")\" 2>/dev/null\n")
	b.WriteString("  rm -rf \"$d\" && mkdir -p \"$d\" && : > \"$d/in\" && : > \"$d/out\"\n")
	if r.first != "" {
		fmt.Fprintf(&b, "  printf '%%s' %s >> \"$d/in\"\n", shellQuote(r.first))
	}
	fmt.Fprintf(&b, "  ( tail -n +1 -f \"$d/in\" | %s >> \"$d/out\" 2>&1 & echo $! > \"$d/pid\" )\n", run)
	b.WriteString("fi\n")
	b.WriteString("start=$(stat -c %s \"$d/out\")\n")
	fmt.Fprintf(&b, "cat >> \"$d/in\" <<'%s'\n%s%s\n", delim, input, delim)
	fmt.Fprintf(&b, "until tail -c +$((start+1)) \"$d/out\" | grep -q '%s'; do kill -0 \"$(cat \"$d/pid\")\" 2>/dev/null || break; sleep 0.1; done\n", token)
	fmt.Fprintf(&b, "tail -c +$((start+1)) \"$d/out\" | sed '/%s/,$d'", token)
	return b.String(), true
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// Shared names the sessions more than one of names (one per block, "" for
// none) belongs to: those blocks share one running program.
func Shared(names []string) map[string]bool {
	count := map[string]int{}
	for _, n := range names {
		if n != "" {
			count[n]++
		}
	}
	shared := map[string]bool{}
	for n, c := range count {
		shared[n] = c > 1
	}
	return shared
}
