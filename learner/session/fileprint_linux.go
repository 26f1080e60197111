package session

import (
	"fmt"
	"syscall"
)

// filePrint is a file's identity and last change (its inode's change time,
// which any rewrite, rename onto it or chmod moves), or "absent".
func filePrint(p string) string {
	var st syscall.Stat_t
	if err := syscall.Lstat(p, &st); err != nil {
		return "absent"
	}
	return fmt.Sprintf("%d:%d:%d:%o:%d.%d", st.Dev, st.Ino, st.Size, st.Mode, st.Ctim.Sec, st.Ctim.Nsec)
}
