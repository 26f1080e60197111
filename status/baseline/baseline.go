// Package baseline keeps the findings a team has accepted, so that one
// finding they will not fix (or that SMILE gets wrong on their page) is not
// a red CI forever. `smile baseline` records a workspace's current gaps in
// smile-baseline.json beside smile.json; apply, the pre-commit hook and the
// CI formats then count only the gaps it does not hold. A gap is known by
// its tutorial and its fingerprint (status.Fingerprint: category and
// quoted text, never the line), so an edit above it does not revive it.
package baseline

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/smile-loop/smile/status"
	"github.com/smile-loop/smile/status/store"
)

// FileName is the baseline's file in the workspace's root.
const FileName = "smile-baseline.json"

// The states of a gap against the baseline, as SARIF's baselineState says
// them.
const (
	StateNew       = "new"       // not in the baseline: it counts
	StateUnchanged = "unchanged" // accepted: it does not count
	StateAbsent    = "absent"    // accepted, and gone from the page: fixed
)

// Entry is one accepted gap.
type Entry struct {
	Tutorial    string          `json:"tutorial"` // the tutorial's path, relative to the workspace
	Fingerprint string          `json:"fingerprint"`
	Category    status.Category `json:"category"`
	Quote       string          `json:"quote,omitempty"`
	Line        int             `json:"line,omitempty"` // where it was when accepted; not part of its identity
	Run         string          `json:"run,omitempty"`
	AcceptedAt  time.Time       `json:"acceptedAt"`
}

// Baseline is the file's content.
type Baseline struct {
	Version  int     `json:"version"`
	Accepted []Entry `json:"accepted"`
}

// Load reads dir's baseline; an empty one when there is none.
func Load(dir string) (*Baseline, error) {
	path := filepath.Join(dir, FileName)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return &Baseline{Version: 1}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read the baseline: %w", err)
	}
	var b Baseline
	if err := json.Unmarshal(data, &b); err != nil {
		return nil, fmt.Errorf("%s: not a baseline (%v); record it again with `smile baseline`", path, err)
	}
	if b.Version != 1 {
		return nil, fmt.Errorf("%s: baseline version %d, this smile reads version 1", path, b.Version)
	}
	return &b, nil
}

// Save writes the baseline into dir atomically, entries in a stable order.
func (b *Baseline) Save(dir string) error {
	sort.SliceStable(b.Accepted, func(i, j int) bool {
		x, y := b.Accepted[i], b.Accepted[j]
		if x.Tutorial != y.Tutorial {
			return x.Tutorial < y.Tutorial
		}
		return x.Line < y.Line
	})
	data, err := json.MarshalIndent(b, "", "  ")
	if err != nil {
		return err
	}
	return store.WriteFileAtomic(filepath.Join(dir, FileName), append(data, '\n'), 0o644)
}

// Has reports whether the tutorial's gap with that fingerprint is accepted.
func (b *Baseline) Has(tutorial, fingerprint string) bool {
	for _, e := range b.Accepted {
		if e.Tutorial == tutorial && e.Fingerprint == fingerprint {
			return true
		}
	}
	return false
}

// Accept adds a run's gaps on a tutorial, and returns how many were new to
// the baseline.
func (b *Baseline) Accept(tutorial, run string, gaps []status.Gap, now time.Time) int {
	added := 0
	for _, g := range gaps {
		fp := status.Fingerprint(g)
		if b.Has(tutorial, fp) {
			continue
		}
		b.Accepted = append(b.Accepted, Entry{Tutorial: tutorial, Fingerprint: fp, Category: g.Category,
			Quote: g.Location.Quote, Line: g.Location.LineNumber, Run: run, AcceptedAt: now.UTC()})
		added++
	}
	return added
}

// States says, for a run's gaps on a tutorial, each gap's state (by index)
// and the accepted gaps of the tutorial that are gone.
func (b *Baseline) States(tutorial string, gaps []status.Gap) (states []string, absent []Entry) {
	seen := map[string]bool{}
	for _, g := range gaps {
		fp := status.Fingerprint(g)
		seen[fp] = true
		state := StateNew
		if b.Has(tutorial, fp) {
			state = StateUnchanged
		}
		states = append(states, state)
	}
	for _, e := range b.Accepted {
		if e.Tutorial == tutorial && !seen[e.Fingerprint] {
			absent = append(absent, e)
		}
	}
	return states, absent
}

// Counted are the gaps the baseline does not accept: the ones a verdict
// counts.
func (b *Baseline) Counted(tutorial string, gaps []status.Gap) []status.Gap {
	var out []status.Gap
	for _, g := range gaps {
		if !b.Has(tutorial, status.Fingerprint(g)) {
			out = append(out, g)
		}
	}
	return out
}

// TutorialKey is a tutorial as the baseline knows it: its path from the
// workspace's root, with forward slashes.
func TutorialKey(workspace, tutorial string) string {
	if rel, err := filepath.Rel(workspace, tutorial); err == nil {
		return filepath.ToSlash(rel)
	}
	return filepath.ToSlash(tutorial)
}
