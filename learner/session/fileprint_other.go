//go:build !linux

package session

import (
	"fmt"
	"os"
)

// filePrint is a file's size, mode and last modification, or "absent". The
// hands that run a tutorial's commands are always Linux (fileprint_linux.go);
// this serves a session run on the host of another system.
func filePrint(p string) string {
	info, err := os.Lstat(p)
	if err != nil {
		return "absent"
	}
	return fmt.Sprintf("%d:%o:%d", info.Size(), info.Mode(), info.ModTime().UnixNano())
}
