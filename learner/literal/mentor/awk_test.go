package mentor

import (
	"strings"
	"testing"

	"github.com/smile-loop/smile/spec/spectest"
	"github.com/smile-loop/smile/status"
	"github.com/smile-loop/smile/status/wire"
)

// A page written for GNU awk that fails under mawk: the environment, and
// the Mentor installs gawk.
func TestAwkFlavour(t *testing.T) {
	tut := "# Fields\n\nSee the gawk manual for more.\n\n```bash\n$ awk '{print $2.5}' t.txt\n```\n"
	out := "awk: line 1: $3 is invalid field index\n"
	fail := Classify("awk '{print $2.5}' t.txt", 2, out, false)
	if got := AwkFlavour(fail, "awk '{print $2.5}' t.txt", out, spectest.Tutorial(t, tut)); got.Category != status.CategoryEnvironment || got.Subject != lacksGNUAwk {
		t.Fatalf("classified %+v, want the environment (GNU awk)", got)
	}
	if got := AwkFlavour(fail, "awk '{print $2.5}' t.txt", out, spectest.Tutorial(t, strings.Replace(tut, "gawk", "awk", 1))); got.Category == status.CategoryEnvironment {
		t.Errorf("a page that never names GNU awk: %+v, want the tutorial's gap", got)
	}
	if got := AwkFlavour(fail, "sed 's/a/b/' t.txt", out, spectest.Tutorial(t, tut)); got.Category == status.CategoryEnvironment {
		t.Errorf("not an awk command: %+v", got)
	}
	p := "the container lacks " + lacksGNUAwk + ": awk: line 1: $3 is invalid field index"
	m := &mentor{lookPath: onPath("apt-get")}
	a, ok := m.gnuAwk(baseAdvice(6), status.Finding{Category: status.CategoryEnvironment, Line: 6, Command: "awk '{print $2.5}' t.txt", Problem: p})
	if !ok || a.Resolution != status.ResolutionWorkaround || !strings.Contains(a.Workaround, "install -y --no-install-recommends gawk") {
		t.Errorf("advice %+v, %v; want gawk installed", a, ok)
	}
}

func baseAdvice(line int) wire.MentorAdvice {
	return wire.MentorAdvice{Line: line, Category: status.CategoryEnvironment}
}

// gawk installed by the Mentor, older than the page's (no --csv): the
// environment, even when awk runs after a pipe.
func TestOlderGawkIsTheEnvironment(t *testing.T) {
	notes := []status.MentorNote{{Resolution: status.ResolutionWorkaround, Workaround: "apt-get update && apt-get install -y gawk"}}
	out := "awk: invalid option -- 'k'\nUsage: awk [POSIX or GNU style options] -f progfile [--] file ...\n"
	cmd := "printf 'a,b\\n' | awk -k '{print $2}'"
	if got := OlderThanExpected(Classify(cmd, 1, out, false), cmd, out, notes); got.Category != status.CategoryEnvironment || !strings.Contains(got.Subject, "`awk`") || !strings.Contains(got.Subject, "mawk") || strings.Contains(got.Subject, "had none") {
		t.Errorf("got %+v, want the environment (an older awk than the page's, the image's being mawk)", got)
	}
	if got := OlderThanExpected(Classify(cmd, 1, out, false), cmd, out, nil); got.Category == status.CategoryEnvironment {
		t.Errorf("without the workaround: %+v, want the tutorial's gap", got)
	}
}
