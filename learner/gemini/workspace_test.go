package gemini_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/smile-loop/smile/learner/agent"
	"github.com/smile-loop/smile/learner/gemini"
	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/status"
	"github.com/smile-loop/smile/test/fakes/fakebin"
)

// imageSandbox is a sandbox whose tutorial shows two images, one in a
// subfolder, and ends with a marker line, filled up to size bytes.
func imageSandbox(t *testing.T, size int, scenario any) *fakebin.Sandbox {
	t.Helper()
	md := "# Weather CLI\n\n![arch](arch.png)\n\n![screen](shots/screen.png)\n\n```bash\npip install weather-cli\nweather --city Paris\n```\n"
	const last, line = "\nLAST LINE OF THE TUTORIAL\n", "Some more words about the weather and its command line tool.\n"
	for len(md)+len(line)+len(last) <= size {
		md += line
	}
	md += last
	sb := fakebin.NewSandbox(t, md, scenario)
	for _, name := range []string{"arch.png", "shots/screen.png"} {
		path := filepath.Join(sb.TutorialDir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte("\x89PNG\r\n\x1a\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return sb
}

// TestImagesAreInTheWorkspace: the Gemini CLI reads an @path only from its
// workspace and skips any other without an error, so the tutorial's folder
// joins the workspace and each image reaches the model, for both roles.
func TestImagesAreInTheWorkspace(t *testing.T) {
	scenario := map[string]any{"student-1": []map[string]any{{"answer": answer}},
		"mentor-1": []map[string]any{{"answer": `{"notes": "Install it with pipx.", "resolution": "workaround"}`}}}
	for _, role := range []status.Role{status.RoleStudent, status.RoleMentor} {
		t.Run(string(role), func(t *testing.T) {
			sb, _, _, err := runIn(t, imageSandbox(t, 0, scenario), role, nil, "GEMINI_API_KEY="+fakeKey)
			if err != nil {
				t.Fatal(err)
			}
			r := fakebin.Records(t, sb.Logs, "gemini")[0]
			for _, name := range []string{"arch.png", "shots/screen.png"} {
				path := filepath.Join(sb.TutorialDir, name)
				// Once: an image referenced twice is read into the prompt twice.
				if n := len(slices.DeleteFunc(slices.Clone(r.Attached), func(a string) bool { return a != path })); n != 1 || slices.Contains(r.Skipped, path) {
					t.Errorf("%s: attached %d times (%q), skipped %q (--include-directories %q)", name, n, r.Attached, r.Skipped, r.Flag("--include-directories"))
				}
			}
		})
	}
}

// TestLongPromptGoesOnStdin: a prompt too long for one argument reaches
// the model whole, on stdin (which the CLI puts before -p's text), not as
// a file the Mentor, with no shell and read_file kept to the workspace,
// could not read; the images still come with it.
func TestLongPromptGoesOnStdin(t *testing.T) {
	scenario := map[string]any{"student-1": []map[string]any{{"answer": answer}},
		"mentor-1": []map[string]any{{"answer": `{"notes": "Install it with pipx.", "resolution": "workaround"}`}}}
	for _, role := range []status.Role{status.RoleStudent, status.RoleMentor} {
		t.Run(string(role), func(t *testing.T) {
			// The tutorial at its size limit; the prompt adds the
			// instructions and goes over agent.MaxArg.
			sb, _, _, err := runIn(t, imageSandbox(t, spec.MaxTutorialBytes, scenario), role, nil, "GEMINI_API_KEY="+fakeKey)
			if err != nil {
				t.Fatal(err)
			}
			r := fakebin.Records(t, sb.Logs, "gemini")[0]
			if r.Stdin != "pipe" || !strings.HasPrefix(r.Flag("-p"), gemini.StdinPrompt) || len(r.Flag("-p")) > agent.MaxArg {
				t.Errorf("stdin %q, -p %.200q", r.Stdin, r.Flag("-p"))
			}
			if !strings.HasPrefix(r.Input, "You are the") || !strings.Contains(r.Input, "LAST LINE OF THE TUTORIAL") || len(r.Input) <= agent.MaxArg {
				t.Errorf("the model was given %d bytes: %.300q ... %.300q", len(r.Input), r.Input, r.Input[max(0, len(r.Input)-300):])
			}
			want := []string{filepath.Join(sb.TutorialDir, "arch.png"), filepath.Join(sb.TutorialDir, "shots/screen.png")}
			if got := slices.Sorted(slices.Values(r.Attached)); !slices.Equal(got, want) || len(r.Skipped) != 0 {
				t.Errorf("attached %q, skipped %q", r.Attached, r.Skipped)
			}
		})
	}
}

// TestAtPathEscapesDelimiters: a path with a space or a parenthesis stays
// one @ reference.
func TestAtPathEscapesDelimiters(t *testing.T) {
	if got := gemini.AtPath("/tutorial/my shot (1).png"); got != `/tutorial/my\ shot\ \(1\).png` {
		t.Errorf("AtPath = %q", got)
	}
}
