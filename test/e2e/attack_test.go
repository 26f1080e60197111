package e2e

import (
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/smile-loop/smile/status/store"

	"github.com/smile-loop/smile/status"
)

// TestAttackCannotChangeTheVerdict runs a tutorial that attacks SMILE from
// inside its container: it searches every readable file and every process's
// environment and command line for tokens, attempt names and callback
// addresses, posts a forged "completed" and a forged Mentor note to every
// address it found and to the bridge gateway on the controller's callback
// port (given to it, as if guessed), and then fails on purpose. The verdict
// must not move: exit 2, the gap at the failing line, no token found, no
// forged post accepted.
func TestAttackCannotChangeTheVerdict(t *testing.T) {
	smileBinaries(t)
	baseImage(t)
	dir := copyFixture(t, "hd-attack")
	if err := os.MkdirAll(filepath.Join(dir, store.HomeDir), 0o755); err != nil {
		t.Fatal(err)
	}
	stopControllers(t, dir)
	info := startController(t, dir)
	_, port, err := net.SplitHostPort(info.CallbackAddr)
	if err != nil {
		t.Fatalf("callback address %q: %v", info.CallbackAddr, err)
	}
	tmpl, err := os.ReadFile(filepath.Join(dir, "tutorial.md.tmpl"))
	if err != nil {
		t.Fatal(err)
	}
	tutorial := strings.ReplaceAll(strings.ReplaceAll(string(tmpl), "CALLBACK_PORT", port), "CALLBACK_ADDR", info.CallbackAddr)
	if err := os.WriteFile(filepath.Join(dir, "tutorial.md"), []byte(tutorial), 0o644); err != nil {
		t.Fatal(err)
	}
	failLine := lineOf(t, filepath.Join(dir, "tutorial.md"), "cat /workspace/work/no-such-result.txt")

	res := smile(t, dir, nil, 5*time.Minute, "apply", "-f", "run.yaml", "--wait")
	run, err := store.Load(runFile(dir, "hd-attack", "state.json"))
	if err != nil {
		t.Fatal(err)
	}
	logData, _ := os.ReadFile(filepath.Join(dir, store.HomeDir, "runs", "hd-attack", "internal", "g1", "work", "1", "attack.log"))
	attack := string(logData)
	t.Logf("what the attack found and what the controller answered:\n%s", attack)
	if res.code != 2 || run.Status.Phase == status.PhaseCompleted {
		t.Fatalf("apply --wait: exit %d, phase %s; want exit 2 and the loop not completed\nstderr:\n%s", res.code, run.Status.Phase, res.stderr)
	}
	found := false
	for _, g := range run.Status.Gaps {
		found = found || g.Location.LineNumber == failLine
	}
	if !found {
		t.Errorf("gaps %+v: want one at line %d, the step that fails", run.Status.Gaps, failLine)
	}
	for _, n := range run.Status.MentorNotes {
		if strings.Contains(n.Answer, "forged") {
			t.Errorf("a forged Mentor note was recorded: %+v", n)
		}
	}
	if attack == "" {
		t.Fatal("the attack left no log: it did not run")
	}
	if !strings.Contains(attack, "NO TOKEN") || strings.Contains(attack, "FOUND token") {
		t.Errorf("the attack found a token")
	}
	if regexp.MustCompile(`-> HTTP/1\.1 2\d\d`).MatchString(attack) {
		t.Errorf("the controller accepted a forged post")
	}
	// The attack did reach the controller's callback listener, which
	// refused it: the test exercised the real path.
	if !regexp.MustCompile(`POST [0-9.]+:` + port + `/api/student/result .*-> HTTP/1\.1 40[13]`).MatchString(attack) {
		t.Errorf("no forged result reached the callback listener on the gateway: the attack did not test it")
	}
}
