package e2e

import (
	"os/exec"
	"strings"
	"testing"
)

// TestBaseImageHasWhatPackagesExpect: smile-base is trimmed of docs, but
// keeps what Debian's packages expect of a reader's system: Java's packages
// register their man pages in /usr/share/man/man1 and fail to configure
// without that folder (a Mentor's `apt-get install default-jdk` then fails
// for SMILE's image, not for the page); and apt assumes the yes a reader
// types at "Do you want to continue? [Y/n]", which the Student, with no
// terminal, cannot.
func TestBaseImageHasWhatPackagesExpect(t *testing.T) {
	baseImage(t)
	t.Parallel()
	out, err := exec.Command("docker", "run", "--rm", "--network", "none", "smile-base:latest",
		"bash", "-c", "test -d /usr/share/man/man1 && echo man1; test -e /usr/share/doc/bash/copyright || echo trimmed; "+
			"apt-config dump | grep -q '^APT::Get::Assume-Yes \"true\"' && echo yes").CombinedOutput()
	if err != nil {
		t.Fatalf("docker run smile-base: %v\n%s", err, out)
	}
	if got := strings.Fields(string(out)); strings.Join(got, " ") != "man1 trimmed yes" {
		t.Errorf("smile-base: got %q, want the man1 folder present, the docs still trimmed and apt answering yes for the reader", got)
	}
}
