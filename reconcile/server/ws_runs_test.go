package server_test

import (
	. "github.com/smile-loop/smile/reconcile/server"

	"path/filepath"
	"testing"

	"github.com/smile-loop/smile/reconcile/server/runview"
	"github.com/smile-loop/smile/status"
)

// TestWSRunsFollowsTheIndex: the index's feed starts with every run's row,
// sends a run's row at each of its transitions, and the whole index again
// when a run is applied.
func TestWSRunsFollowsTheIndex(t *testing.T) {
	m, dir := startManager(t)
	w := dialWS(t, m, "/runs", nil)
	first := w.next(t)
	var all RunsResponse
	first.decode(t, &all)
	if first.Event != WSRuns || len(all.Runs) != 1 || all.Runs[0].Name != "demo" || all.Runs[0].Terminal {
		t.Fatalf("first message %s %+v, want the index of demo at work", first.Event, all)
	}
	if err := m.RequestStop("demo", "test"); err != nil {
		t.Fatal(err)
	}
	for {
		msg := w.next(t)
		var row runview.Row
		msg.decode(t, &row)
		if msg.Event == WSRun && row.Name == "demo" && row.Phase == status.PhaseStopped {
			if row.Result != "Stopped" || !row.Terminal {
				t.Errorf("the stopped run's row: %+v", row)
			}
			break
		}
	}
	write(t, filepath.Join(dir, "other.yaml"), "apiVersion: smile.dev/v1alpha1\nkind: SmileRun\nmetadata: {name: other}\nspec: {llmProvider: claude}\n")
	if _, err := m.Apply(filepath.Join(dir, "other.yaml")); err != nil {
		t.Fatal(err)
	}
	for {
		msg := w.next(t)
		if msg.Event != WSRuns {
			continue
		}
		msg.decode(t, &all)
		if len(all.Runs) == 2 && all.Runs[0].Name == "demo" && all.Runs[1].Name == "other" {
			return
		}
	}
}

// TestWSViewComesWithTheRunsEnd: the first snapshot and the phase event of
// the transition that ends the run carry the run page's view (the page
// shows it even when the controller stops right after); other transitions
// do not, so the loop's events cost no more with many observers.
func TestWSViewComesWithTheRunsEnd(t *testing.T) {
	m, _ := startManager(t)
	w := dialWS(t, m, "", nil)
	var snap WSSnapshotPayload
	w.next(t).decode(t, &snap)
	if snap.View == nil || len(snap.View.Steps) != 1 || snap.View.Steps[0].Line != 5 {
		t.Fatalf("the snapshot's view: %+v", snap.View)
	}
	if err := m.RequestStop("demo", "test"); err != nil {
		t.Fatal(err)
	}
	for {
		msg := w.next(t)
		if msg.Event != WSPhase {
			continue
		}
		var p WSPhasePayload
		msg.decode(t, &p)
		if !p.Terminal {
			if p.View != nil {
				t.Errorf("the phase event of %s carries a view", p.Phase)
			}
			continue
		}
		if p.View == nil || len(p.View.Steps) != 1 {
			t.Errorf("the phase event that ends the run: view %+v, want the run page's", p.View)
		}
		return
	}
}
