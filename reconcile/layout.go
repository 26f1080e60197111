package reconcile

import (
	"fmt"
	"path/filepath"

	"github.com/smile-loop/smile/reconcile/checkpoints"
	"github.com/smile-loop/smile/runtime"
	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/status"
	"github.com/smile-loop/smile/status/store"
)

// layout names a run's files and containers. Everything lives beside the state
// file: in the run's own folder (.smile/runs/NAME/, the default) under
// internal/, else under runs/NAME/ beside a state file the user placed, so one
// folder's runs never mix with another's.
type layout struct {
	name      string
	stateFile string
	root      string
	key       string // short hash of the state file path: unique per folder
}

func layoutFor(d *spec.Desired) layout { return newLayout(d.Name, d.Paths.StateFile) }

func newLayout(name, stateFile string) layout {
	return layout{
		name:      name,
		stateFile: stateFile,
		root:      store.InternalDir(name, stateFile),
		key:       checkpoints.StateKey(stateFile),
	}
}

func (l layout) inbox() string { return filepath.Join(l.root, "inbox") }

func (l layout) generation(g int64) string { return filepath.Join(l.root, fmt.Sprintf("g%d", g)) }

// workDir is the Student's folder for one iteration: a fresh one each time,
// so every iteration replays the tutorial from a clean slate.
func (l layout) workDir(g int64, iteration int) string {
	return filepath.Join(l.generation(g), "work", fmt.Sprint(iteration))
}

func (l layout) logsDir(g int64, container string) string {
	return filepath.Join(l.generation(g), "logs", container)
}

func (l layout) container(g int64, iteration int, role status.Role) string {
	return fmt.Sprintf("%sg%d-i%d-%s", l.containerPrefix(), g, iteration, role)
}

// containerPrefix begins the name of every container of the run.
func (l layout) containerPrefix() string { return fmt.Sprintf("smile-%s-%s-", l.name, l.key) }

// selector matches every container of the run.
func (l layout) selector() map[string]string {
	return map[string]string{runtime.LabelOwner: runtime.OwnerValue, runtime.LabelRun: l.name, runtime.LabelStateKey: l.key}
}
