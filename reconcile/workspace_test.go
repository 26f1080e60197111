package reconcile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-logr/logr"

	"github.com/smile-loop/smile/runtime/fake"
	"github.com/smile-loop/smile/status/store"
)

// workspaceRepo is a git repository (a .git folder is all it takes) with
// tutorials in two folders.
func workspaceRepo(t *testing.T) (string, *Manager) {
	t.Helper()
	root := t.TempDir()
	if err := os.Mkdir(filepath.Join(root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"docs/a", "docs/b"} {
		write(t, filepath.Join(root, d, "tutorial.md"), tutorialMD)
	}
	m := NewManager(Options{Runtime: fake.New("smile-base:latest"), Log: logr.Discard()})
	t.Cleanup(func() {
		for _, e := range m.runs {
			e.lock.Release()
		}
	})
	return root, m
}

func manifest(t *testing.T, path, name, spec string) string {
	t.Helper()
	write(t, path, "apiVersion: smile.dev/v1alpha1\nkind: SmileRun\nmetadata: {name: "+name+"}\nspec:\n  llmProvider: literal\n"+spec)
	return path
}

// TestRunsOfOneFolderGetTheirOwnFiles: two manifests in one folder, nothing
// set, are two runs with their own state file and reports in the workspace's
// .smile/runs/NAME/, recorded in the workspace's registry (not the folder's).
func TestRunsOfOneFolderGetTheirOwnFiles(t *testing.T) {
	root, m := workspaceRepo(t)
	for _, name := range []string{"one", "two"} {
		if _, err := m.Apply(manifest(t, filepath.Join(root, "docs/a", name+".yaml"), name, "")); err != nil {
			t.Fatalf("apply %s: %v", name, err)
		}
	}
	recs, err := store.Registry{Dir: root}.List()
	if err != nil || len(recs) != 2 {
		t.Fatalf("the workspace's registry: %v %+v", err, recs)
	}
	for _, rec := range recs {
		own := filepath.Join(root, ".smile", "runs", rec.Name)
		if rec.StateFile != filepath.Join(own, "state.json") || rec.OutputDir != own {
			t.Errorf("run %s: state %s, reports %s; want both in %s", rec.Name, rec.StateFile, rec.OutputDir, own)
		}
	}
	if _, err := os.Stat(filepath.Join(root, "docs/a", ".smile")); err == nil {
		t.Errorf("the manifests' folder got a .smile of its own")
	}
}

// TestWorkspaceRefusesSharedNamesAndFiles: a name is one run in a workspace,
// whichever folder its manifest is in; two runs configured onto one state
// file or one report folder are refused, naming the setting.
func TestWorkspaceRefusesSharedNamesAndFiles(t *testing.T) {
	root, m := workspaceRepo(t)
	if _, err := m.Apply(manifest(t, filepath.Join(root, "docs/a/run.yaml"), "hello", "")); err != nil {
		t.Fatal(err)
	}
	_, err := m.Apply(manifest(t, filepath.Join(root, "docs/b/run.yaml"), "hello", ""))
	if !errors.Is(err, store.ErrWorkspaceConflict) || !strings.Contains(err.Error(), `metadata.name "hello" is already the name of the run applied from docs/a/run.yaml`) {
		t.Errorf("a second run named hello in another folder: %v", err)
	}

	write(t, filepath.Join(root, "docs/b/smile.json"), `{"stateFile": "state.json", "outputDir": "reports"}`)
	if _, err := m.Apply(manifest(t, filepath.Join(root, "docs/b/one.yaml"), "one", "")); err != nil {
		t.Fatal(err)
	}
	_, err = m.Apply(manifest(t, filepath.Join(root, "docs/b/two.yaml"), "two", ""))
	if !errors.Is(err, store.ErrLoopRunning) {
		t.Errorf("a shared state file is not %q (E18): %v", store.ErrLoopRunning, err)
	}
	for _, want := range []string{"stateFile (set in docs/b/smile.json", "docs/b/state.json is already the state file of run one (docs/b/one.yaml)",
		"outputDir (set in docs/b/smile.json", "docs/b/reports is already the report folder of run one"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("two runs on one smile.json's stateFile and outputDir: %v, want %q", err, want)
		}
	}
	_, err = m.Apply(manifest(t, filepath.Join(root, "docs/b/two.yaml"), "two", "  stateFile: two.json\n  outputDir: reports\n"))
	if err == nil || !strings.Contains(err.Error(), "spec.outputDir: docs/b/reports is already") || strings.Contains(err.Error(), "stateFile") {
		t.Errorf("a run setting spec.outputDir onto another run's: %v", err)
	}
	if _, err := m.Apply(manifest(t, filepath.Join(root, "docs/b/two.yaml"), "two", "  stateFile: two.json\n  outputDir: two\n")); err != nil {
		t.Errorf("a run with files of its own: %v", err)
	}
}

// TestStaleRecordsDoNotConflict: a manifest that is gone no longer holds its
// name.
func TestStaleRecordsDoNotConflict(t *testing.T) {
	root, m := workspaceRepo(t)
	first := manifest(t, filepath.Join(root, "docs/a/run.yaml"), "hello", "")
	if _, err := m.Apply(first); err != nil {
		t.Fatal(err)
	}
	if err := m.Delete(t.Context(), "hello"); err != nil {
		t.Fatal(err)
	}
	// Applied and removed without `smile delete`: its record stays behind.
	if err := (store.Registry{Dir: root}).Put(store.Record{Name: "hello", Manifest: first}); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(first); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Apply(manifest(t, filepath.Join(root, "docs/b/run.yaml"), "hello", "")); err != nil {
		t.Errorf("the name of a manifest that is gone: %v", err)
	}
}
