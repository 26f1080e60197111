package platform

import (
	"testing"

	"github.com/smile-loop/smile/spec/markdown"
)

func TestForOther(t *testing.T) {
	for label, want := range map[string]bool{
		"Windows": true, "macOS": true, "For RHEL-based distributions and Amazon Linux 2023:": true, "FreeBSD": true,
		"Arch Linux": true, "Linux": false, "Debian or Ubuntu": false, "Linux and macOS": false, "Ubuntu/Debian": false,
		"Git Bash": true, "MSYS2 bash": true, "bash": false, "Linux / MacOS": false,
	} {
		if got := ForOther(label); got != want {
			t.Errorf("ForOther(%q) = %v, want %v", label, got, want)
		}
	}
}

func TestScopingClause(t *testing.T) {
	for s, want := range map[string]bool{
		"Install jq on Fedora:": true,
		"On macOS, run:":        true,
		"This also works on macOS; now format the script:": false,
		"Create the file:": false,
	} {
		if got := ScopingClause(s) != ""; got != want {
			t.Errorf("ScopingClause(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestChooseTabs(t *testing.T) {
	blocks := []markdown.Block{{Tab: "Windows", TabGroup: 1}, {Tab: "Linux", TabGroup: 1}, {Tab: "npm", TabGroup: 2}, {Tab: "yarn", TabGroup: 2}}
	if got := ChooseTabs(blocks); got[1] != "Linux" || got[2] != "npm" {
		t.Errorf("ChooseTabs = %v, want Linux for the systems and npm, the first, for the tools", got)
	}
}

func TestCommentScoped(t *testing.T) {
	lines := []markdown.CodeLine{{Line: 1, Text: "# On macOS"}, {Line: 2, Text: "brew install jq"}, {Line: 3, Text: ""},
		{Line: 4, Text: "# On Debian"}, {Line: 5, Text: "apt-get install -y jq"}}
	got := CommentScoped(lines)
	if len(got) != 1 || got[2] == "" {
		t.Errorf("CommentScoped = %v, want line 2 alone scoped to another platform", got)
	}
	// A line labelled with another platform's shell; a Linux label, or a
	// word that names no platform, scopes nothing.
	labelled := []markdown.CodeLine{{Line: 1, Text: "gcc main.c -o main"}, {Line: 2, Text: "cmd: main.exe"},
		{Line: 3, Text: "PowerShell: .\\main.exe"}, {Line: 4, Text: "Linux: ./main"}, {Line: 5, Text: "note: ./main"}}
	if got := CommentScoped(labelled); len(got) != 2 || got[2] == "" || got[3] == "" {
		t.Errorf("CommentScoped = %v, want lines 2 and 3 scoped to another platform", got)
	}
}

func TestOtherScope(t *testing.T) {
	if got := OtherScope("For RHEL-based distributions:"); got == "" {
		t.Error("a label for RHEL scopes nothing")
	}
	for _, l := range []string{"For Debian and Ubuntu:", "Install it:", ""} {
		if got := OtherScope(l); got != "" {
			t.Errorf("OtherScope(%q) = %q, want none", l, got)
		}
	}
}
