package doctor

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/smile-loop/smile/learner/openai"
	"github.com/smile-loop/smile/runtime"
	"github.com/smile-loop/smile/spec"
)

// readVersions are the CLI versions whose flags and output SMILE's
// providers were written against (docs/providers.md).
var readVersions = map[string]string{"claude": "2.1.330", "codex": "0.169.0", "gemini": "0.61.0"}

// providerChecks are the checks of a model provider: what can be known
// without calling the model, and a line for what cannot.
func providerChecks(ctx context.Context, rt runtime.Runtime, cfg spec.Config, imageOK bool, gatewayIP string) []Check {
	p := cfg.LLMProvider
	cli := p.Info().CLI
	var checks []Check
	switch {
	case cli == "":
	case !imageOK:
		checks = append(checks, Check{Name: "provider", Msg: fmt.Sprintf("%s: cannot look for the `%s` CLI without the image", p, cli)})
	default:
		checks = append(checks, cliCheck(ctx, rt, cfg.ContainerImage, cli, p))
	}
	checks = append(checks, credentialsCheck(cfg))
	if p == spec.ProviderOpenAI {
		checks = append(checks, endpointCheck(ctx, cfg, gatewayIP))
	}
	return append(checks, Check{Name: "not-checked", Skipped: true, Msg: notChecked(p)})
}

// cliCheck runs `<cli> --version` in a throwaway container of the image.
func cliCheck(ctx context.Context, rt runtime.Runtime, image, cli string, p spec.Provider) Check {
	version, err := cliVersion(ctx, rt, image, cli)
	if err != nil {
		return Check{Name: "provider", Msg: err.Error()}
	}
	msg := fmt.Sprintf("%s: `%s` %s is in %s", p, cli, version, image)
	if want := readVersions[cli]; !strings.Contains(version, want) {
		msg += fmt.Sprintf(" (SMILE's flags were read against %s: compare `%s --help` if a run fails)", want, cli)
	}
	return Check{Name: "provider", OK: true, Msg: msg}
}

// cliVersion is what `<cli> --version` prints in a container of image,
// with no network (the version needs none).
func cliVersion(ctx context.Context, rt runtime.Runtime, image, cli string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	name := fmt.Sprintf("smile-doctor-%d", os.Getpid())
	c, err := rt.Start(ctx, runtime.ContainerSpec{
		Name: name, Image: image, Cmd: []string{"sleep", "60"}, Network: "none",
		Labels: map[string]string{runtime.LabelOwner: "smile-doctor"},
	})
	if err != nil {
		return "", fmt.Errorf("start a container from %s: %w", image, err)
	}
	defer rt.Remove(context.Background(), c.Name)
	code, out, err := rt.Exec(ctx, c.Name, []string{"sh", "-c", "command -v " + cli + " >/dev/null || exit 127; exec " + cli + " --version"}, 30*time.Second)
	switch {
	case err != nil:
		return "", fmt.Errorf("run `%s --version` in %s: %w", cli, image, err)
	case code == 127:
		return "", fmt.Errorf("LLM CLI not available: %s is not installed in %s (see docs/providers.md, The image)", cli, image)
	case code != 0:
		return "", fmt.Errorf("`%s --version` in %s exited %d: %s", cli, image, code, strings.TrimSpace(out))
	}
	return firstLine(out), nil
}

func credentialsCheck(cfg spec.Config) Check {
	p := cfg.LLMProvider
	names := cfg.KeyVariables() // the controller passes exactly these
	for _, n := range names {
		if os.Getenv(n) != "" {
			return Check{Name: "credentials", OK: true, Msg: fmt.Sprintf("%s: %s is set (its value is not checked)", p, n)}
		}
	}
	if p == spec.ProviderOpenAI {
		// Local servers need no key unless they were started with one.
		return Check{Name: "credentials", OK: true, Msg: fmt.Sprintf("%s: %s is not set: no key is sent (right for Ollama, and for vLLM and llama-server without --api-key)", p, cfg.OpenAI.APIKeyEnv)}
	}
	msg := fmt.Sprintf("%s: %s is not set (to work offline, with no model or key: llmProvider: literal)", p, strings.Join(names, " or "))
	notKeys := p.Info().NotKeys
	for _, n := range slices.Sorted(maps.Keys(notKeys)) {
		if os.Getenv(n) != "" {
			// A variable the user set believing it is the key: say why it
			// is not, rather than only that the key is missing.
			msg = fmt.Sprintf("%s: %s is not set; %s is, but %s", p, strings.Join(names, " or "), n, notKeys[n])
		}
	}
	return Check{Name: "credentials", Msg: msg}
}

