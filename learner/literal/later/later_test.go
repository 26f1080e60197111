package later

import (
	"path"
	"strings"
	"testing"

	"github.com/smile-loop/smile/spec/markdown"
)

// kind is the reading's WritesKind for the languages these pages use.
func kind(lang, file string) bool {
	return lang == "python" && path.Ext(file) == ".py" || (lang == "bash" || lang == "sh") && path.Ext(file) == ".sh"
}

// runsOf lists the commands of the page's transcripts, as the reading would.
func runsOf(doc markdown.Document) []Run {
	var runs []Run
	for _, b := range doc.Blocks {
		for _, l := range b.Code {
			if c, ok := strings.CutPrefix(l.Text, "$ "); ok {
				runs = append(runs, Run{Line: l.Line, Command: c})
			}
		}
	}
	return runs
}

func TestScripts(t *testing.T) {
	page := "# T\n\n" + // 1
		"Every example goes in `demo.sh`.\n\n" + // 3
		"```sh\necho one\n```\n\n" + // 5-7
		"```\n$ bash demo.sh\n```\n\n" + // 9-11
		"```sh\nexport WHO=me\n```\n\n" + // 13-15
		"```\n$ bash demo.sh\n```\n\n" + // 17-19
		"```python\n#!/usr/bin/env python3\nprint(1)\n```\n\n" + // 21-24
		"```\n$ chmod +x demo.sh\n```\n\n" + // 26-28
		"```\n$ bash other.sh\n```\n" // 30-32
	doc := markdown.ParseMarkdown([]byte(page))
	got := Scripts(Page{Blocks: doc.Blocks, Runs: runsOf(doc), Kind: kind, Free: func(markdown.Block) bool { return true }})
	if len(got) != 1 || got[0].Block.Line != 5 || got[0].File != "demo.sh" || got[0].Run != 10 || !strings.Contains(got[0].How, "line 3") {
		t.Fatalf("placements %+v, want only the block at line 5 as demo.sh, named at line 3", got)
	}
}

func TestOnlyChangesTheShell(t *testing.T) {
	for code, want := range map[string]bool{
		"export WHO=me":           true,
		"cd lesson && NAME=x":     true,
		"echo hi":                 false,
		"export A=1\nbash run.sh": false,
	} {
		if got := onlyChangesTheShell(code); got != want {
			t.Errorf("onlyChangesTheShell(%q) = %v, want %v", code, got, want)
		}
	}
}
