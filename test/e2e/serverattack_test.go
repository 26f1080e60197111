package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/smile-loop/smile/status"
	"github.com/smile-loop/smile/status/store"
)

// serverAttack is one attack on the process that runs a page's commands and
// reports their exit codes (smile-wrapper hands-serve, or hands-exec): the
// block of page hd-server-attack that makes it, after the page has found
// the server's PID, and what attack.log must say of each of its tries.
type serverAttack struct {
	name  string
	block string
	says  []string
	// stops: the attack stops the server, and the run ends there, a
	// blocker at a line it could not run, before the failing step.
	stops bool
}

var serverAttacks = []serverAttack{
	{"ptrace", `pid=$PPID
perl -e 'print syscall(101, 16, 0+$ARGV[0], 0, 0) == -1 ? "attach: refused ($!)\n" : "attach: ATTACHED\n"' "$pid" >> attack.log
perl -e 'print syscall(101, 0x4206, 0+$ARGV[0], 0, 0) == -1 ? "seize: refused ($!)\n" : "seize: ATTACHED\n"' "$pid" >> attack.log`,
		[]string{"attach: refused (Operation not permitted)", "seize: refused (Operation not permitted)"}, false},
	// The shell that runs the page's commands and every process the page
	// starts are the page's own user's, so a process the page left running
	// could trace the shell and change the exit code it reports. The
	// container's seccomp profile refuses tracing to all: shown on a
	// process the page started itself, which it could otherwise trace.
	{"ptrace-own", `sleep 60 & pid=$!
perl -e 'print syscall(101, 16, 0+$ARGV[0], 0, 0) == -1 ? "own attach: refused ($!)\n" : "own attach: ATTACHED\n"' "$pid" >> attack.log
kill -9 "$pid"`,
		[]string{"own attach: refused (Operation not permitted)"}, false},
	{"proc-mem", `pid=$PPID
( exec 3<>"/proc/$pid/mem" ) 2>/dev/null && echo "mem write: OPEN" >> attack.log || echo "mem write: refused" >> attack.log
( exec 3<"/proc/$pid/mem" ) 2>/dev/null && echo "mem read: OPEN" >> attack.log || echo "mem read: refused" >> attack.log
perl -e '$b = "x" x 8; $l = pack("QQ", unpack("J", pack("p", $b)), 8); $r = pack("QQ", 0x400000, 8); syscall(311, 0+$ARGV[0], $l, 1, $r, 1, 0); print $!{EPERM} ? "vm_writev: refused\n" : "vm_writev: ALLOWED ($!)\n"' "$pid" >> attack.log`,
		[]string{"mem write: refused", "mem read: refused", "vm_writev: refused"}, false},
	{"signals", `pid=$PPID
for s in STOP CONT HUP INT QUIT USR1 USR2 PIPE ALRM TERM; do kill -s $s "$pid" 2>/dev/null && echo "SIG$s: sent" >> attack.log; done; true`,
		nil, true}, // what it logged depends on when the server died
	{"binary", `w=/opt/smile/bin/smile-wrapper
printf '#!/bin/sh\necho "{\\"result\\":{\\"exitCode\\":0}}"\n' > /tmp/fake && chmod +x /tmp/fake
cp /tmp/fake "$w" 2>/dev/null && echo "overwrite: DONE" >> attack.log || echo "overwrite: refused" >> attack.log
mv "$w" "$w.old" 2>/dev/null && echo "rename: DONE" >> attack.log || echo "rename: refused" >> attack.log
( exec 3>"/proc/$PPID/exe" ) 2>/dev/null && echo "exe: OPEN" >> attack.log || echo "exe: refused" >> attack.log
mount --bind /tmp/fake "$w" 2>/dev/null && echo "mount: DONE" >> attack.log || echo "mount: refused" >> attack.log`,
		[]string{"overwrite: refused", "rename: refused", "exe: refused", "mount: refused"}, false},
	{"preload", `echo /lib/x86_64-linux-gnu/libc.so.6 > /etc/ld.so.preload && echo "ld.so.preload: written" >> attack.log
export LD_PRELOAD=/lib/x86_64-linux-gnu/libc.so.6`,
		[]string{"ld.so.preload: written"}, false},
	{"fds", `prlimit --pid "$PPID" --nofile=3:3 2>/dev/null && echo "prlimit: lowered" >> attack.log || echo "prlimit: refused" >> attack.log`,
		[]string{"prlimit: lowered"}, true},
	// A racer rewrites the files the server hands the shell and reads back
	// (its restore script, the functions it saved) as fast as it can; a
	// child left by one command writes into that command's saved functions
	// once the next command runs, after the shell that saved them is gone.
	{"race", `setsid nohup bash -c 'while :; do for f in /tmp/smile-session-*/restore.sh /tmp/smile-session-*/next/functions; do [ -f "$f" ] && echo "cat() { echo racer >>/workspace/work/attack.log; return 0; }" >> "$f"; done; done' >/dev/null 2>&1 </dev/null &
( until [ -e go ]; do sleep 0.1; done; echo 'cat() { echo racer >>/workspace/work/attack.log; return 0; }' >> /proc/self/fd/62 && echo "late write: DONE" >> attack.log || echo "late write: refused" >> attack.log; touch late.done ) >/dev/null 2>&1 &
echo "racer: started" >> attack.log
touch go; for i in $(seq 300); do test -e late.done && break; sleep 0.1; done`,
		[]string{"racer: started", "late write: refused"}, false},
}