// endpointCheck asks the openai endpoint for its models, from the host.
// The base URL is the container's view: host.docker.internal is the bridge
// gateway here.
func endpointCheck(ctx context.Context, cfg spec.Config, gatewayIP string) Check {
	base := hostView(cfg.OpenAI.BaseURL, gatewayIP)
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimRight(base, "/")+"/models", nil)
	if err != nil {
		return Check{Name: "endpoint", Msg: fmt.Sprintf("openai.baseUrl %q: %v", cfg.OpenAI.BaseURL, err)}
	}
	if key := os.Getenv(cfg.OpenAI.APIKeyEnv); key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return Check{Name: "endpoint", Msg: fmt.Sprintf("%s/models does not answer: %v (is the server running, and listening on the bridge, e.g. OLLAMA_HOST=0.0.0.0?)", base, err)}
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	if resp.StatusCode/100 != 2 {
		return Check{Name: "endpoint", Msg: fmt.Sprintf("%s/models answered HTTP %d: %s", base, resp.StatusCode, firstLine(string(body)))}
	}
	return modelsCheck(base, resp.Header, body, cfg.Models)
}

// modelsCheck reads a /models answer: which server it is, and whether it
// serves the models the run asks for.
func modelsCheck(base string, h http.Header, body []byte, models spec.Models) Check {
	kind := openai.KindFromResponse(h, body)
	if kind == openai.ServerUnknown {
		kind = openai.KindFromModels(body)
	}
	server := string(kind)
	if server == "" {
		server = "an OpenAI-compatible server (kind not told)"
	}
	var list struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	if err := json.Unmarshal(body, &list); err != nil {
		return Check{Name: "endpoint", Msg: fmt.Sprintf("%s/models is not an OpenAI model list: %v", base, err)}
	}
	served := make([]string, 0, len(list.Data))
	for _, m := range list.Data {
		served = append(served, m.ID)
	}
	for _, want := range []string{models.Student, models.Mentor} {
		if want == "" {
			return Check{Name: "endpoint", Msg: fmt.Sprintf("%s answers, but the openai provider needs models.student and models.mentor set (served: %s)", base, strings.Join(served, ", "))}
		}
		if !slices.Contains(served, want) {
			return Check{Name: "endpoint", Msg: fmt.Sprintf("%s (%s) does not serve %q; it serves: %s", base, server, want, strings.Join(served, ", "))}
		}
	}
	return Check{Name: "endpoint", OK: true, Msg: fmt.Sprintf("%s answers /models: %s, serving %s", base, server, strings.Join(uniq(models.Student, models.Mentor), " and "))}
}

// hostView is the base URL as the host reaches it.
func hostView(base, gatewayIP string) string {
	u, err := url.Parse(base)
	if err != nil || u.Hostname() != "host.docker.internal" || net.ParseIP(gatewayIP) == nil {
		return base
	}
	if port := u.Port(); port != "" {
		u.Host = net.JoinHostPort(gatewayIP, port)
	} else {
		u.Host = gatewayIP
	}
	return u.String()
}

// notChecked says what only a run can tell.
func notChecked(p spec.Provider) string {
	if p == spec.ProviderOpenAI {
		return "openai: whether the key is accepted, the server's tool calling (vLLM: --enable-auto-tool-choice --tool-call-parser; llama-server: --jinja), its context size and image support: only a model call tells; the first one names what to change"
	}
	return fmt.Sprintf("%s: whether the key is accepted and the API is reachable from the container: only a model call tells (an auth failure names the variable)", p)
}

func uniq(vs ...string) []string {
	var out []string
	for _, v := range vs {
		if !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

// firstLine is the first line of s, trimmed, without a mark for the rest.
func firstLine(s string) string {
	l, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return l
}
