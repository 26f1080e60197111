package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/smile-loop/smile/spec/runfile"
)

// TestReleaseConfig checks what .goreleaser.yaml promises without running
// goreleaser: every binary is static (no cgo, trimmed paths), checksums are
// published, the wrapper (which runs inside Linux containers) is built for
// Linux only, and every platform named really compiles.
func TestReleaseConfig(t *testing.T) {
	if testing.Short() {
		t.Skip("cross-compiles the binaries (skipped with -short)")
	}
	root := repoRoot(t)
	data, err := os.ReadFile(filepath.Join(root, ".goreleaser.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var cfg struct {
		Builds []struct {
			ID     string   `json:"id"`
			Main   string   `json:"main"`
			Env    []string `json:"env"`
			Flags  []string `json:"flags"`
			Goos   []string `json:"goos"`
			Goarch []string `json:"goarch"`
		} `json:"builds"`
		Checksum struct {
			Algorithm string `json:"algorithm"`
		} `json:"checksum"`
	}
	if err := runfile.UnmarshalYAML(data, &cfg, false); err != nil {
		t.Fatalf(".goreleaser.yaml: %v", err)
	}
	if cfg.Checksum.Algorithm != "sha256" {
		t.Errorf("checksum algorithm %q, want sha256", cfg.Checksum.Algorithm)
	}
	var ids []string
	for _, b := range cfg.Builds {
		ids = append(ids, b.ID)
		if !slices.Contains(b.Env, "CGO_ENABLED=0") || !slices.Contains(b.Flags, "-trimpath") {
			t.Errorf("build %s is not static: env %v flags %v", b.ID, b.Env, b.Flags)
		}
		if b.ID == "smile-wrapper" && !slices.Equal(b.Goos, []string{"linux"}) {
			t.Errorf("the wrapper runs in Linux containers only, built for %v", b.Goos)
		}
		for _, goos := range b.Goos {
			if goos == "linux" {
				continue // built by every test run already
			}
			arch := b.Goarch[len(b.Goarch)-1]
			cmd := exec.Command("go", "build", "-trimpath", "-o", os.DevNull, b.Main)
			cmd.Dir = root
			cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS="+goos, "GOARCH="+arch)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("build %s for %s/%s: %v\n%s", b.ID, goos, arch, err, out)
			}
		}
	}
	for _, want := range []string{"smile", "smile-controller", "smile-wrapper"} {
		if !slices.Contains(ids, want) {
			t.Errorf(".goreleaser.yaml builds %v, not %s", ids, want)
		}
	}
}
