package cli

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"time"

	"github.com/smile-loop/smile/spec/runfile"

	"github.com/spf13/cobra"

	"github.com/smile-loop/smile/reconcile"
	"github.com/smile-loop/smile/runtime"
	"github.com/smile-loop/smile/runtime/docker"
	"github.com/smile-loop/smile/spec"
)

type doctorCheck struct {
	name string
	ok   bool
	msg  string
	// skipped marks what doctor cannot check offline: neither ok nor a
	// failure.
	skipped bool
}

func newDoctorCommand(streams Streams) *cobra.Command {
	var file, wrapper string
	cmd := &cobra.Command{
		Use:   "doctor",
		Short: "Check that everything a run needs is here: Docker, the image, the network, the provider",
		Long: `Check what a run needs, one line per check: Docker reachable and its API version, the image
present, the bridge gateway usable for callbacks, the smile-wrapper binary, and for a model provider its
CLI and version (` + "`<cli> --version`" + ` in a container of the image), its key variable, and for openai
the endpoint's /models (the server's kind and the models it serves). "skip" lines say what only a model
call can tell. Exits non-zero when a check fails.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			if ctx == nil {
				ctx = context.Background()
			}
			cfg, source, err := doctorConfig(file)
			if err != nil {
				return err
			}
			fmt.Fprintf(streams.ErrOut, "checking with %s\n", source)
			failed := 0
			for _, c := range runChecks(ctx, cfg, wrapper) {
				word := "ok  "
				switch {
				case c.skipped:
					word = "skip"
				case !c.ok:
					word = "FAIL"
					failed++
				}
				fmt.Fprintf(streams.Out, "%s  %-12s %s\n", word, c.name, c.msg)
			}
			if failed > 0 {
				return &exitError{code: ExitError, err: fmt.Errorf("%d check(s) failed", failed)}
			}
			return nil
		},
	}
	cmd.Flags().StringVarP(&file, "filename", "f", "", "the SmileRun manifest whose settings to check (default: run.yaml here if present, else smile.json)")
	cmd.Flags().StringVar(&wrapper, "wrapper", "", "the smile-wrapper binary (default: beside smile, or $SMILE_WRAPPER)")
	return cmd
}

func doctorConfig(file string) (spec.Config, string, error) {
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

func runChecks(ctx context.Context, cfg spec.Config, wrapperFlag string) []doctorCheck {
	var checks []doctorCheck
	add := func(name string, err error, okMsg string) bool {
		if err != nil {
			checks = append(checks, doctorCheck{name: name, msg: err.Error()})
			return false
		}
		checks = append(checks, doctorCheck{name: name, ok: true, msg: okMsg})
		return true
	}
	wrapper, err := reconcile.FindWrapper(wrapperFlag)
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
		add("wrapper-run", reconcile.CheckWrapper(ctx, rt, wrapper, cfg.ContainerImage), wrapperRuns(wrapper, cfg.ContainerImage))
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
