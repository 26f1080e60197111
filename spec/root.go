package spec

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// ProjectRoot is the folder every path of a run must stay in: the nearest
// folder at or above dir holding .git, else dir itself, with its symbolic
// links resolved. SMILE runs as a CI gate on other people's changes; a
// manifest must not make it read or write elsewhere on the machine.
func ProjectRoot(dir string) string {
	dir = resolvePath(dir)
	for d := dir; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return dir
		}
		d = parent
	}
}

// FindWorkspace finds, from any folder inside it, the workspace SMILE keeps
// its state in (the runs applied, the controller), as git finds its
// repository: the nearest folder at or above dir holding .git; outside git,
// the nearest one holding SMILE's registry of applied runs (.smile/applied)
// or a controller's lock; else dir itself. A manifest's workspace is
// ProjectRoot of its folder, which this finds again from any subfolder.
func FindWorkspace(dir string) string {
	dir = resolvePath(dir)
	if root := ProjectRoot(dir); root != dir {
		return root
	} else if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
		return dir
	}
	for d := dir; ; {
		for _, mark := range []string{"applied", "controller.lock"} {
			if _, err := os.Stat(filepath.Join(d, ".smile", mark)); err == nil {
				return d
			}
		}
		parent := filepath.Dir(d)
		if parent == d {
			return dir
		}
		d = parent
	}
}

// resolvePath returns the absolute path p names once every symbolic link in
// it is followed. A part that does not exist yet (a state file not written
// yet) is kept as written under its resolved parent.
func resolvePath(p string) string {
	p, err := filepath.Abs(p)
	if err != nil {
		return filepath.Clean(p)
	}
	var rest []string
	for cur := p; ; {
		if r, err := filepath.EvalSymlinks(cur); err == nil {
			return filepath.Join(append([]string{r}, rest...)...)
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return p
		}
		rest = append([]string{filepath.Base(cur)}, rest...)
		cur = parent
	}
}

// Within says whether path, after symbolic links, is root or inside it.
func Within(root, path string) bool {
	rel, err := filepath.Rel(root, resolvePath(path))
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// ErrOutsideProject means a path of the run leaves its project root.
var ErrOutsideProject = errors.New("is outside the project root")

// checkPaths refuses every path of the run that leaves root. field names
// each one as the user wrote it: spec.X when the manifest set it, X in
// smile.json otherwise.
func (r *SmileRun) checkPaths(root string, cfg Config, p Paths) error {
	name := func(key string) string {
		if _, ok := r.Spec[key]; ok {
			return "spec." + key
		}
		return key
	}
	written := func(key, fallback string) string {
		if v, ok := r.Spec[key].(string); ok {
			return v
		}
		return fallback
	}
	var errs []error
	for _, f := range []struct{ key, value, path string }{
		{"config", written("config", ConfigFileName), p.Config},
		{"tutorial", cfg.Tutorial, p.Tutorial},
		{"stateFile", cfg.StateFile, p.StateFile},
		{"outputDir", cfg.OutputDir, p.OutputDir},
	} {
		if !Within(root, f.path) {
			errs = append(errs, fmt.Errorf("%s: %q %w %s", name(f.key), f.value, ErrOutsideProject, root))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("smilerun %s: %w", r.Metadata.Name, err)
	}
	return nil
}

// checkStateFile fails when the state file cannot be written: a folder in
// its place, or a folder SMILE cannot create files in. Failing here, at
// apply, beats a controller retrying a write forever.
func checkStateFile(path string) error {
	if info, err := os.Stat(path); err == nil && info.IsDir() {
		return fmt.Errorf("stateFile %s is a directory, not a file", path)
	}
	dir := filepath.Dir(path)
	for d := dir; ; d = filepath.Dir(d) {
		info, err := os.Stat(d)
		if errors.Is(err, fs.ErrNotExist) && filepath.Dir(d) != d {
			continue // created on first write; its parent decides
		}
		if err != nil {
			return fmt.Errorf("stateFile %s: %w", path, err)
		}
		if !info.IsDir() {
			return fmt.Errorf("stateFile %s: %s is not a directory", path, d)
		}
		f, err := os.CreateTemp(d, ".smile-write-check-*")
		if err != nil {
			return fmt.Errorf("stateFile %s: cannot write in %s: %w", path, d, err)
		}
		name := f.Name()
		_ = f.Close()
		return os.Remove(name)
	}
}
