package spec

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
)

// Desired is a SmileRun resolved into everything the controller needs: the
// effective Config, absolute paths, the loaded tutorial and the digest of all
// inputs. A changed digest means a new generation.
type Desired struct {
	Name string
	Dir  string // the manifest's folder; relative paths resolve here
	// Workspace is where SMILE keeps the run's state: the folder holding
	// .git above the manifest, else the manifest's folder (ProjectRoot).
	Workspace string
	Manifest  *SmileRun
	Config    Config
	Tutorial  *Tutorial
	Paths     Paths
	Digest    string
}

// Paths are the run's files, made absolute.
type Paths struct {
	Config    string
	Tutorial  string
	StateFile string
	OutputDir string
}

// Resolve loads everything a manifest points at. dir is the folder the
// manifest lives in.
func Resolve(run *SmileRun, dir string) (*Desired, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	cfg, err := run.Resolve(dir)
	if err != nil {
		return nil, err
	}
	root := ProjectRoot(dir)
	d := &Desired{Name: run.Metadata.Name, Dir: dir, Workspace: root, Manifest: run, Config: cfg}
	d.Paths = Paths{
		Config:    run.ConfigPath(dir),
		Tutorial:  abs(dir, cfg.Tutorial),
		StateFile: StateFilePath(root, dir, run.Metadata.Name, cfg),
		OutputDir: OutputDirPath(root, dir, run.Metadata.Name, cfg),
	}
	if err := run.checkPaths(root, cfg, d.Paths); err != nil {
		return nil, err
	}
	if err := checkStateFile(d.Paths.StateFile); err != nil {
		return nil, fmt.Errorf("smilerun %s: %w", run.Metadata.Name, err)
	}
	d.Tutorial, err = loadTutorial(d.Paths.Tutorial, root)
	if err != nil {
		return nil, err
	}
	d.Digest = Digest(cfg, d.Tutorial)
	return d, nil
}

// Digest hashes every input of a run: the effective config, the tutorial's
// bytes and each image's bytes. Saving a file without changing it, or editing a
// comment in the manifest, leaves it unchanged.
func Digest(cfg Config, t *Tutorial) string {
	h := sha256.New()
	js, _ := json.Marshal(cfg)
	h.Write(js)
	h.Write([]byte{0})
	h.Write([]byte(t.Content))
	imgs := append([]Image(nil), t.Images...)
	sort.Slice(imgs, func(i, j int) bool { return imgs[i].Path < imgs[j].Path })
	for _, img := range imgs {
		h.Write([]byte{0})
		h.Write([]byte(img.Path))
		h.Write([]byte{0})
		h.Write(img.Data)
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

// DefaultRunDir is a run's own folder in its workspace: its state file and
// reports go there unless stateFile or outputDir say otherwise, so two runs
// (two manifests in one folder) never share one. It is under .smile/, which
// SMILE keeps out of git.
func DefaultRunDir(workspace, name string) string {
	return filepath.Join(workspace, ".smile", "runs", name)
}

// StateFilePath is a run's state file: cfg.StateFile relative to dir (the
// manifest's folder) when set, else state.json in its DefaultRunDir.
func StateFilePath(workspace, dir, name string, cfg Config) string {
	if cfg.StateFile == "" {
		return filepath.Join(DefaultRunDir(workspace, name), "state.json")
	}
	return abs(dir, cfg.StateFile)
}

// OutputDirPath is where a run's reports go: cfg.OutputDir relative to dir
// when set, else its DefaultRunDir.
func OutputDirPath(workspace, dir, name string, cfg Config) string {
	if cfg.OutputDir == "" {
		return DefaultRunDir(workspace, name)
	}
	return abs(dir, cfg.OutputDir)
}

func abs(dir, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(dir, p)
}

// InputFiles lists the files whose change may change a run's inputs: the
// manifest, its smile.json, the tutorial and the tutorial's images (also
// those that do not exist yet, so that creating one counts). Paths are
// absolute when manifestPath is.
func InputFiles(m *SmileRun, manifestPath string) []string {
	files := []string{manifestPath}
	if m == nil {
		return files
	}
	dir := filepath.Dir(manifestPath)
	files = append(files, m.ConfigPath(dir))
	cfg, err := m.Resolve(dir)
	if err != nil {
		return files
	}
	tutorial := abs(dir, cfg.Tutorial)
	root := ProjectRoot(dir)
	if !Within(root, tutorial) {
		return files // refused at apply; nothing outside is watched
	}
	files = append(files, tutorial)
	if t, err := loadTutorial(tutorial, root); err == nil {
		for _, img := range t.Images {
			files = append(files, img.Path)
		}
	}
	return files
}
