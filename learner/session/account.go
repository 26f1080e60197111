package session

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/user"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
)

// A session's commands run as the hands' own user (root in a container)
// unless the run names another (container.user): a name from the image's
// /etc/passwd, or a numeric UID[:GID]. The hands keep running as root, so
// the page's processes, as another user, can neither open the hands' pipes
// through /proc nor signal them, and SMILE's own steps (the smile.json
// setup, the Mentor's workarounds, such as installing a package) still run
// as root. The work folder and every file the hands write for the page
// belong to that user, so its commands can change them.

// accountSpec is what container.user may say.
var accountSpec = regexp.MustCompile(`^(?:[a-z_][a-z0-9_-]{0,31}|\d{1,10}(?::\d{1,10})?)$`)

// ValidAccount reports whether s names a user the way container.user may.
func ValidAccount(s string) bool { return accountSpec.MatchString(s) }

// account is a user the page's commands run as.
type account struct {
	uid, gid   uint32
	groups     []uint32
	name, home string
}

// errNoAccount: the image has no such user.
var errNoAccount = errors.New("no such user in the image")

// lookupAccount reads spec against this system's users: a name must be
// one of them; a number needs not be (its home is then the root folder).
func lookupAccount(spec string) (account, error) {
	if !ValidAccount(spec) {
		return account{}, fmt.Errorf("user %q: want a name or UID[:GID]", spec)
	}
	if id, gidText, withGid := strings.Cut(spec, ":"); withGid || spec[0] >= '0' && spec[0] <= '9' {
		uid, _ := strconv.ParseUint(id, 10, 32)
		a := account{uid: uint32(uid), gid: uint32(uid), name: "user" + id, home: "/"}
		if u, err := user.LookupId(id); err == nil {
			a.name, a.home = u.Username, u.HomeDir
			if g, err := strconv.ParseUint(u.Gid, 10, 32); err == nil {
				a.gid = uint32(g)
			}
		}
		if withGid {
			g, _ := strconv.ParseUint(gidText, 10, 32)
			a.gid = uint32(g)
		}
		return a, nil
	}
	u, err := user.Lookup(spec)
	if err != nil {
		return account{}, fmt.Errorf("user %q: %w", spec, errNoAccount)
	}
	uid, err1 := strconv.ParseUint(u.Uid, 10, 32)
	gid, err2 := strconv.ParseUint(u.Gid, 10, 32)
	if err1 != nil || err2 != nil {
		return account{}, fmt.Errorf("user %q: its ids are not numbers", spec)
	}
	a := account{uid: uint32(uid), gid: uint32(gid), name: u.Username, home: u.HomeDir}
	if ids, err := u.GroupIds(); err == nil {
		for _, id := range ids {
			if g, err := strconv.ParseUint(id, 10, 32); err == nil {
				a.groups = append(a.groups, uint32(g))
			}
		}
	}
	return a, nil
}

// credential is how a command is started as the account.
func (a account) credential() *syscall.Credential {
	return &syscall.Credential{Uid: a.uid, Gid: a.gid, Groups: a.groups}
}

// own gives the account path and, when it is a folder, everything under it,
// never following a link.
func (a account) own(path string) error {
	return filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, int(a.uid), int(a.gid))
	})
}
