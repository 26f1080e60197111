package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/spec/runfile"

	"github.com/spf13/cobra"
)

func newInitCommand(streams Streams) *cobra.Command {
	var o initOptions
	cmd := &cobra.Command{
		Use:   "init",
		Short: "Scaffold smile.json, run.yaml and a starter tutorial (never overwrites)",
		Long: `Scaffold a run: smile.json (llmProvider: literal, no model or key needed), a SmileRun
manifest and a starter tutorial. With --tutorial, the manifest checks that existing page instead
and is named after it (guide.md: guide.run.yaml, run guide), so each page of a folder gets its own.
Nothing that exists is overwritten. The runs' state and reports go to the workspace's .smile/.`,
		Example: `  smile init
  smile init --tutorial docs/install.md`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return scaffold(streams, o)
		},
	}
	cmd.Flags().StringVar(&o.dir, "dir", ".", "the folder to scaffold")
	cmd.Flags().StringVar(&o.name, "name", "", "the run's name (default: the folder's name, or with --tutorial the page's)")
	cmd.Flags().StringVar(&o.tutorial, "tutorial", "", "an existing Markdown page to check instead of writing a starter tutorial")
	return cmd
}

// initOptions are init's flags.
type initOptions struct {
	dir, name string
	// tutorial is an existing page (as the user wrote it: relative to the
	// current folder); "" writes the starter tutorial.
	tutorial string
}

var notDNS = regexp.MustCompile(`[^a-z0-9-]+`)

// dnsName turns a folder or file name into a run name: a DNS label.
func dnsName(s string) string {
	name := strings.Trim(notDNS.ReplaceAllString(strings.ToLower(s), "-"), "-")
	if len(name) > 63 {
		name = strings.Trim(name[:63], "-")
	}
	if name == "" {
		name = "tutorial"
	}
	return name
}

// scaffoldFile is one file init writes, unless it exists.
type scaffoldFile struct{ name, content string }

func scaffold(streams Streams, o initOptions) error {
	abs, err := filepath.Abs(o.dir)
	if err != nil {
		return err
	}
	files, manifestName, err := scaffoldFiles(abs, o)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(abs, 0o755); err != nil {
		return err
	}
	created := 0
	for _, f := range files {
		ok, err := createNew(filepath.Join(abs, f.name), f.content)
		if err != nil {
			return err
		}
		if !ok {
			fmt.Fprintf(streams.Out, "%s exists, left unchanged\n", f.name)
			continue
		}
		fmt.Fprintf(streams.Out, "%s created\n", f.name)
		created++
	}
	if created > 0 {
		next := "edit tutorial.md, then run"
		if o.tutorial != "" {
			next = "run"
		}
		fmt.Fprintf(streams.ErrOut, "next: %s `smile apply -f %s --wait`\n", next, filepath.Join(o.dir, manifestName))
	}
	return nil
}

// scaffoldFiles are the files init writes into the folder abs, and the
// manifest's file name. With a tutorial of the user's, the manifest names
// that page (relative to the folder) and is named after it, and no starter
// is written.
func scaffoldFiles(abs string, o initOptions) ([]scaffoldFile, string, error) {
	manifestName, tutorial, name := "run.yaml", "tutorial.md", o.name
	if name == "" {
		name = dnsName(filepath.Base(abs))
	}
	if o.tutorial != "" {
		rel, err := existingTutorial(abs, o.tutorial)
		if err != nil {
			return nil, "", err
		}
		stem := strings.TrimSuffix(filepath.Base(rel), filepath.Ext(rel))
		if o.name == "" {
			name = dnsName(stem)
		}
		manifestName, tutorial = stem+".run.yaml", filepath.ToSlash(rel)
	}
	manifest := fmt.Sprintf(starterManifest, name, tutorial)
	if _, err := runfile.Parse([]byte(manifest), manifestName); err != nil {
		return nil, "", fmt.Errorf("--name: %w", err)
	}
	files := []scaffoldFile{{"smile.json", starterConfig}, {manifestName, manifest}}
	if o.tutorial == "" {
		files = append(files, scaffoldFile{"tutorial.md", starterTutorial})
	}
	return files, manifestName, nil
}

// existingTutorial checks the page --tutorial names (relative to the
// current folder) loads as a tutorial, and returns its path relative to the
// manifest's folder abs, as the manifest will name it.
func existingTutorial(abs, path string) (string, error) {
	page, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	if _, err := spec.LoadTutorial(page); err != nil {
		return "", fmt.Errorf("--tutorial: %w", err)
	}
	rel, err := filepath.Rel(abs, page)
	if err != nil {
		return "", fmt.Errorf("--tutorial %s: %w", path, err)
	}
	return rel, nil
}

// createNew writes a file that does not exist yet; false when it does.
func createNew(path, content string) (bool, error) {
	// O_EXCL: a file that exists (or appears meanwhile) is never replaced.
	fh, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	_, werr := fh.WriteString(content)
	if cerr := fh.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		return false, fmt.Errorf("write %s: %w", path, werr)
	}
	return true, nil
}

// starterConfig is the workspace model's smile.json: the settings every run
// of the folder shares, and no stateFile or outputDir, so that each run keeps
// its state and reports in its own .smile/runs/NAME/ and a second manifest
// beside the first is a second run, not a clash.
const starterConfig = `{
  "llmProvider": "literal",
  "maxIterations": 10,
  "timeout": 1800,
  "containerImage": "smile-base:latest",
  "studentBehavior": {
    "timeoutSeconds": 60,
    "patienceLevel": "low"
  }
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
  tutorial: %q
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
