// Package applyset reads what `smile apply -f` names: files, folders (-R),
// several -f, multi-document YAML and stdin, each SmileRun one Target.
package applyset

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/spec/runfile"
	"github.com/smile-loop/smile/status/store"
)

// Target is one SmileRun apply was given: the file it is in and, when that
// file holds several, its name there.
type Target struct {
	Path string // absolute
	// doc is the run's name when its file holds several SmileRuns ("" when
	// the file holds one, applied as a file).
	Doc string
	Run *spec.SmileRun
}

// Name is the run's name.
func (t Target) Name() string { return t.Run.Metadata.Name }

// Dir is the manifest's folder: its relative paths start there.
func (t Target) Dir() string { return filepath.Dir(t.Path) }

// Collect reads what -f named, in order: files (every SmileRun of
// each), folders (their *.yaml, *.yml and *.json files that are SmileRun
// manifests, others such as smile.json skipped; subfolders too with
// recursive) and "-" (stdin). A name given twice is an error.
func Collect(files []string, recursive bool, stdin io.Reader) ([]Target, error) {
	var out []Target
	for _, f := range files {
		var ts []Target
		var err error
		switch fi, serr := os.Stat(f); {
		case f == "-":
			ts, err = stdinTargets(stdin)
		case serr == nil && fi.IsDir():
			ts, err = folderTargets(f, recursive)
		default:
			ts, err = fileTargets(f)
		}
		if err != nil {
			return nil, err
		}
		out = append(out, ts...)
	}
	seen := map[string]Target{}
	var uniq []Target
	for _, t := range out {
		if prev, ok := seen[t.Name()]; ok {
			if prev.Path == t.Path {
				continue // the same file named twice
			}
			return nil, fmt.Errorf("run %s is defined in %s and in %s: metadata.name must be unique", t.Name(), prev.Path, t.Path)
		}
		seen[t.Name()] = t
		uniq = append(uniq, t)
	}
	if len(uniq) == 0 {
		return nil, fmt.Errorf("no SmileRun manifest in %s", strings.Join(files, ", "))
	}
	return uniq, nil
}

// fileTargets are the SmileRuns of one file.
func fileTargets(path string) ([]Target, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	docs, err := runfile.LoadAll(abs)
	if err != nil {
		return nil, err
	}
	var out []Target
	for _, d := range docs {
		t := Target{Path: abs, Run: d.Run}
		if len(docs) > 1 {
			t.Doc = d.Run.Metadata.Name
		}
		out = append(out, t)
	}
	return out, nil
}

// manifestExts are the file names a folder's manifests may have.
var manifestExts = []string{".yaml", ".yml", ".json"}

// folderTargets are the SmileRuns of a folder's manifest files, in name
// order; with recursive, of its subfolders too (hidden ones skipped: .git,
// .smile). A file that is no SmileRun manifest is skipped quietly; one that
// is but does not parse is an error.
func folderTargets(dir string, recursive bool) ([]Target, error) {
	var out []Target
	err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() {
			if p != dir && (!recursive || strings.HasPrefix(e.Name(), ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !e.Type().IsRegular() || !slices.Contains(manifestExts, strings.ToLower(filepath.Ext(p))) {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if !runfile.IsManifest(data) {
			return nil
		}
		ts, err := fileTargets(p)
		out = append(out, ts...)
		return err
	})
	return out, err
}

// stdinDir is where manifests read from stdin are kept (under the current
// folder's .smile/), so the controller can watch and resume them like files.
const stdinDir = "stdin"

// stdinTargets reads manifests from stdin. Their relative paths are the
// current folder's; each is saved as .smile/stdin/NAME.yaml with its paths
// rewritten to point from there, and its state and reports, unless it names
// them, under .smile/stdin/NAME/.
func stdinTargets(in io.Reader) ([]Target, error) {
	if in == nil {
		return nil, errors.New("-f -: no standard input")
	}
	data, err := io.ReadAll(in)
	if err != nil {
		return nil, fmt.Errorf("read manifests from stdin: %w", err)
	}
	docs, err := runfile.ParseAll(data, "<stdin>")
	if err != nil {
		return nil, err
	}
	wd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	dir := filepath.Join(wd, store.HomeDir, stdinDir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	if spec.ProjectRoot(dir) != spec.ProjectRoot(wd) {
		// No .git around: .smile/stdin/ would be a project of its own, and
		// the current folder's tutorial outside it.
		return nil, errors.New("-f -: manifests from stdin need a Git repository around the current folder (its root is the project's); save them to a file instead")
	}
	var out []Target
	for _, d := range docs {
		run := d.Run
		rebaseSpec(run, wd)
		js, err := json.MarshalIndent(run, "", "  ")
		if err != nil {
			return nil, err
		}
		p := filepath.Join(dir, run.Metadata.Name+".yaml")
		if err := os.WriteFile(p, js, 0o644); err != nil {
			return nil, fmt.Errorf("keep the manifest read from stdin: %w", err)
		}
		out = append(out, Target{Path: p, Run: run})
	}
	return out, nil
}

// rebaseSpec makes a stdin manifest's paths work from .smile/stdin/: its
// tutorial and smile.json are the current folder's (a path the manifest or
// smile.json gives is relative to it); its state and reports go under
// .smile/stdin/NAME/ unless either names them.
func rebaseSpec(run *spec.SmileRun, wd string) {
	if run.Spec == nil {
		run.Spec = map[string]any{}
	}
	up := func(p string) string {
		if filepath.IsAbs(p) {
			return p
		}
		return filepath.ToSlash(filepath.Join("..", "..", p))
	}
	if p, set := run.Spec["config"].(string); set {
		run.Spec["config"] = up(p)
	} else if _, err := os.Stat(filepath.Join(wd, spec.ConfigFileName)); err == nil {
		run.Spec["config"] = up(spec.ConfigFileName)
	}
	defaults := map[string]string{
		"tutorial":  up("tutorial.md"),
		"stateFile": filepath.ToSlash(filepath.Join(run.Metadata.Name, "state.json")),
		"outputDir": run.Metadata.Name,
	}
	for key, def := range defaults {
		if p, set := run.Spec[key].(string); set {
			run.Spec[key] = up(p)
		} else if p, set := configSets(wd, key); set {
			run.Spec[key] = up(p)
		} else {
			run.Spec[key] = def
		}
	}
}

// configSets reads one path setting of the current folder's smile.json, if
// it sets it.
func configSets(wd, key string) (string, bool) {
	raw, err := os.ReadFile(filepath.Join(wd, spec.ConfigFileName))
	if err != nil {
		return "", false
	}
	var m map[string]any
	if json.Unmarshal(raw, &m) != nil {
		return "", false
	}
	v, ok := m[key].(string)
	return v, ok && v != ""
}

// resolveTarget merges the run's spec over its smile.json and the defaults.
func (t Target) Resolve() (*spec.Desired, error) { return spec.Resolve(t.Run, t.Dir()) }
