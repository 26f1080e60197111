package e2e

import (
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestOpenAIKeyNeverReachesTheContainer runs the openai provider against the
// fake server with a fake key and keeps the containers (the run ends in a
// blocker): the key is in no container's configuration, not in PID 1's
// environment nor any file the commands can read, and not in the reports,
// the state, the logs or the output.
func TestOpenAIKeyNeverReachesTheContainer(t *testing.T) {
	fakesImage(t)
	dir := copyFixture(t, "providers-openai")
	out, err := exec.Command("docker", "network", "inspect", "bridge", "--format", "{{(index .IPAM.Config 0).Gateway}}").Output()
	if err != nil {
		t.Fatal(err)
	}
	gw := strings.TrimSpace(string(out))
	ln, err := net.Listen("tcp", net.JoinHostPort(gw, "0"))
	if err != nil {
		t.Fatal(err)
	}
	hs := &http.Server{Handler: &chatServer{t: t, script: openAIScript()}}
	go func() { _ = hs.Serve(ln) }()
	defer hs.Close()
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	gatewayAddr = gw + "/" + port
	manifest := `apiVersion: smile.dev/v1alpha1
kind: SmileRun
metadata: {name: hd-secrets}
spec:
  llmProvider: openai
  containerImage: smile-fakes:latest
  maxIterations: 2
  timeout: 300
  models: {student: qwen3-coder:30b, mentor: qwen3-coder:30b}
  openai: {baseUrl: "http://host.docker.internal:` + port + `/v1", apiKeyEnv: LOCAL_LLM_KEY}
  container: {keepOnFailure: true}
  studentBehavior: {timeoutSeconds: 20}
`
	if err := os.WriteFile(filepath.Join(dir, "run.yaml"), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	const key = "sk-HANDSFAKEKEY-must-never-leak-9876543210"
	res := smile(t, dir, []string{"LOCAL_LLM_KEY=" + key}, 4*time.Minute, "apply", "-f", "run.yaml", "--wait")
	if res.code != 2 {
		t.Fatalf("exit %d, want 2 (a blocker, so the containers are kept)\nstderr:\n%s", res.code, res.stderr)
	}
	if strings.Contains(res.stdout+res.stderr, key) {
		t.Error("the key is in smile's output")
	}
	kept := dirContainers(t, dir)
	if len(kept) == 0 {
		t.Fatal("no container was kept: nothing to inspect")
	}
	for _, c := range kept {
		t.Cleanup(func() { _ = exec.Command("docker", "rm", "-f", c.ID).Run() })
		inspect, err := exec.Command("docker", "inspect", c.ID).Output()
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(inspect), key) || strings.Contains(string(inspect), "LOCAL_LLM_KEY") {
			t.Errorf("docker inspect %s shows the key or its variable", c.Name)
		}
		if out, err := exec.Command("docker", "start", c.ID).CombinedOutput(); err != nil {
			t.Fatalf("docker start %s: %v: %s", c.Name, err, out)
		}
		// What any tutorial command could read: every process's environment
		// and command line, every file outside /proc and /sys. The key comes
		// on stdin: on the command line the probe would find itself.
		// The pattern goes through a file too: on grep's command line the
		// probe would find its own grep in /proc.
		probe := `read -r k; printf '%s\n' "$k" >/tmp/.smile-probe-pattern; ` +
			`cat /proc/[0-9]*/environ /proc/[0-9]*/cmdline 2>/dev/null | tr '\0' '\n' | grep -cFf /tmp/.smile-probe-pattern;` +
			`grep -rlF --exclude-dir=proc --exclude-dir=sys --exclude=.smile-probe-pattern -f /tmp/.smile-probe-pattern / 2>/dev/null | head -n 5; echo probed`
		cmd := exec.Command("docker", "exec", "-i", c.ID, "sh", "-c", probe)
		cmd.Stdin = strings.NewReader(key + "\n")
		out, err := cmd.CombinedOutput()
		if err != nil && !strings.Contains(string(out), "probed") {
			t.Fatalf("probe %s: %v: %s", c.Name, err, out)
		}
		if got := strings.TrimSpace(string(out)); got != "0\nprobed" {
			t.Errorf("inside %s the key is readable:\n%s", c.Name, got)
		}
		pid1, _ := exec.Command("docker", "exec", c.ID, "sh", "-c", "tr '\\0' '\\n' </proc/1/environ").Output()
		if strings.Contains(string(pid1), key) || strings.Contains(string(pid1), "SMILE_TOKEN") {
			t.Errorf("PID 1 of %s has the key or a token in its environment:\n%s", c.Name, pid1)
		}
		_ = exec.Command("docker", "stop", "-t", "1", c.ID).Run()
	}
	// Reports, state, logs, results: every file the run wrote.
	err = filepath.Walk(dir, func(path string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return nil
		}
		data, err := os.ReadFile(path)
		if err == nil && strings.Contains(string(data), key) {
			t.Errorf("%s holds the key", path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
