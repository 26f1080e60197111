package checkpoints

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/go-logr/logr"

	"github.com/smile-loop/smile/runtime"
)

// StateKey is the short hash of a run's state file (runtime.LabelStateKey):
// it tells two folders' runs of the same name apart.
func StateKey(stateFile string) string {
	sum := sha256.Sum256([]byte(stateFile))
	return hex.EncodeToString(sum[:])[:8]
}

// Origin is who takes snapshots, and on which host: a sweep only ever
// removes the snapshots of its own origin.
type Origin struct {
	UID  int
	Host string
}

// Here is this process's origin. Without a host name it has none, and
// neither its snapshots nor its sweeps carry one.
func Here() Origin {
	host, err := os.Hostname()
	if err != nil {
		host = ""
	}
	return Origin{UID: os.Getuid(), Host: host}
}

// Labels are what a snapshot of the run of stateFile carries for a later
// sweep: the state file's path and the origin. Nothing without a host name
// or an absolute path: such a snapshot is never swept.
func (o Origin) Labels(stateFile string) map[string]string {
	if o.Host == "" || !filepath.IsAbs(stateFile) {
		return map[string]string{}
	}
	return map[string]string{runtime.LabelStateFile: stateFile, runtime.LabelUID: strconv.Itoa(o.UID), runtime.LabelHost: o.Host}
}

// selector matches SMILE's snapshots of this origin on the engine.
func (o Origin) selector() map[string]string {
	return map[string]string{runtime.LabelOwner: runtime.OwnerValue, runtime.LabelKind: runtime.KindSnapshot,
		runtime.LabelUID: strconv.Itoa(o.UID), runtime.LabelHost: o.Host}
}

// Sweep removes, from the whole engine, the snapshots this origin took for
// runs whose state folder (the folder of the state file) no longer exists:
// the folder was deleted without `smile delete`, so no controller of it
// will ever remove them. It keeps everything else: a snapshot without
// SMILE's owner label or of another uid or host, one that lacks the labels
// (taken before them), whose labels disagree or whose folder exists or cannot
// be told to be gone, and one a container still uses. It logs each removal
// and returns the refs removed; err joins what failed.
func Sweep(ctx context.Context, rt runtime.Runtime, o Origin, log logr.Logger) (removed []string, err error) {
	list, err := Orphans(ctx, rt, o)
	if err != nil {
		return nil, err
	}
	var errs []error
	for _, s := range list {
		stateFile := s.Labels[runtime.LabelStateFile]
		err := rt.RemoveSnapshot(ctx, s.Ref)
		switch {
		case errors.Is(err, runtime.ErrInUse):
			log.Info("Kept the snapshot of a deleted folder: a container uses it", "snapshot", s.Ref, "stateFile", stateFile)
		case err != nil:
			errs = append(errs, err)
		default:
			removed = append(removed, s.Ref)
			log.Info("Removed the snapshot of a deleted folder", "snapshot", s.Ref, "run", s.Labels[runtime.LabelRun], "stateFile", stateFile)
		}
	}
	return removed, errors.Join(errs...)
}

// Orphans lists the snapshots a sweep removes: this origin's, of runs whose
// state folder no longer exists.
func Orphans(ctx context.Context, rt runtime.Runtime, o Origin) ([]runtime.Snapshot, error) {
	if o.Host == "" {
		return nil, nil
	}
	list, err := rt.ListSnapshots(ctx, o.selector())
	if err != nil {
		return nil, fmt.Errorf("list snapshots to sweep: %w", err)
	}
	var out []runtime.Snapshot
	for _, s := range list {
		if _, ok := orphaned(s, o); ok {
			out = append(out, s)
		}
	}
	return out, nil
}

// orphaned says whether s is a snapshot of o for a run whose state folder
// is gone, and names its state file.
func orphaned(s runtime.Snapshot, o Origin) (string, bool) {
	stateFile, ok := orphanLabels(s, o)
	if !ok {
		return "", false
	}
	_, err := os.Lstat(filepath.Dir(stateFile))
	return stateFile, errors.Is(err, fs.ErrNotExist)
}

// orphanLabels says whether s is a checkpoint snapshot o took, with every
// label a sweep or a prune needs and in agreement, and names its state file.
func orphanLabels(s runtime.Snapshot, o Origin) (string, bool) {
	l := s.Labels
	stateFile := l[runtime.LabelStateFile]
	switch {
	case l[runtime.LabelOwner] != runtime.OwnerValue, l[runtime.LabelKind] != runtime.KindSnapshot,
		l[runtime.LabelUID] != strconv.Itoa(o.UID), l[runtime.LabelHost] != o.Host,
		!strings.HasPrefix(s.Ref, Repository+":"),
		!filepath.IsAbs(stateFile), filepath.Clean(stateFile) != stateFile, filepath.Dir(stateFile) == stateFile,
		l[runtime.LabelStateKey] != StateKey(stateFile):
		return "", false
	}
	return stateFile, true
}

// SweepAtStart is the sweep a controller runs when it starts (within a
// minute; a failure is logged, not fatal): snapshots of folders deleted
// without `smile delete` have no controller of their own left to remove them.
func SweepAtStart(ctx context.Context, rt runtime.Runtime, log logr.Logger) {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	if _, err := Sweep(ctx, rt, Here(), log); err != nil {
		log.Error(err, "Could not sweep the snapshots of deleted folders")
	}
}
