package e2e

import (
	"strings"
	"testing"

	"github.com/smile-loop/smile/status"
)

// TestServerAttackAsAccount: with container.user, the page's commands run
// as that account while the process that runs them and reports their exit
// codes stays root, so the attacks that, as the same user, could at least
// stop it (signals, lowering its file limit) and poison every later exec
// (/etc/ld.so.preload) are all refused: the server lives on, the failing
// step is a gap at its line, and the page's files are the account's.
func TestServerAttackAsAccount(t *testing.T) {
	smileBinaries(t)
	baseImage(t)
	attack := `id -un >> attack.log
for s in STOP TERM KILL; do kill -s $s "$PPID" 2>/dev/null && echo "SIG$s: sent" >> attack.log || echo "SIG$s: refused" >> attack.log; done
prlimit --pid "$PPID" --nofile=3:3 2>/dev/null && echo "prlimit: lowered" >> attack.log || echo "prlimit: refused" >> attack.log
( echo /lib/x86_64-linux-gnu/libc.so.6 > /etc/ld.so.preload ) 2>/dev/null && echo "ld.so.preload: written" >> attack.log || echo "ld.so.preload: refused" >> attack.log
( exec 3<"/proc/$PPID/environ" ) 2>/dev/null && echo "environ: OPEN" >> attack.log || echo "environ: refused" >> attack.log
true`
	manifest := "apiVersion: smile.dev/v1alpha1\nkind: SmileRun\nmetadata: {name: hd-server-attack}\nspec:\n  llmProvider: literal\n  maxIterations: 1\n  timeout: 300\n  container: {user: nobody}\n"
	res, run, log, failLine := runAttackPage(t, attack, manifest)
	if log == "" {
		t.Fatalf("no attack.log\nstdout:\n%s\nstderr:\n%s", res.stdout, res.stderr)
	}
	for _, s := range []string{"nobody", "SIGSTOP: refused", "SIGTERM: refused", "SIGKILL: refused", "prlimit: refused", "ld.so.preload: refused", "environ: refused"} {
		if !strings.Contains(log, s) {
			t.Errorf("attack.log does not say %q", s)
		}
	}
	found := false
	for _, g := range run.Status.Gaps {
		found = found || g.Location.LineNumber == failLine
	}
	if res.code != 2 || run.Status.Phase == status.PhaseCompleted || !found {
		t.Errorf("exit %d, phase %s (%s), gaps %+v: want exit 2 and a gap at line %d, the step that fails, the server alive\nstdout:\n%s\nstderr:\n%s",
			res.code, run.Status.Phase, run.Status.Message, run.Status.Gaps, failLine, res.stdout, res.stderr)
	}
}
