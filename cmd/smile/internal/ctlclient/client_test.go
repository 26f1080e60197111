package ctlclient

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A controller that exits before it serves is explained by its own lines
// of the log: not by the lines an earlier controller left there.
func TestExitedErrorShowsOnlyThisControllersLines(t *testing.T) {
	path := filepath.Join(t.TempDir(), "controller.log")
	earlier := "time=1 msg=\"controller idle, exiting\"\ntime=2 msg=\"stopped\"\n"
	if err := os.WriteFile(path, []byte(earlier), 0o644); err != nil {
		t.Fatal(err)
	}
	start := int64(len(earlier))
	got := exitedError(errors.New("exit status 1"), path, start).Error()
	if want := "the controller exited (exit status 1) and wrote nothing to " + path; got != want {
		t.Errorf("nothing new: %q, want %q", got, want)
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("error: another controller serves the workspace\n"); err != nil {
		t.Fatal(err)
	}
	f.Close()
	got = exitedError(errors.New("exit status 1"), path, start).Error()
	if want := "the controller exited (exit status 1): error: another controller serves the workspace"; got != want {
		t.Errorf("error = %q, want %q", got, want)
	}
	if strings.Contains(got, "idle") {
		t.Errorf("the error quotes the earlier controller: %q", got)
	}
}
