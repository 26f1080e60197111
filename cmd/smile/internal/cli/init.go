package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/smile-loop/smile/spec/runfile"

	"github.com/spf13/cobra"
)

func newInitCommand(streams Streams) *cobra.Command {
	var dir, name string
	cmd := &cobra.Command{
		Use:   "init",
		Short: "Scaffold smile.json, run.yaml and a starter tutorial (never overwrites)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return scaffold(streams, dir, name)
		},
	}
	cmd.Flags().StringVar(&dir, "dir", ".", "the folder to scaffold")
	cmd.Flags().StringVar(&name, "name", "", "the run's name (default: the folder's name)")
	return cmd
}

var notDNS = regexp.MustCompile(`[^a-z0-9-]+`)

func scaffold(streams Streams, dir, name string) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	if name == "" {
		name = strings.Trim(notDNS.ReplaceAllString(strings.ToLower(filepath.Base(abs)), "-"), "-")
		if name == "" {
			name = "tutorial"
		}
		if len(name) > 63 {
			name = strings.Trim(name[:63], "-")
		}
	}
	manifest := fmt.Sprintf(starterManifest, name)
	if _, err := runfile.Parse([]byte(manifest), "run.yaml"); err != nil {
		return fmt.Errorf("--name: %w", err)
	}
	if err := os.MkdirAll(abs, 0o755); err != nil {
		return err
	}
	files := []struct{ name, content string }{
		{"smile.json", starterConfig},
		{"run.yaml", manifest},
		{"tutorial.md", starterTutorial},
	}
	created := 0
	for _, f := range files {
		path := filepath.Join(abs, f.name)
		// O_EXCL: a file that exists (or appears meanwhile) is never replaced.
		fh, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, fs.ErrExist) {
			fmt.Fprintf(streams.Out, "%s exists, left unchanged\n", f.name)
			continue
		}
		if err != nil {
			return err
		}
		_, werr := fh.WriteString(f.content)
		if cerr := fh.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			return fmt.Errorf("write %s: %w", path, werr)
		}
		fmt.Fprintf(streams.Out, "%s created\n", f.name)
		created++
	}
	if err := ignoreRunOutputs(streams, abs); err != nil {
		return err
	}
	if created > 0 {
		fmt.Fprintf(streams.ErrOut, "next: edit tutorial.md, then run `smile apply -f %s --wait`\n", filepath.Join(dir, "run.yaml"))
	}
	return nil
}

const starterConfig = `{
  "tutorial": "tutorial.md",
  "llmProvider": "literal",
  "maxIterations": 10,
  "timeout": 1800,
  "containerImage": "smile-base:latest",
  "studentBehavior": {
    "maxRetriesBeforeHelp": 3,
    "askOnMissingDependency": true,
    "askOnAmbiguousInstruction": true,
    "askOnCommandFailure": true,
    "askOnTimeout": true,
    "timeoutSeconds": 60,
    "patienceLevel": "low"
  },
  "container": {
    "keepOnFailure": true,
    "keepOnSuccess": false
  },
  "stateFile": ".smile/state.json",
  "outputDir": "."
}
`

const starterManifest = `# yaml-language-server: $schema=https://raw.githubusercontent.com/smile-loop/smile/main/manifests/smilerun.schema.json
apiVersion: smile.dev/v1alpha1
kind: SmileRun
metadata:
  name: %q # quoted: a name of digits is still a string
spec:
  # Settings here win over smile.json. llmProvider literal follows the
  # tutorial word for word without a model; claude, codex, gemini and openai
  # use one.
  tutorial: tutorial.md
`

const starterTutorial = "# My first tutorial\n\n" +
	"This tutorial creates a greeting and prints it.\n\n" +
	"## 1. Create a folder\n\n" +
	"```bash\nmkdir -p hello\ncd hello\n```\n\n" +
	"## 2. Write the greeting\n\n" +
	"Create a file named `greeting.txt`:\n\n" +
	"```text\nHello, SMILE!\n```\n\n" +
	"## 3. Print it\n\n" +
	"```bash\ncat greeting.txt\n```\n\n" +
	"You should see:\n\n" +
	"```\nHello, SMILE!\n```\n"

// runOutputs are the paths a run leaves in the tutorial's folder: its state
// and its reports. Ignored by git, a later `git add` never stages them (and
// the pre-commit hook never finds them "modified by this hook").
var runOutputs = []string{".smile/", "smile-report.*", "smile-audit.log"}

// ignoreRunOutputs writes a .gitignore naming runOutputs, or adds the lines
// an existing one lacks; it never removes or reorders a user's lines.
func ignoreRunOutputs(streams Streams, dir string) error {
	path := filepath.Join(dir, ".gitignore")
	old, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	have := map[string]bool{}
	for _, l := range strings.Split(string(old), "\n") {
		have[strings.TrimSpace(l)] = true
	}
	var add []string
	for _, p := range runOutputs {
		if !have[p] {
			add = append(add, p)
		}
	}
	if len(add) == 0 {
		fmt.Fprintln(streams.Out, ".gitignore exists, left unchanged")
		return nil
	}
	var b strings.Builder
	b.Write(old)
	if len(old) > 0 && !strings.HasSuffix(string(old), "\n") {
		b.WriteByte('\n')
	}
	b.WriteString("# What SMILE's runs leave behind (state and reports)\n")
	b.WriteString(strings.Join(add, "\n") + "\n")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if len(old) == 0 {
		fmt.Fprintln(streams.Out, ".gitignore created")
	} else {
		fmt.Fprintln(streams.Out, ".gitignore updated")
	}
	return nil
}
