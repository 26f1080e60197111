package doctor

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/smile-loop/smile/runtime/docker"
	"github.com/smile-loop/smile/spec"
)

// Preflight checks, before apply starts anything, what a vendor CLI
// provider (claude, codex, gemini) needs from this machine: its key in the
// environment (when checkKey: the process that will run the loop is this
// one or a controller it starts, which inherits it) and its CLI in the image
// (seed E10), found as doctor finds it. A missing one is an error that says
// what the provider needs and how to work without a model, where the run
// would otherwise start a container and end as a blocker. literal and
// openai (whose server need not ask for a key) are not checked; neither is
// anything apply checks on its own (Docker reachable, the image present).
// from says where the provider was set ("" when nowhere: the default).
func Preflight(ctx context.Context, cfg spec.Config, from string, checkKey bool) error {
	p := cfg.LLMProvider
	cli := p.Info().CLI
	if cli == "" {
		return nil
	}
	var problems []string
	if keys := cfg.KeyVariables(); checkKey && len(keys) > 0 && !anySet(keys) {
		problems = append(problems, fmt.Sprintf("%s is not set", strings.Join(keys, " or ")))
	}
	if rt, err := docker.New(); err == nil {
		defer rt.Close()
		if rt.EnsureImage(ctx, cfg.ContainerImage) == nil {
			if _, err := cliVersion(ctx, rt, cfg.ContainerImage, cli); err != nil {
				problems = append(problems, err.Error())
			}
		}
	}
	if len(problems) == 0 {
		return nil
	}
	where := "set in " + from
	if from == "" {
		where = "the default: no llmProvider in the manifest or " + spec.ConfigFileName
	}
	return fmt.Errorf("llmProvider %s (%s) cannot run here: %s. It needs the `%s` CLI in containerImage (%s) and %s set; "+
		"to work offline, with no model or key, set llmProvider: literal (smile init writes a %s with it). `smile doctor` checks all of it",
		p, where, strings.Join(problems, "; "), cli, cfg.ContainerImage, strings.Join(cfg.KeyVariables(), " or "), spec.ConfigFileName)
}

func anySet(names []string) bool {
	for _, n := range names {
		if os.Getenv(n) != "" {
			return true
		}
	}
	return false
}
