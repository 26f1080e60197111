package cli

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/smile-loop/smile/cmd/smile/internal/gate"

	"github.com/smile-loop/smile/spec/runfile"

	"github.com/spf13/cobra"

	"github.com/smile-loop/smile/spec"
)

func newHookCommand(streams Streams) *cobra.Command {
	var failOn, wrapper string
	cmd := &cobra.Command{
		Use:   "hook [FILE...]",
		Short: "Pre-commit hook: check the tutorials whose inputs are among FILE",
		Long: `For each SmileRun manifest of the workspace (the git repository) whose inputs (the manifest, its smile.json,
the tutorial, the tutorial's images) include one of FILE (as pre-commit passes the staged files), run
` + "`smile apply --wait`" + `. Fails when a run finds gaps at or above --fail-on, does not complete or is inconclusive (it exercised
less of the page than minCoverage). When no
FILE is an input of any run, nothing runs.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			if ctx == nil {
				ctx = context.Background()
			}
			return runHook(ctx, streams, args, failOn, wrapper)
		},
	}
	cmd.Flags().StringVar(&failOn, "fail-on", "major", "the lowest gap severity that fails the commit: "+gate.Values+"; environment findings fail only when named")
	cmd.Flags().StringVar(&wrapper, "wrapper", "", "the smile-wrapper binary (default: beside smile, or $SMILE_WRAPPER)")
	return cmd
}

func runHook(ctx context.Context, streams Streams, files []string, failOn, wrapper string) error {
	if _, err := gate.Parse(failOn); err != nil {
		return err
	}
	changed := map[string]bool{}
	for _, f := range files {
		if abs, err := filepath.Abs(f); err == nil {
			changed[abs] = true
		}
	}
	// The whole workspace (the repository pre-commit runs in), from any
	// folder inside it.
	manifests, err := findManifests(spec.FindWorkspace("."))
	if err != nil {
		return err
	}
	var toRun []string
	for _, m := range manifests {
		manifest, err := runfile.Load(m)
		if err != nil {
			continue
		}
		for _, in := range spec.InputFiles(manifest, m) {
			if changed[in] {
				toRun = append(toRun, m)
				break
			}
		}
	}
	if len(toRun) == 0 {
		fmt.Fprintln(streams.ErrOut, "smile: no tutorial (or its manifest, smile.json or images) in this commit: nothing to check")
		return nil
	}
	worst := 0
	for _, m := range toRun {
		o := &applyOptions{file: m, wait: true, failOn: failOn, wrapper: wrapper, quiet: true}
		err := o.run(ctx, streams)
		var ee *exitError
		switch {
		case err == nil:
		case errors.As(err, &ee):
			if ee.err != nil {
				fmt.Fprintf(streams.ErrOut, "error: %v\n", ee.err)
			}
			worst = worseExit(worst, ee.code) // 1 over 3 over 2
		default:
			fmt.Fprintf(streams.ErrOut, "error: %s: %v\n", m, err)
			worst = worseExit(worst, ExitError)
		}
	}
	if worst != 0 {
		return &exitError{code: worst}
	}
	return nil
}

// findManifests lists the SmileRun manifests under dir (YAML files whose kind
// is SmileRun), skipping version control, dependencies and SMILE's own files.
func findManifests(dir string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", ".smile", "node_modules", "vendor":
				return filepath.SkipDir
			}
			return nil
		}
		ext := strings.ToLower(filepath.Ext(path))
		if ext != ".yaml" && ext != ".yml" {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil || !strings.Contains(string(data), "SmileRun") {
			return nil
		}
		if _, err := runfile.Parse(data, path); err != nil {
			return nil
		}
		abs, err := filepath.Abs(path)
		if err == nil {
			out = append(out, abs)
		}
		return nil
	})
	sort.Strings(out)
	return out, err
}
