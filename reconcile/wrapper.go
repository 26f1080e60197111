package reconcile

import (
	"context"
	"debug/elf"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/smile-loop/smile/runtime"
	"github.com/smile-loop/smile/status/wire"
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

// WrapperInterpreter is the dynamic loader the wrapper binary asks for: ""
// for a static binary (what hack/build.sh and CGO_ENABLED=0 make), or for
// a file that is not ELF at all (nothing to tell from it).
func WrapperInterpreter(path string) (string, error) {
	head := make([]byte, 4)
	r, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer r.Close()
	if _, err := io.ReadFull(r, head); err != nil || string(head) != elf.ELFMAG {
		return "", nil // a script, or too short to be a program
	}
	f, err := elf.NewFile(r)
	if err != nil {
		return "", err
	}
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			data, err := io.ReadAll(p.Open())
			if err != nil {
				return "", err
			}
			return strings.TrimRight(string(data), "\x00"), nil
		}
	}
	return "", nil
}

// CheckWrapper says whether the wrapper binary starts in a container of
// image. A static wrapper starts in any image. A dynamically linked one (a
// cgo build) needs its C library's loader in the image, which musl images
// (alpine) and distroless/static lack: the container would die at once with
// an unhelpful "no such file or directory". It is tried in a throwaway
// container: the wrapper as PID 1, as every run's containers have it, and
// in an exec. An image that is not there is not this check's to report
// (nil).
func CheckWrapper(ctx context.Context, rt runtime.Runtime, wrapper, image string) error {
	interp, err := WrapperInterpreter(wrapper)
	if err != nil || interp == "" {
		return err
	}
	if rt.EnsureImage(ctx, image) != nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	c, err := rt.Start(ctx, runtime.ContainerSpec{
		Name: fmt.Sprintf("smile-wrapper-check-%d-%s", os.Getpid(), newID()[:8]), Image: image,
		Cmd: []string{wire.ContainerWrapperPath, "idle"}, Network: "none",
		Mounts: []runtime.Mount{{Source: wrapper, Target: wire.ContainerWrapperPath, ReadOnly: true}},
		Labels: map[string]string{runtime.LabelOwner: "smile-check"},
	})
	if err == nil {
		defer rt.Remove(context.WithoutCancel(ctx), c.Name)
		// PID 1 may be an init that execs the wrapper (and dies with it):
		// the wrapper is run once more, for sure, by an exec. hands-exec with
		// no request on its stdin answers at once (an error: no request).
		var code int
		var out string
		code, out, err = rt.Exec(ctx, c.Name, []string{wire.ContainerWrapperPath, "hands-exec"}, 30*time.Second)
		if err == nil && (code == 126 || code == 127) {
			err = fmt.Errorf("exit %d: %s", code, strings.TrimSpace(out))
		}
	}
	if err != nil {
		return fmt.Errorf("smile-wrapper %s cannot start in %s: it is dynamically linked (it needs %s, which the image lacks: "+
			"musl images such as alpine and distroless/static have no glibc loader); use a static wrapper: "+
			"CGO_ENABLED=0 go install github.com/smile-loop/smile/cmd/...@latest, or hack/build.sh (%v)", wrapper, image, interp, err)
	}
	return nil
}

// checkWrapper is CheckWrapper for the manager's wrapper, once per image
// (the caller holds m.changing): apply refuses a run whose containers could
// not start, before any of them is tried.
func (m *Manager) checkWrapper(image string) error {
	if m.opts.WrapperPath == "" {
		return nil
	}
	if err, ok := m.wrapperChecked[image]; ok {
		return err
	}
	err := CheckWrapper(context.Background(), m.opts.Runtime, m.opts.WrapperPath, image)
	if m.wrapperChecked == nil {
		m.wrapperChecked = map[string]error{}
	}
	m.wrapperChecked[image] = err
	return err
}
