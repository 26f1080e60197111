package e2e

import (
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"testing"
	"time"
)

// TestProvidersDoctor: `smile doctor` with a model provider runs the CLI's
// --version in the configured image, checks the key variable and, for
// openai, the endpoint's /models, and says what it could not check.
func TestProvidersDoctor(t *testing.T) {
	fakesImage(t)
	dir := copyFixture(t, "providers-claude")
	writeFile(t, filepath.Join(dir, "pv-no-cli.yaml"), []byte("apiVersion: smile.dev/v1alpha1\nkind: SmileRun\nmetadata: {name: pv-no-cli}\nspec:\n  llmProvider: codex\n  containerImage: smile-base:latest\n"))
	models := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/models" {
			http.NotFound(w, r)
			return
		}
		_, _ = w.Write([]byte(`{"object":"list","data":[{"id":"qwen3-coder:30b","object":"model","created":1751000000,"owned_by":"library"}]}`))
	}))
	defer models.Close()
	writeFile(t, filepath.Join(dir, "pv-openai.yaml"), []byte("apiVersion: smile.dev/v1alpha1\nkind: SmileRun\nmetadata: {name: pv-openai}\nspec:\n  llmProvider: openai\n  containerImage: smile-fakes:latest\n"+
		"  models: {student: qwen3-coder:30b, mentor: qwen3-coder:30b}\n  openai: {baseUrl: \""+models.URL+"/v1\", apiKeyEnv: PV_NO_KEY}\n"))
	cases := []struct {
		name     string
		env      []string
		args     []string
		wantExit bool // a non-zero exit
		want     []string
	}{
		{name: "claude without its key", env: []string{"ANTHROPIC_API_KEY="}, args: []string{"-f", "run.yaml"}, wantExit: true, want: []string{
			`(?m)^ok\s+provider\s+claude: ` + "`claude`" + ` 2\.1\.330 \(Claude Code\) is in smile-fakes:latest$`,
			`(?m)^FAIL\s+credentials\s+claude: ANTHROPIC_API_KEY is not set`,
			`(?m)^skip\s+not-checked\s+claude: whether the key is accepted`}},
		{name: "claude with its key", env: []string{"ANTHROPIC_API_KEY=sk-ant-pv-doctor"}, args: []string{"-f", "run.yaml"}, want: []string{
			`(?m)^ok\s+credentials\s+claude: ANTHROPIC_API_KEY is set`}},
		{name: "codex missing from the image", env: []string{"CODEX_API_KEY=x"}, args: []string{"-f", "pv-no-cli.yaml"}, wantExit: true, want: []string{
			`(?m)^FAIL\s+provider\s+LLM CLI not available: codex is not installed in smile-base:latest`}},
		{name: "openai endpoint", args: []string{"-f", "pv-openai.yaml"}, want: []string{
			`(?m)^ok\s+credentials\s+openai: PV_NO_KEY is not set: no key is sent`,
			`(?m)^ok\s+endpoint\s+.*/v1 answers /models: Ollama, serving qwen3-coder:30b$`,
			`(?m)^skip\s+not-checked\s+openai: .*tool calling`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := smile(t, dir, c.env, 2*time.Minute, append([]string{"doctor"}, c.args...)...)
			if (res.code != 0) != c.wantExit {
				t.Errorf("exit %d, want non-zero: %v\nstdout:\n%s\nstderr:\n%s", res.code, c.wantExit, res.stdout, res.stderr)
			}
			for _, w := range c.want {
				if !regexp.MustCompile(w).MatchString(res.stdout) {
					t.Errorf("no line matches %s:\n%s", w, res.stdout)
				}
			}
		})
	}
}
