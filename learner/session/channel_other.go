//go:build !linux

package session

import "os"

// memfd is a temporary file no path names any more. The hands that run a
// tutorial's commands are always Linux (channel_linux.go); this serves a
// session run on the host of another system.
func memfd(name string) (*os.File, error) {
	f, err := os.CreateTemp("", "smile-"+name+"-*")
	if err != nil {
		return nil, err
	}
	_ = os.Remove(f.Name())
	return f, nil
}

// seal does nothing: only Linux seals files.
func seal(*os.File) error { return nil }
