package literal

import (
	"testing"

	"github.com/smile-loop/smile/status"
)

// A stand-in covers what its workaround made and what lies inside it,
// nothing beside it; one an earlier attempt made (no folder known) covers
// any folder of its name.
func TestStandInCoversOnlyWhatItMade(t *testing.T) {
	n := status.MentorNote{Line: 6, Category: status.CategoryMissingFile, Resolution: status.ResolutionWorkaround,
		Workaround: "mkdir -p lesson-data && touch lesson-data/.keep"}
	got := standInWorkaround(n, "/work")
	if len(got) != 2 || got[0].path != "/work/lesson-data" || got[1].path != "/work/lesson-data/.keep" || got[0].line != 6 {
		t.Fatalf("stand-ins = %+v", got)
	}
	si := got[0]
	for p, want := range map[string]bool{
		"/work/lesson-data": true, "/work/lesson-data/draft.txt": true, "/work/lesson-data/a/b": true,
		"/work/note.txt": false, "/work/lesson-data2/x": false, "/tmp/lesson-data/x": false,
	} {
		if si.within(p) != want {
			t.Errorf("within(%q) = %v, want %v", p, !want, want)
		}
	}
	earlier := standInWorkaround(n, "")[0]
	if !earlier.within("/home/me/lesson-data/draft.txt") || earlier.within("/home/me/notes/draft.txt") {
		t.Errorf("a stand-in made by an earlier attempt: %+v", earlier)
	}
	n.Workaround = "ln -s config.yaml conifg.yaml"
	if got := standInWorkaround(n, "/work"); len(got) != 0 {
		t.Errorf("a link is no stand-in: %+v", got)
	}
	n.Workaround, n.Category = "mkdir -p logs", status.CategoryPermissionDenied
	if got := standInWorkaround(n, "/work"); len(got) != 0 {
		t.Errorf("only a missing file's or the environment's workaround stands in: %+v", got)
	}
}