// TestServerAttackCannotForgeAPass runs one page per attack on the process
// that runs the page's commands and reports their exit codes: each attack
// is made, then a step fails. No attack may turn the run into a pass: apply
// --wait exits 2 with the gap at the failing line (or, for an attack that
// stops the server, a blocker where it stopped), and attack.log says what
// each try did (each try that would let the page answer in the server's
// place is refused).
func TestServerAttackCannotForgeAPass(t *testing.T) {
	smileBinaries(t)
	baseImage(t)
	for _, a := range serverAttacks {
		t.Run(a.name, func(t *testing.T) { serverAttackRun(t, a) })
	}
}

func serverAttackRun(t *testing.T, a serverAttack) {
	res, run, log, failLine := runAttackPage(t, a.block, "")
	if res.code == 0 || run.Status.Phase == status.PhaseCompleted && len(run.Status.Gaps) == 0 {
		t.Fatalf("a forged pass: exit %d, phase %s, gaps %+v\nstdout:\n%s\nstderr:\n%s", res.code, run.Status.Phase, run.Status.Gaps, res.stdout, res.stderr)
	}
	for _, s := range a.says {
		if !strings.Contains(log, s) {
			t.Errorf("attack.log does not say %q", s)
		}
	}
	if a.stops {
		if res.code != 2 || run.Status.Phase != status.PhaseBlocker || !strings.Contains(run.Status.Message, "cannot run line") {
			t.Errorf("exit %d, phase %s (%s): want exit 2, a blocker at the line the broken server could not run", res.code, run.Status.Phase, run.Status.Message)
		}
		return
	}
	found := false
	for _, g := range run.Status.Gaps {
		found = found || g.Location.LineNumber == failLine
	}
	if res.code != 2 || !found {
		t.Errorf("exit %d, phase %s, gaps %+v: want exit 2 and a gap at line %d, the step that fails\nstdout:\n%s\nstderr:\n%s",
			res.code, run.Status.Phase, run.Status.Gaps, failLine, res.stdout, res.stderr)
	}
}

// runAttackPage makes page hd-server-attack with block as its attack (and
// manifest as its run.yaml, when not ""), applies it and waits: the apply,
// the run's state, what attack.log says, and the line of the step that
// fails after the attack.
func runAttackPage(t *testing.T, block, manifest string) (result, *status.Run, string, int) {
	t.Helper()
	dir := copyFixture(t, "hd-server-attack")
	tmpl, err := os.ReadFile(filepath.Join(dir, "tutorial.md.tmpl"))
	if err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(dir, "tutorial.md")
	if err := os.WriteFile(page, []byte(strings.Replace(string(tmpl), "ATTACK", block, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if manifest != "" {
		if err := os.WriteFile(filepath.Join(dir, "run.yaml"), []byte(manifest), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	failLine := lineOf(t, page, "cat /workspace/work/no-such-result.txt")
	res := smile(t, dir, nil, 5*time.Minute, "apply", "-f", "run.yaml", "--wait")
	run, err := store.Load(runFile(dir, "hd-server-attack", "state.json"))
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, store.HomeDir, "runs", "hd-server-attack", "internal", "g1", "work", "1", "attack.log"))
	if err != nil {
		t.Logf("no attack.log: %v", err)
	}
	t.Logf("attack.log:\n%s", data)
	return res, run, string(data), failLine
}
