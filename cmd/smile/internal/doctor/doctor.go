// Package doctor runs the checks of `smile doctor`: Docker reachable, the
// image present, the wrapper starts in it, the bridge gateway usable for
// callbacks, and for a model provider its CLI, key and endpoint.
package doctor

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"time"

	"github.com/smile-loop/smile/reconcile/wrapperbin"
	"github.com/smile-loop/smile/runtime"
	"github.com/smile-loop/smile/runtime/docker"
	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/spec/runfile"
)

// Check is one line of doctor's answer.
type Check struct {
	Name string
	OK   bool
	Msg  string
	// Skipped marks what doctor cannot check offline: neither ok nor a
	// failure.
	Skipped bool
}

// Config is the configuration doctor checks: the manifest's (file, else
// run.yaml here), else smile.json here, else the defaults; the second value
// says which, in words.
func Config(file string) (spec.Config, string, error) {
	if file == "" {
		if _, err := os.Stat("run.yaml"); err == nil {
			file = "run.yaml"
		}
	}
	if file == "" {
		cfg, err := spec.LoadConfig(spec.ConfigFileName)
		if _, serr := os.Stat(spec.ConfigFileName); serr != nil && err == nil {
			return cfg, fmt.Sprintf("the defaults (no run.yaml or %s here): llmProvider %s, which needs its CLI and a key; "+
				"to work offline, with no model or key, set llmProvider: literal (smile init writes a %s with it)",
				spec.ConfigFileName, cfg.LLMProvider, spec.ConfigFileName), nil
		}
		return cfg, spec.ConfigFileName, err
	}
	m, err := runfile.Load(file)
	if err != nil {
		return spec.Config{}, "", err
	}
	cfg, err := m.Resolve(filepath.Dir(file))
	return cfg, file, err
}

// Run runs every check that applies to cfg, in order; it stops after a
// failed Docker check, since nothing else can be checked then.
func Run(ctx context.Context, cfg spec.Config, wrapperFlag string) []Check {
	var checks []Check
	add := func(name string, err error, okMsg string) bool {
		if err != nil {
			checks = append(checks, Check{Name: name, Msg: err.Error()})
			return false
		}
		checks = append(checks, Check{Name: name, OK: true, Msg: okMsg})
		return true
	}
	wrapper, err := wrapperbin.Find(wrapperFlag)
	add("wrapper", err, wrapper)

	rt, err := docker.New()
	if err == nil {
		defer rt.Close()
	}
	var info runtime.Info
	if err == nil {
		ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		info, err = rt.Info(ctx)
		cancel()
	}
	if !add("docker", err, fmt.Sprintf("reachable: server %s, API %s", info.ServerVersion, info.APIVersion)) {
		return checks
	}
	imageOK := add("image", rt.EnsureImage(ctx, cfg.ContainerImage), cfg.ContainerImage+" is present")
	if wrapper != "" && imageOK {
		add("wrapper-run", wrapperbin.Check(ctx, rt, wrapper, cfg.ContainerImage), wrapperRuns(wrapper, cfg.ContainerImage))
	}

	ln, err := gatewayListen(info.GatewayIP)
	if ln != nil {
		ln.Close()
	}
	add("gateway", err, fmt.Sprintf("%s: containers can call back (listening there works)", info.GatewayIP))

	if cfg.LLMProvider == spec.ProviderLiteral {
		add("provider", nil, fmt.Sprintf("%s: built in, no model or credentials needed", cfg.LLMProvider))
		return checks
	}
	return append(checks, providerChecks(ctx, rt, cfg, imageOK, info.GatewayIP)...)
}

// wrapperRuns is the doctor's line for a wrapper that starts in the image.
func wrapperRuns(wrapper, image string) string {
	interp, err := runtime.Interpreter(wrapper)
	if err != nil || interp == "" {
		return "static: starts in " + image + " and in any other image"
	}
	return fmt.Sprintf("starts in %s, but it is dynamically linked (needs %s): it would not start in alpine or distroless images; hack/build.sh builds it static", image, interp)
}

func gatewayListen(ip string) (net.Listener, error) {
	if parsed := net.ParseIP(ip); parsed == nil || parsed.IsUnspecified() {
		return nil, fmt.Errorf("no usable bridge gateway address (got %q)", ip)
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(ip, "0"))
	if err != nil {
		return nil, fmt.Errorf("cannot listen on the bridge gateway %s: %w", ip, err)
	}
	return ln, nil
}
