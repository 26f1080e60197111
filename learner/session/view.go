package session

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"
	"syscall"
)

// View answers the requests that only read a folder the hands mount (read,
// stat and list under Target) from the same folder on this machine (Source),
// and sends every other request to Next. A learner that only looks at the
// work folder then needs no container at all: Next can start one when it is
// first asked (reconcile's on-demand Mentor).
//
// The folder is the tutorial's to fill, so View never leaves it: it reads
// through an os.Root (no symbolic link or ".." leads out), opens regular
// files only, without blocking and without following a link, and hands to
// Next whatever it cannot answer as the container would: a link that points
// out of the folder (it may exist in the container), a file this process may
// not read (the container's root may), a device or a pipe.
type View struct {
	Target string // the folder where Next runs, e.g. /workspace/work
	Source string // the same folder here
	Next   Hands
}

var _ Hands = View{}

// Do is part of the Hands interface.
func (v View) Do(ctx context.Context, req Request) (Response, error) {
	if rel, ok := v.inside(req.Path); ok {
		switch req.Op {
		case OpRead, OpStat, OpList:
			if res, ok := v.answer(req, rel); ok {
				res.ID = req.ID
				return res, nil
			}
		}
	}
	return v.Next.Do(ctx, req)
}

// inside returns p relative to Target ("." for Target itself) when p names
// Target or something under it.
func (v View) inside(p string) (string, bool) {
	if v.Target == "" || v.Source == "" || !path.IsAbs(p) {
		return "", false
	}
	p, target := path.Clean(p), path.Clean(v.Target)
	if p == target {
		return ".", true
	}
	rel, ok := strings.CutPrefix(p, target+"/")
	return rel, ok
}

// answer answers req here; ok is false when only Next can.
func (v View) answer(req Request, rel string) (Response, bool) {
	root, err := os.OpenRoot(v.Source)
	if err != nil {
		return Response{}, false
	}
	defer root.Close()
	switch req.Op {
	case OpStat:
		info, err := root.Stat(rel)
		switch {
		case err == nil:
			return Response{Exists: true, Mode: info.Mode()}, true
		case errors.Is(err, fs.ErrNotExist) && !linkOnPath(root, rel):
			return Response{}, true
		}
	case OpRead:
		data, err := readRegular(root, rel, req.Limit)
		if err == nil {
			return Response{Data: data}, true
		}
	case OpList:
		info, err := root.Lstat(rel)
		switch {
		case errors.Is(err, fs.ErrNotExist) && !linkOnPath(root, rel):
			return Response{}, true // as Local lists a missing folder
		case err != nil || info.Mode()&fs.ModeSymlink != 0:
			return Response{}, false
		}
		paths, err := listTree(req, func(fn fs.WalkDirFunc) error { return fs.WalkDir(root.FS(), rel, fn) }, rel, true)
		if err == nil {
			return Response{Paths: paths}, true
		}
	}
	return Response{}, false
}

// linkOnPath reports whether a folder on the way to rel is a symbolic link
// (or cannot be looked at): where it leads, only the container knows.
func linkOnPath(root *os.Root, rel string) bool {
	dir := path.Dir(rel)
	for dir != "." && dir != "/" {
		info, err := root.Lstat(dir)
		if err == nil && info.Mode()&fs.ModeSymlink != 0 {
			return true
		}
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return true
		}
		dir = path.Dir(dir)
	}
	return false
}

// readRegular reads at most limit bytes (MaxOutputBytes when limit <= 0)
// from the start of the regular file rel, opened without following a final
// link or blocking on a pipe, and checked to be the file first looked at.
func readRegular(root *os.Root, rel string, limit int) ([]byte, error) {
	before, err := root.Lstat(rel)
	if err != nil {
		return nil, err
	}
	if !before.Mode().IsRegular() {
		return nil, errNotRegular
	}
	f, err := root.OpenFile(rel, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	after, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !after.Mode().IsRegular() || !os.SameFile(before, after) {
		return nil, errNotRegular
	}
	if limit <= 0 {
		limit = MaxOutputBytes
	}
	return io.ReadAll(io.LimitReader(f, int64(limit)))
}

var errNotRegular = errors.New("not a regular file")
