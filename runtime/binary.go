package runtime

import (
	"context"
	"debug/elf"
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// Interpreter is the dynamic loader an executable on the host asks for: ""
// for a static binary (CGO_ENABLED=0), or for a file that is not ELF at all
// (a script: nothing to tell from it).
func Interpreter(path string) (string, error) {
	r, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer r.Close()
	head := make([]byte, 4)
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

// StartsIn tries a host binary in a throwaway container of image, mounted
// read-only at target: as PID 1 with cmd, then once more by an exec of
// probe (PID 1 may be an init that runs the binary and hides its failure to
// start). It returns why the binary could not start, nil when it did. The
// container is removed.
func StartsIn(ctx context.Context, rt Runtime, binary, target, image string, cmd, probe []string) error {
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	c, err := rt.Start(ctx, ContainerSpec{
		Name: fmt.Sprintf("smile-check-%d-%d", os.Getpid(), time.Now().UnixNano()), Image: image,
		Cmd: append([]string{target}, cmd...), Network: "none",
		Mounts: []Mount{{Source: binary, Target: target, ReadOnly: true}},
		Labels: map[string]string{LabelOwner: "smile-check"},
	})
	if err != nil {
		return err
	}
	defer rt.Remove(context.WithoutCancel(ctx), c.Name)
	code, out, err := rt.Exec(ctx, c.Name, append([]string{target}, probe...), 30*time.Second)
	if err == nil && (code == 126 || code == 127) { // the shell's "cannot execute" and "not found"
		err = fmt.Errorf("exit %d: %s", code, strings.TrimSpace(out))
	}
	return err
}
