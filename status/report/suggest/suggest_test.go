package suggest

import (
	"slices"
	"testing"

	"github.com/smile-loop/smile/status"
)

func TestSuggestForLineChanges(t *testing.T) {
	for _, tc := range []struct {
		name string
		gap  status.Gap
		line string // the tutorial's line; "" when unknown
		want []string
	}{
		{
			name: "chmod from the Mentor",
			gap: status.Gap{Category: status.CategoryPermissionDenied, Location: status.GapLocation{LineNumber: 30, Quote: "./count.sh words.txt"},
				Command: "./count.sh words.txt", SuggestedFix: "Add `chmod +x count.sh` before line 30."},
			want: []string{"chmod +x count.sh", "./count.sh words.txt"},
		},
		{
			name: "chmod inside a hedged fix",
			gap: status.Gap{Category: status.CategoryPermissionDenied, Location: status.GapLocation{LineNumber: 7, Quote: "./deploy.sh"}, Command: "./deploy.sh",
				SuggestedFix: "Make sure the step at line 7 is allowed to use `./deploy.sh` (e.g. add `chmod +x ./deploy.sh` before it if it is a script, or say it needs sudo)."},
			want: []string{"chmod +x ./deploy.sh", "./deploy.sh"},
		},
		{
			name: "chmod keeps the line's indentation and prompt",
			gap: status.Gap{Category: status.CategoryPermissionDenied, Location: status.GapLocation{LineNumber: 30, Quote: "$ ./run.sh"}, Command: "./run.sh",
				SuggestedFix: "Add `chmod +x run.sh` before running it."},
			line: "   $ ./run.sh",
			want: []string{"   $ chmod +x run.sh", "   $ ./run.sh"},
		},
		{
			name: "install command as a prerequisite line",
			gap: status.Gap{Category: status.CategoryMissingDependency, Location: status.GapLocation{LineNumber: 12, Quote: "jq .name data.json"}, Command: "jq .name data.json",
				SuggestedFix: "Add `sudo apt-get install -y jq` to the prerequisites (or as a step) before line 12."},
			want: []string{"sudo apt-get install -y jq", "jq .name data.json"},
		},
		{
			name: "install commands in a fenced block",
			gap: status.Gap{Category: status.CategoryMissingDependency, Location: status.GapLocation{LineNumber: 20, Quote: "python3 app.py"}, Command: "python3 app.py",
				SuggestedFix: "Install Python first:\n\n```bash\n$ apt-get update\n$ apt-get install -y python3\n```\n"},
			want: []string{"apt-get update", "apt-get install -y python3", "python3 app.py"},
		},
		{
			name: "missing folder",
			gap: status.Gap{Category: status.CategoryMissingFile, Location: status.GapLocation{LineNumber: 9, Quote: "cd wordcount"}, Command: "cd wordcount",
				SuggestedFix: "Add `mkdir -p wordcount` before line 9."},
			want: []string{"mkdir -p wordcount", "cd wordcount"},
		},
		{
			name: "misspelt file name",
			gap: status.Gap{Category: status.CategoryMissingFile, Location: status.GapLocation{LineNumber: 12, Quote: "cat conifg.yaml"}, Command: "cat conifg.yaml",
				SuggestedFix: "Line 12 refers to `conifg.yaml`, but the tutorial created `config.yaml`: use one name in both places."},
			want: []string{"cat config.yaml"},
		},
		{
			name: "misspelt name in a prose line",
			gap: status.Gap{Category: status.CategoryMissingFile, Location: status.GapLocation{LineNumber: 40, Quote: "Open `setings.json` in your editor."},
				SuggestedFix: "Line 40 refers to `setings.json`, but the tutorial created `settings.json`: use one name in both places."},
			line: "Open `setings.json` in your editor.",
			want: []string{"Open `settings.json` in your editor."},
		},
		{
			name: "the name the tutorial created lives in another folder: only the file name is corrected",
			gap: status.Gap{Category: status.CategoryMissingFile, Location: status.GapLocation{LineNumber: 15, Quote: "python3 src/mian.py"}, Command: "python3 src/mian.py",
				SuggestedFix: "Line 15 refers to `src/mian.py`, but the tutorial created `app/main.py`: use one name in both places."},
			want: []string{"python3 src/main.py"},
		},
		{
			name: "replace with",
			gap: status.Gap{Category: status.CategoryCommandFailure, Location: status.GapLocation{LineNumber: 5, Quote: "pip install reqests"}, Command: "pip install reqests",
				SuggestedFix: "Replace `reqests` with `requests`."},
			want: []string{"pip install requests"},
		},
		{
			name: "use instead of",
			gap: status.Gap{Category: status.CategoryCommandFailure, Location: status.GapLocation{LineNumber: 5, Quote: "python app.py"}, Command: "python app.py",
				SuggestedFix: "Use `python3` instead of `python`: the image has no `python`."},
			want: []string{"python3 app.py"},
		},
		{
			name: "whole line",
			gap: status.Gap{Category: status.CategoryCommandFailure, Location: status.GapLocation{LineNumber: 22, Quote: "npm start"}, Command: "npm start",
				SuggestedFix: "Replace line 22 with `npm run dev`."},
			line: "  npm start",
			want: []string{"  npm run dev"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, ok := For(tc.gap, tc.line, nil)
			if !ok {
				t.Fatalf("no suggestion for %q", tc.gap.SuggestedFix)
			}
			if !slices.Equal(s.Lines, tc.want) {
				t.Errorf("lines = %q, want %q", s.Lines, tc.want)
			}
			if s.Line != tc.gap.Location.LineNumber || s.Description == "" {
				t.Errorf("suggestion = %+v, want one for line %d with a description", s, tc.gap.Location.LineNumber)
			}
			if tc.line != "" && s.Original != tc.line {
				t.Errorf("original = %q, want the tutorial's line %q", s.Original, tc.line)
			}
		})
	}
}

