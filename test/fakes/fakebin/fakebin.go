// Package fakebin builds the fake agent CLIs (test/fakes/agentcli) for
// tests on the host, and reads what they recorded.
package fakebin

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"sync"
	"testing"

	"github.com/smile-loop/smile/test/fakes/fakerecord"
)

var (
	once     sync.Once
	dir      string
	buildErr error
)

// Dir builds agentcli once per test binary and returns a folder holding it
// as claude, codex and gemini.
func Dir(t testing.TB) string {
	t.Helper()
	once.Do(func() {
		_, file, _, _ := runtime.Caller(0)
		src := filepath.Join(filepath.Dir(filepath.Dir(file)), "agentcli")
		dir, buildErr = os.MkdirTemp("", "smile-fakecli-")
		if buildErr != nil {
			return
		}
		bin := filepath.Join(dir, "agentcli")
		cmd := exec.Command("go", "build", "-o", bin, ".")
		cmd.Dir = src
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("build agentcli: %v\n%s", err, out)
			return
		}
		for _, name := range []string{"claude", "codex", "gemini"} {
			if err := os.Symlink(bin, filepath.Join(dir, name)); err != nil {
				buildErr = err
				return
			}
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return dir
}

// Path is the fake CLI named name.
func Path(t testing.TB, name string) string { return filepath.Join(Dir(t), name) }

// Record is what the fake wrote about one invocation.
type Record = fakerecord.Record

// Records reads every record of cli in logs, in invocation order.
func Records(t testing.TB, logs, cli string) []Record {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(logs, "fake-"+cli+"-*.json"))
	var out []Record
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var r Record
		if err := json.Unmarshal(data, &r); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Invocation < out[j].Invocation })
	return out
}
