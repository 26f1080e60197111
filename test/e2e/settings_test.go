package e2e

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestUnknownConfigKeysWarnOnce: smile.json keys SMILE does not know are
// still ignored (seed E03: the run goes on and passes), but apply says so
// once, with the name it probably meant; describe shows where each setting
// in force came from.
func TestUnknownConfigKeysWarnOnce(t *testing.T) {
	smileBinaries(t)
	baseImage(t)
	t.Parallel()
	dir := t.TempDir()
	t.Cleanup(func() { removeRunContainers(dir) })
	stopControllers(t, dir)
	writeFile(t, filepath.Join(dir, "run.yaml"), []byte("apiVersion: smile.dev/v1alpha1\nkind: SmileRun\nmetadata: {name: lc-settings}\nspec:\n  llmProvider: literal\n  timeout: 300\n"))
	writeFile(t, filepath.Join(dir, "smile.json"), []byte(`{"maxIteration": 2, "maxIterations": 3}`))
	writeFile(t, filepath.Join(dir, "tutorial.md"), []byte("# Hi\n\n```bash\necho hi\n```\n"))
	res := smile(t, dir, nil, 2*time.Minute, "apply", "-f", "run.yaml", "--wait")
	want := `warning: ` + filepath.Join(dir, "smile.json") + `: unknown field "maxIteration" (did you mean "maxIterations"?) is ignored`
	if res.code != 0 || strings.Count(res.stderr, want) != 1 {
		t.Fatalf("apply: exit %d, want 0 and the warning once:\n%s", res.code, res.stderr)
	}
	res = smile(t, dir, nil, 30*time.Second, "describe", "lc-settings")
	for _, row := range [][]string{{"maxIterations", "3", "smile.json"}, {"timeout", "300", "manifest"}, {"containerImage", `"smile-base:latest"`, "default"}} {
		found := false
		for _, l := range strings.Split(res.stdout, "\n") {
			if strings.Join(strings.Fields(l), " ") == strings.Join(row, " ") {
				found = true
			}
		}
		if !found {
			t.Errorf("describe lacks the setting row %v:\n%s", row, res.stdout)
		}
	}
}
