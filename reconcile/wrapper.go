package reconcile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// FindWrapper locates the smile-wrapper binary mounted into every container:
// the path given (a flag), else $SMILE_WRAPPER, else the file beside the
// running executable (hack/build.sh and `go install` put them together).
func FindWrapper(given string) (string, error) {
	for _, explicit := range []string{given, os.Getenv("SMILE_WRAPPER")} {
		if explicit == "" {
			continue
		}
		if fi, err := os.Stat(explicit); err != nil || fi.IsDir() {
			return "", fmt.Errorf("smile-wrapper not found at %s", explicit)
		}
		return filepath.Abs(explicit)
	}
	exe, err := os.Executable()
	if err == nil {
		p := filepath.Join(filepath.Dir(exe), "smile-wrapper")
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p, nil
		}
	}
	return "", errors.New("smile-wrapper not found beside " + filepath.Base(exe) + ": build it with hack/build.sh (or set SMILE_WRAPPER)")
}
