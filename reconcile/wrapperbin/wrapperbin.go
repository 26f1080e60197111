// Package wrapperbin finds the smile-wrapper binary that is mounted into every
// container and checks that it starts in a run's image.
package wrapperbin

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/smile-loop/smile/runtime"
	"github.com/smile-loop/smile/status/wire"
)

// Find locates the smile-wrapper binary mounted into every container:
// the path given (a flag), else $SMILE_WRAPPER, else the file beside the
// running executable (hack/build.sh and `go install` put them together).
func Find(given string) (string, error) {
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

// Check says whether the wrapper binary starts in a container of
// image. A static wrapper starts in any image. A dynamically linked one (a
// cgo build) needs its C library's loader in the image, which musl images
// (alpine) and distroless/static lack: the container would die at once with
// an unhelpful "no such file or directory". It is tried in a throwaway
// container, as PID 1 (idle) as every run's containers have it, and in an
// exec (hands-exec with no request answers at once). An image that is not
// there is not this check's to report (nil).
func Check(ctx context.Context, rt runtime.Runtime, wrapper, image string) error {
	interp, err := runtime.Interpreter(wrapper)
	if err != nil || interp == "" || rt.EnsureImage(ctx, image) != nil {
		return err
	}
	err = runtime.StartsIn(ctx, rt, wrapper, wire.ContainerWrapperPath, image, []string{"idle"}, []string{"hands-exec"})
	if err != nil {
		return fmt.Errorf("smile-wrapper %s cannot start in %s: it is dynamically linked (it needs %s, which the image lacks: "+
			"musl images such as alpine and distroless/static have no glibc loader); use a static wrapper: "+
			"CGO_ENABLED=0 go install github.com/smile-loop/smile/cmd/...@latest, or hack/build.sh (%v)", wrapper, image, interp, err)
	}
	return nil
}
