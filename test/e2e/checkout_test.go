package e2e

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/smile-loop/smile/status"
	"github.com/smile-loop/smile/status/store"
)

// TestCheckoutCredentialsStayHidden runs a page at the root of a git checkout
// whose .git/config holds a CI job's credential, as actions/checkout leaves
// it (http.extraheader). The container must see no .git at all (the page
// expects an empty listing and completes), and neither that credential nor
// a token the page prints may be kept in any report, log or state file.
func TestCheckoutCredentialsStayHidden(t *testing.T) {
	smileBinaries(t)
	baseImage(t)
	dir := copyFixture(t, "hd-checkout")
	const header = "AUTHORIZATION: basic eC1hY2Nlc3MtdG9rZW46Z2hzX2NoZWNrb3V0U2VjcmV0MDAx"
	for _, args := range [][]string{{"init", "-q"}, {"config", "http.https://github.com/.extraheader", header}} {
		if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v: %s", args, err, out)
		}
	}
	res := smile(t, dir, nil, 5*time.Minute, "apply", "-f", "run.yaml", "--wait")
	run, err := store.Load(runFile(dir, "hd-checkout", "state.json"))
	if err != nil {
		t.Fatal(err)
	}
	if res.code != 0 || run.Status.Phase != status.PhaseCompleted || len(run.Status.Gaps) != 0 {
		t.Fatalf("apply --wait: exit %d, phase %s, gaps %+v; want a clean completion (no .git in the container)\nstdout:\n%s\nstderr:\n%s",
			res.code, run.Status.Phase, run.Status.Gaps, res.stdout, res.stderr)
	}
	secrets := []string{"eC1hY2Nlc3MtdG9rZW46Z2hzX2NoZWNrb3V0U2VjcmV0MDAx", "Zq81Lk0pWm3Xs7Vb2Nd5"}
	audit, err := os.ReadFile(runFile(dir, "hd-checkout", "smile-audit.log"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(audit), "oauth2:[REDACTED]@git.example.org") {
		t.Errorf("the audit log does not show the printed token redacted (did the step run?):\n%s", audit)
	}
	err = filepath.WalkDir(filepath.Join(dir, store.HomeDir), func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, s := range secrets {
			if strings.Contains(string(data), s) {
				t.Errorf("%s keeps the secret %s", path, s)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
