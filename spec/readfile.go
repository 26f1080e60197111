package spec

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// ErrNotRegular wraps a path that names something other than a regular file
// (a named pipe, a socket, a device): SMILE reads only files, and a pipe with
// no writer would otherwise hang it forever.
var ErrNotRegular = errors.New("not a regular file")

// ReadRegularFile reads a regular file. It opens the path without blocking,
// so a named pipe is refused at once instead of waiting for a writer, and it
// checks the file it opened (not a name looked up before) before reading it.
// A missing file's error wraps fs.ErrNotExist, as os.ReadFile's does.
func ReadRegularFile(path string) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "read", Path: path, Err: fmt.Errorf("%w (%s)", ErrNotRegular, kindOf(info.Mode()))}
	}
	return io.ReadAll(f)
}

// kindOf names a file mode's type for a person.
func kindOf(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "mode " + m.Type().String()
}
