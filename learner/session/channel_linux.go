package session

import (
	"os"

	"golang.org/x/sys/unix"
)

// memfd is an anonymous file in memory: no path names it, so only a process
// that holds it, or can open another's through /proc, reaches it.
func memfd(name string) (*os.File, error) {
	fd, err := unix.MemfdCreate(name, unix.MFD_CLOEXEC|unix.MFD_ALLOW_SEALING)
	if err != nil {
		return nil, err
	}
	return os.NewFile(uintptr(fd), "memfd:"+name), nil
}

// seal makes f unchangeable from now on, by whoever holds it: writes,
// truncation and growth are refused, and so is taking the seals back.
func seal(f *os.File) error {
	_, err := unix.FcntlInt(f.Fd(), unix.F_ADD_SEALS, unix.F_SEAL_SEAL|unix.F_SEAL_SHRINK|unix.F_SEAL_GROW|unix.F_SEAL_WRITE)
	return err
}
