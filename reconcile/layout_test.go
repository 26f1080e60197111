package reconcile

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/smile-loop/smile/status/store"
)

// A run's internal files live once under its own folder, not in a second
// runs/NAME inside it; a state file the user placed keeps runs/NAME beside
// it, and a folder an earlier SMILE made there is used again.
func TestLayoutRoot(t *testing.T) {
	ws := t.TempDir()
	own := filepath.Join(ws, store.HomeDir, "runs", "docs")
	if got, want := newLayout("docs", filepath.Join(own, "state.json")).root, filepath.Join(own, "internal"); got != want {
		t.Errorf("default state file: root %s, want %s", got, want)
	}
	placed := filepath.Join(ws, "tutorials", "state.json")
	if got, want := newLayout("docs", placed).root, filepath.Join(ws, "tutorials", "runs", "docs"); got != want {
		t.Errorf("placed state file: root %s, want %s", got, want)
	}
	// Another run's name in the path is not this run's own folder.
	other := filepath.Join(ws, store.HomeDir, "runs", "other", "state.json")
	if got, want := newLayout("docs", other).root, filepath.Join(ws, store.HomeDir, "runs", "other", "runs", "docs"); got != want {
		t.Errorf("state file in another run's folder: root %s, want %s", got, want)
	}
	earlier := filepath.Join(own, "runs", "docs")
	if err := os.MkdirAll(earlier, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(earlier, store.OwnerMarker), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if got := newLayout("docs", filepath.Join(own, "state.json")).root; got != earlier {
		t.Errorf("an earlier SMILE's folder: root %s, want %s (a run in progress resumes)", got, earlier)
	}
}