func TestSuggestForNotALineChange(t *testing.T) {
	chmod := func(fix string) status.Gap {
		return status.Gap{Category: status.CategoryPermissionDenied, Location: status.GapLocation{LineNumber: 30, Quote: "./run.sh"}, Command: "./run.sh", SuggestedFix: fix}
	}
	for _, tc := range []struct {
		name string
		gap  status.Gap
		line string
	}{
		{"prerequisites section", status.Gap{Category: status.CategoryMissingDependency, Location: status.GapLocation{LineNumber: 12, Quote: "jq ."}, Command: "jq .",
			SuggestedFix: "Add jq to the prerequisites."}, ""},
		{"installs a tool, no command", status.Gap{Category: status.CategoryMissingDependency, Location: status.GapLocation{LineNumber: 12, Quote: "jq ."}, Command: "jq .",
			SuggestedFix: "Add a step (or a Prerequisites entry) that installs `jq` before line 12."}, ""},
		{"a question to answer", status.Gap{Category: status.CategoryTimeout, Location: status.GapLocation{LineNumber: 20, Quote: "npm start"}, Command: "npm start",
			SuggestedFix: "Say how long line 20 takes; if it starts something that keeps running (a server, a watcher), say to run it in the background or in a second terminal."}, ""},
		{"a line to move", status.Gap{Category: status.CategoryUndefinedVariable, Location: status.GapLocation{LineNumber: 12, Quote: "curl $API_URL"}, Command: "curl $API_URL",
			SuggestedFix: "Move the line that sets API_URL (line 40) before line 12."}, ""},
		{"a placeholder", status.Gap{Category: status.CategoryUndefinedVariable, Location: status.GapLocation{LineNumber: 12, Quote: "curl $API_URL"}, Command: "curl $API_URL",
			SuggestedFix: "Set API_URL before line 12, e.g. `export API_URL=...`, and say what value it should have."}, ""},
		{"an angle-bracket placeholder", chmod("Add `export TOKEN=<your-token>` before line 30."), ""},
		{"a file to create", status.Gap{Category: status.CategoryMissingFile, Location: status.GapLocation{LineNumber: 12, Quote: "cat data.csv"}, Command: "cat data.csv",
			SuggestedFix: "Create `data.csv` before line 12, or say where it comes from."}, ""},
		{"another line", chmod("Add `chmod +x run.sh` before line 29."), ""},
		{"after, not before", chmod("Add `chmod +x run.sh` after the heredoc."), ""},
		{"output to update", status.Gap{Category: status.CategoryOutputMismatch, Location: status.GapLocation{LineNumber: 14, Quote: "9"},
			SuggestedFix: "Show the output jq prints: \"smile\"."}, ""},
		{"no fix", chmod(""), ""},
		{"no line", status.Gap{Category: status.CategoryPermissionDenied, Location: status.GapLocation{Quote: "./run.sh"}, Command: "./run.sh", SuggestedFix: "Add `chmod +x run.sh` before it."}, ""},
		{"a multi-line quote stands for no line", status.Gap{Category: status.CategoryPermissionDenied, Location: status.GapLocation{LineNumber: 30, Quote: "./run.sh \\\n  --fast"},
			Command: "./run.sh", SuggestedFix: "Add `chmod +x run.sh` before it."}, ""},
		{"the line no longer holds the quote", chmod("Add `chmod +x run.sh` before it."), "./start.sh"},
		{"a renamed name the line does not hold", status.Gap{Category: status.CategoryMissingFile, Location: status.GapLocation{LineNumber: 12, Quote: "cat conifg.yaml"},
			Command: "cat conifg.yaml", SuggestedFix: "Line 12 refers to `confg.yml`, but the tutorial created `config.yaml`."}, ""},
		{"only the folder differs", status.Gap{Category: status.CategoryMissingFile, Location: status.GapLocation{LineNumber: 12, Quote: "cat conf/app.yaml"},
			Command: "cat conf/app.yaml", SuggestedFix: "Line 12 refers to `conf/app.yaml`, but the tutorial created `config/app.yaml`."}, ""},
		{"inserting the line itself", chmod("Run `./run.sh` first."), ""},
		{"a prose line gets no line inserted above it", status.Gap{Category: status.CategoryAmbiguousInstruction, Location: status.GapLocation{LineNumber: 3, Quote: "Run the script."},
			SuggestedFix: "Add `chmod +x run.sh` before line 3."}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if s, ok := For(tc.gap, tc.line, nil); ok {
				t.Errorf("suggestion %q for fix %q, want none", s.Lines, tc.gap.SuggestedFix)
			}
		})
	}
}
