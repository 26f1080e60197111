package suggest

import (
	"fmt"
	"path"
	"regexp"
	"strconv"
	"strings"

	"github.com/smile-loop/smile/internal/textutil"
	"github.com/smile-loop/smile/status"
)

// Fix is the recommendation a gap calls for (its kind, the sentence around
// what it names) and what it names.
type Fix struct {
	Key, Lead, Trail, Subject string
}

// FixFor is the recommendation a gap calls for.
func FixFor(g status.Gap) Fix {
	cmd := FirstCommandLine(g.Command)
	switch g.Category {
	case status.CategoryMissingDependency:
		return Fix{Key: "dependency", Lead: "Add a Prerequisites section listing: ", Subject: dependencyName(g)}
	case status.CategoryPermissionDenied:
		if script := scriptName(cmd); script != "" {
			return Fix{Key: "chmod", Lead: "Make scripts executable in the tutorial (chmod +x) before running them: ", Subject: script}
		}
		return Fix{Key: "privilege", Lead: "Say which steps need elevated privileges (sudo), or use paths the learner can write to: ", Subject: subjectOf(cmd, g.Location.Quote)}
	case status.CategoryMissingFile:
		return Fix{Key: "file", Lead: "Show how to create every file before it is used (its name, location and content): ", Subject: firstMatch(fileNotFound, g.Problem, g.Title, cmd, g.Location.Quote)}
	case status.CategoryUndefinedVariable:
		name := firstMatch(unboundVariable, g.Problem, g.Title, cmd, g.Location.Quote)
		if name != "" && !strings.HasPrefix(name, "$") {
			name = "$" + name
		}
		return Fix{Key: "variable", Lead: "Define these variables before they are used (export NAME=value) and say where their values come from: ", Subject: name}
	case status.CategoryTimeout:
		return Fix{Key: "timeout", Lead: "Say how long these steps take and how to tell when they are done, or make them faster: ", Subject: subjectOf(cmd, g.Location.Quote)}
	case status.CategoryOutputMismatch:
		return Fix{Key: "output", Lead: "Update the expected output shown at ", Trail: " to match what the commands print (or say which parts may differ)."}
	case status.CategoryAmbiguousInstruction:
		return Fix{Key: "ambiguous", Lead: "Make these instructions explicit (the exact command, file and location): ", Subject: quoted(g.Location.Quote)}
	case status.CategoryMissingImage:
		return Fix{Key: "image", Lead: "Add the missing images or fix their paths: ", Subject: firstMatch(imagePath, g.Location.Quote, g.Problem)}
	case status.CategoryCommandFailure:
		return Fix{Key: "command", Lead: "Fix the commands that fail as written, or show what the learner must do first: ", Subject: subjectOf(cmd, g.Location.Quote)}
	case status.CategoryEnvironment:
		// Not the page's fault: the recommendation is about the run.
		return Fix{Key: "environment", Lead: "Give the run what the container lacked (an image with the listed prerequisites as containerImage, network access through studentNetwork), then run it again; the tutorial needs no change for: ", Subject: subjectOf(cmd, g.Location.Quote)}
	}
	return Fix{Key: "other:" + string(g.Category), Lead: fmt.Sprintf("Review the %s gaps: ", strings.ReplaceAll(string(g.Category), "_", " ")), Subject: subjectOf(cmd, g.Location.Quote)}
}

var (
	// "bash: jq: command not found", "sh: 1: jq: not found", "zsh: command not found: jq",
	// "No module named 'yaml'", "Cannot find module 'express'".
	notFoundCommand = []*regexp.Regexp{
		regexp.MustCompile(`([A-Za-z0-9._+-]+): (?:command )?not found`),
		regexp.MustCompile(`command not found: ([A-Za-z0-9._+-]+)`),
		regexp.MustCompile(`No module named '?([A-Za-z0-9_.]+)`),
		regexp.MustCompile(`Cannot find module '([^']+)'`),
	}
	// "cat: config.yaml: No such file or directory", "[Errno 2] No such file
	// or directory: 'data.csv'", "can't open file '/w/app.py'".
	fileNotFound = []*regexp.Regexp{
		regexp.MustCompile(`(?i)no such file or directory: '([^']+)'`),
		regexp.MustCompile(`can't open file '([^']+)'`),
		regexp.MustCompile(`(?i)([^\s:'"]+)'?: no such file or directory`),
	}
	// "API_URL: unbound variable", "$API_URL", "${API_URL}".
	unboundVariable = []*regexp.Regexp{
		regexp.MustCompile(`([A-Za-z_][A-Za-z0-9_]*): unbound variable`),
		regexp.MustCompile(`\$\{?([A-Za-z_][A-Za-z0-9_]*)`),
	}
	// ![alt](images/diagram.png)
	imagePath = []*regexp.Regexp{
		regexp.MustCompile(`!\[[^\]]*\]\(\s*<?([^)\s>]+)`),
	}
)

func firstMatch(res []*regexp.Regexp, texts ...string) string {
	for _, re := range res {
		for _, t := range texts {
			if m := re.FindStringSubmatch(t); m != nil {
				return m[1]
			}
		}
	}
	return ""
}

// dependencyName is the tool a missing_dependency gap lacks: from the
// shell's error, else the command that failed.
func dependencyName(g status.Gap) string {
	if name := firstMatch(notFoundCommand, g.Problem, g.Title); name != "" {
		return name
	}
	if w := commandWord(FirstCommandLine(g.Command)); w != "" {
		return w
	}
	if w := commandWord(g.Location.Quote); w != "" {
		return w
	}
	return textutil.Shorten(g.Title, 60)
}

// commandWord is the program a command line runs, past sudo and VAR=value.
func commandWord(line string) string {
	for _, w := range strings.Fields(line) {
		if w == "sudo" || w == "env" || w == "$" || strings.Contains(w, "=") {
			continue
		}
		return w
	}
	return ""
}

// scriptName is the script a command runs by path (./run.sh, bin/deploy),
// or "" when it runs a program from PATH.
func scriptName(cmd string) string {
	w := commandWord(cmd)
	if !strings.Contains(w, "/") && !strings.HasSuffix(w, ".sh") {
		return ""
	}
	if strings.HasPrefix(w, "/") {
		return path.Base(w)
	}
	return strings.TrimPrefix(w, "./")
}

func subjectOf(cmd, quote string) string {
	if cmd != "" {
		return textutil.Shorten(cmd, 60)
	}
	return quoted(quote)
}

func quoted(s string) string {
	if strings.TrimSpace(s) == "" {
		return ""
	}
	return strconv.Quote(textutil.Shorten(s, 60))
}
