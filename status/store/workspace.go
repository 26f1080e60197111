package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/spec/runfile"
)

// ErrWorkspaceConflict means a run would share its name, its state file or
// its report folder with another run of the same workspace.
var ErrWorkspaceConflict = errors.New("conflicts with another run of the workspace")

// CheckWorkspace refuses a run that another run of its workspace already
// owns a part of. Runs are named by metadata.name alone, as kubectl names
// objects in one namespace: a second manifest (in any folder) with the same
// name is refused, not namespaced by folder, so `smile get NAME` always means
// one run. Two runs configured onto one state file or one report folder
// would overwrite each other (and the state file's lock allows one loop at a
// time, E14/E18), so that is refused too, naming the setting. Records whose
// manifest is gone, or now names another run, are stale and ignored.
func CheckWorkspace(d *spec.Desired, manifest string) error {
	recs, err := Registry{Dir: d.Workspace}.List()
	if err != nil {
		return err
	}
	var errs []error
	for _, rec := range recs {
		other, paths, ok := recordedRun(rec)
		if !ok || rec.Manifest == manifest {
			continue
		}
		where := relTo(d.Workspace, rec.Manifest)
		if other == d.Name {
			errs = append(errs, fmt.Errorf("metadata.name %q is already the name of the run applied from %s: names are unique in a workspace (%s); rename one, or `smile delete %s` first",
				d.Name, where, d.Workspace, d.Name))
			continue
		}
		if paths.StateFile == d.Paths.StateFile { // one loop per state file (E14, E18)
			errs = append(errs, fmt.Errorf("%w: %s: %s is already the state file of run %s (%s): give each run its own, or leave %s unset (each run then gets .smile/runs/NAME/)",
				ErrLoopRunning, settingName(d, "stateFile"), relTo(d.Workspace, d.Paths.StateFile), other, where, "stateFile"))
		}
		if paths.OutputDir == d.Paths.OutputDir {
			errs = append(errs, fmt.Errorf("%s: %s is already the report folder of run %s (%s): give each run its own, or leave %s unset (each run then gets .smile/runs/NAME/)",
				settingName(d, "outputDir"), relTo(d.Workspace, d.Paths.OutputDir), other, where, "outputDir"))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("smilerun %s %w: %w", d.Name, ErrWorkspaceConflict, err)
	}
	return nil
}

// recordedRun reads a recorded run's manifest again, for its name and
// where its files go now; ok is false when the record is stale.
func recordedRun(rec Record) (string, spec.Paths, bool) {
	if _, err := os.Stat(rec.Manifest); err != nil {
		return "", spec.Paths{}, false
	}
	m, err := runfile.Load(rec.Manifest)
	if err != nil || m.Metadata.Name != rec.Name {
		return "", spec.Paths{}, false
	}
	dir := filepath.Dir(rec.Manifest)
	cfg, err := m.Resolve(dir)
	if err != nil {
		return rec.Name, spec.Paths{StateFile: rec.StateFile, OutputDir: rec.OutputDir}, true
	}
	root := spec.ProjectRoot(dir)
	return rec.Name, spec.Paths{
		StateFile: spec.StateFilePath(root, dir, rec.Name, cfg),
		OutputDir: spec.OutputDirPath(root, dir, rec.Name, cfg),
	}, true
}

// settingName names a setting as the user wrote it: spec.KEY when the
// manifest sets it, else KEY with the smile.json that does.
func settingName(d *spec.Desired, key string) string {
	if _, ok := d.Manifest.Spec[key]; ok {
		return "spec." + key
	}
	return fmt.Sprintf("%s (set in %s; spec.%s in a manifest overrides it)", key, relTo(d.Workspace, d.Paths.Config), key)
}

// relTo is path relative to root when it is inside it.
func relTo(root, path string) string {
	if rel, err := filepath.Rel(root, path); err == nil && filepath.IsLocal(rel) {
		return rel
	}
	return path
}
