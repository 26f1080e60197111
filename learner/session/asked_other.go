//go:build !linux

package session

import "os"

// askWatch sees nothing on a system without Linux's /proc: the hands that
// run a tutorial's commands are always Linux (asked_linux.go), and there a
// command's input is a watched pipe.
type askWatch struct{}

// newAskInput gives the command /dev/null as its input, unwatched.
func newAskInput() (r, w *os.File, id string, err error) {
	r, err = os.Open(os.DevNull)
	return r, nil, "", err
}

func watchAsks(int, *os.File, string) *askWatch { return &askWatch{} }

func (*askWatch) stop() []string { return nil }
