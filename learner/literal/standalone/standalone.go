// Package standalone knows a program a page shows without saying where it
// goes: a language book's chapter shows a whole Go, C or Python program, then
// what it prints, and expects the reader to save it somewhere and run it the
// way the language is always run. Such a block is not a step of the page (no
// file is named, nothing says to run it), but leaving it unread leaves the
// chapter's examples untested and compares the output shown after it with
// some older command's.
//
// Of says whether a block is such a program and how to try it on its own: the
// file to save it as, in a folder of its own, and the command that runs it
// (package planned says which steps of a plan the Student tries).
// A try is evidence, never a step: a program that fails on its own may rely
// on what the page set up, so its failure accuses nothing.
package standalone

import (
	"regexp"
	"strings"
)

// Program is how to try one block on its own.
type Program struct {
	// Lang is the block's language as the page names it, canonical ("cpp").
	Lang string
	// File is the name to save the block as, in an empty folder.
	File string
	// Run is the shell command that builds and runs File there.
	Run string
	// Tool is the program Run needs on PATH (go, gcc, python3...).
	Tool string
	// Entry says the block has the language's entry point (func main,
	// int main, __main__): it is a whole program by its own account. A
	// script without one is tried only when the page shows what it prints.
	Entry bool
}

// way is how one language is tried.
type way struct {
	file, run, tool string
	// entry finds the language's entry point; nil for a script language,
	// whose every file is a whole program.
	entry *regexp.Regexp
	// needs finds what ties the block to other files of the page (a local
	// header, a sibling module): such a block is not a whole program.
	needs *regexp.Regexp
}

var (
	cEntry       = regexp.MustCompile(`(?m)^\s*(?:int|void)\s+main\s*\(`)
	localInclude = regexp.MustCompile(`(?m)^\s*#\s*include\s+"`)
)

var ways = map[string]way{
	"go": {file: "main.go", run: "go run main.go", tool: "go",
		entry: regexp.MustCompile(`(?s)^\s*(?://[^\n]*\n\s*)*package\s+main\b.*\bfunc\s+main\s*\(\s*\)`)},
	"c":   {file: "main.c", run: "cc -o main main.c -lm && ./main", tool: "cc", entry: cEntry, needs: localInclude},
	"cpp": {file: "main.cpp", run: "c++ -o main main.cpp && ./main", tool: "c++", entry: cEntry, needs: localInclude},
	"rust": {file: "main.rs", run: "rustc -o main main.rs && ./main", tool: "rustc",
		entry: regexp.MustCompile(`(?m)^\s*(?:pub\s+)?fn\s+main\s*\(\s*\)`),
		needs: regexp.MustCompile(`(?m)^\s*(?:mod\s+\w+\s*;|extern\s+crate\b|use\s+(?:crate::|super::|[a-z_]\w*::)\w)`)},
	"java": {file: "Main.java", run: "java Main.java", tool: "java",
		entry: regexp.MustCompile(`\bpublic\s+static\s+void\s+main\s*\(`),
		needs: regexp.MustCompile(`(?m)^\s*package\s+[\w.]+\s*;`)},
	"haskell": {file: "main.hs", run: "runghc main.hs", tool: "runghc",
		entry: regexp.MustCompile(`(?m)^main\s*(?:::|=)`)},
	"python": {file: "main.py", run: "python3 main.py", tool: "python3",
		needs: regexp.MustCompile(`(?m)^\s*from\s+\.|^\s*>>>\s`)},
	"ruby":       {file: "main.rb", run: "ruby main.rb", tool: "ruby", needs: regexp.MustCompile(`(?m)^\s*require_relative\b|^\s*irb\(`)},
	"javascript": {file: "main.js", run: "node main.js", tool: "node", needs: regexp.MustCompile(`(?m)require\(\s*['"]\.|from\s+['"]\.|^\s*>\s|\bdocument\.|\bwindow\.`)},
	"perl":       {file: "main.pl", run: "perl main.pl", tool: "perl"},
	"php":        {file: "main.php", run: "php main.php", tool: "php", entry: regexp.MustCompile(`^\s*<\?php`)},
	"lua":        {file: "main.lua", run: "lua main.lua", tool: "lua"},
	// A shell script is tried alone only when it says it is one (#!): a
	// shell block without is commands typed at the prompt.
	"bash": {file: "main.sh", run: "bash main.sh", tool: "bash", entry: regexp.MustCompile(`^\s*#!`)},
}

// aliases are the other names pages give the languages of ways.
var aliases = map[string]string{
	"golang": "go", "c++": "cpp", "cc": "cpp", "cxx": "cpp", "rs": "rust", "hs": "haskell",
	"py": "python", "python3": "python", "rb": "ruby", "js": "javascript", "node": "javascript",
	"pl": "perl", "sh": "bash", "shell": "bash", "shellscript": "bash",
}

// Lang is the canonical name of a language this package knows, "" for any
// other: the languages whose blocks are programs, whose output is what a
// block shown after them holds.
func Lang(lang string) string {
	l := strings.ToLower(strings.TrimSpace(lang))
	if a, ok := aliases[l]; ok {
		l = a
	}
	if _, ok := ways[l]; !ok {
		return ""
	}
	return l
}

// Of says how to try the block text of language lang on its own: false when
// the language is not one this package runs, when the block has no entry
// point its language needs, or when it reaches for other files of the page.
func Of(lang, text string) (Program, bool) {
	l := Lang(lang)
	if l == "" || strings.TrimSpace(text) == "" {
		return Program{}, false
	}
	w := ways[l]
	if w.needs != nil && w.needs.MatchString(text) {
		return Program{}, false
	}
	p := Program{Lang: l, File: w.file, Run: w.run, Tool: w.tool}
	if w.entry != nil {
		if !w.entry.MatchString(text) {
			return Program{}, false
		}
		p.Entry = true
	} else if l == "python" && pythonMain.MatchString(text) || strings.HasPrefix(strings.TrimSpace(text), "#!") {
		// A script that opens with its interpreter's line (#!/usr/bin/perl)
		// is a whole program, written to be run as it is.
		p.Entry = true
	}
	if l == "java" {
		if m := javaClass.FindStringSubmatch(text); m != nil {
			p.File = m[1] + ".java"
			p.Run = "java " + p.File
		}
	}
	if l == "javascript" && esModule.MatchString(text) {
		p.File, p.Run = "main.mjs", "node main.mjs"
	}
	return p, true
}

var (
	pythonMain = regexp.MustCompile(`(?m)^if\s+__name__\s*==\s*['"]__main__['"]\s*:`)
	javaClass  = regexp.MustCompile(`(?m)^\s*public\s+(?:final\s+)?class\s+([A-Za-z_]\w*)`)
	esModule   = regexp.MustCompile(`(?m)^\s*(?:import\s+[\w{*]|export\s)`)
)

// Whole says the block text of language lang is a whole program of a
// language this package runs (Of), whether or not it has an entry point.
func Whole(lang, text string) bool {
	_, ok := Of(lang, text)
	return ok
}
