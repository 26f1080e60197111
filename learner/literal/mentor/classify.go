package mentor

import (
	"context"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/smile-loop/smile/learner/literal/projectfile"

	"github.com/smile-loop/smile/learner/literal/prereq"
	"github.com/smile-loop/smile/learner/literal/shell"
	"github.com/smile-loop/smile/learner/session"
	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/status"
)

// Failure is a classified failed step.
type Failure struct {
	Category status.Category
	// Subject is what failed: the missing command, the missing or
	// unexecutable file, the undefined variable.
	Subject string
	// ErrorLine is the line of output that says what went wrong.
	ErrorLine string
}

var (
	// bash: "bash: line 1: jq: command not found"; dash: "sh: 1: jq: not found";
	// busybox: "sh: jq: not found".
	notFoundRe = regexp.MustCompile(`(?m)^(?:.*?: )?(?:line \d+: |\d+: )?([^:\s]+): (?:command )?not found\s*$`)
	// "bash: line 1: ./run.sh: Permission denied", "sh: 2: /tmp/x: Permission denied",
	// "touch: cannot touch 'x': Permission denied", "EACCES: permission denied, open 'x'"
	permissionText = regexp.MustCompile(`(?i)permission denied`)
	permissionRes  = []*regexp.Regexp{
		regexp.MustCompile(`'([^']+)': Permission denied`),
		regexp.MustCompile(`([^\s:']+): Permission denied`),
		regexp.MustCompile(`(?i)permission denied, \w+ '([^']+)'`),
	}
	// A file a command writes whose folder does not exist: ld's "cannot
	// open output file dist/app: No such file or directory", cp's "cannot
	// create regular file 'out/a.txt'", touch's "cannot touch 'logs/x'".
	outputFolderMissing = regexp.MustCompile(`cannot open output file (\S+?):? No such file or directory|cannot create regular file '([^']+)': No such file or directory|cannot touch '([^']+)': No such file or directory`)
	missingFileRes      = []*regexp.Regexp{
		// python3: can't open file '/workspace/work/x.py': [Errno 2] No such file or directory
		regexp.MustCompile(`(?m)can't open file '([^']+)'`),
		// sh: 2: cd: can't cd to nodir / sh: cd: line 1: can't cd to nodir: No such file or directory
		regexp.MustCompile(`(?m)can't cd to ([^:\s]+)`),
		// ls: cannot access 'nofile': No such file or directory; cat: can't open 'nofile': ...
		regexp.MustCompile(`(?m)(?:cannot access|can't open|cannot open|cannot stat|cannot find) '([^']+)'`),
		// awk: cannot open table.txt (No such file or directory); find: ‘/sys/x’: No such ...
		regexp.MustCompile(`(?m)(?:cannot open|can't open) ([^\s'(]+) \(No such file or directory\)`),
		regexp.MustCompile(`(?m)‘([^’]+)’: No such file or directory`),
		// dash, Debian's sh, running a script that is not there: "sh: 0: cannot open greet.sh: No such file"
		regexp.MustCompile(`(?m)\bcannot open ([^\s:']+): No such file\b`),
		// An interpreter names its missing script after the message: ruby's
		// "ruby: No such file or directory -- hello.rb (LoadError)", perl's
		// `Can't open perl script "hello.pl": No such file or directory`.
		regexp.MustCompile(`(?m)No such file or directory -- (\S+)`),
		regexp.MustCompile(`(?m)Can't open perl script "([^"]+)"`),
		// tar and others name the file before what they tried: "tar: notes:
		// Cannot stat: No such file or directory".
		regexp.MustCompile(`(?m)([^\s:']+): (?i:cannot stat|cannot open|cannot access): No such file or directory`),
		// bash: line 1: cd: nodir: No such file or directory; cat: nofile: No such file or directory
		regexp.MustCompile(`(?m)'?([^\s:']+)'?: No such file or directory`),
		// pytest: "ERROR: file or directory not found: test_x.py" (also "file not found")
		regexp.MustCompile(`(?m)\bfile (?:or directory )?not found: (\S+)`),
	}
	missingFileText = regexp.MustCompile(`No such file(?: or directory)?|can't cd to|can't open file|file (?:or directory )?not found: `)
	// A script whose interpreter is missing: "/usr/bin/env: ‘python’: No such
	// file or directory", "bash: ./x.sh: /bin/zsh: bad interpreter: No such file or directory".
	envMissingRe   = regexp.MustCompile(`env: [‘'"]?([^’'"\s:]+)[’'"]?: No such file or directory`)
	badInterpreter = regexp.MustCompile(`: (\S+): bad interpreter: No such file or directory`)
	// bash 5.2 does not name the interpreter: "bash: line 1: ./b.sh: cannot
	// execute: required file not found". The script's shebang does.
	noInterpreter = regexp.MustCompile(`(?m)(\S+): cannot execute: required file not found`)
	// Libraries: "ModuleNotFoundError: No module named 'flask'",
	// "Error: Cannot find module 'express'" (a path there is a missing file).
	pythonModule = regexp.MustCompile(`No module named '([^'.]+)`)
	// make reports a recipe's missing program as a missing file:
	// "make: cc: No such file or directory".
	makeMissingProgram = regexp.MustCompile(`(?m)^make(?:\[\d+\])?: ([\w.+-]+): No such file or directory`)
	// A program that names a missing helper and asks for it: "pdflatex not
	// found. Please select a different --pdf-engine or install pdflatex".
	helperMissing = regexp.MustCompile(`\b([\w.+-]+) not found\b[^\n]*\binstall\s+([\w.+-]+)`)
	nodeModule    = regexp.MustCompile(`Cannot find module '([^']+)'`)
)

// systemdTools are systemd's own commands, there only when it is.
var systemdTools = map[string]bool{"systemctl": true, "journalctl": true, "loginctl": true, "hostnamectl": true, "timedatectl": true}

// Classify decides why a command failed, from its exit code and output.
func Classify(command string, exitCode int, output string, timedOut bool) Failure {
	errLine := ErrorLine(output)
	if timedOut {
		return Failure{Category: status.CategoryTimeout, ErrorLine: errLine}
	}
	if m := notFoundRe.FindStringSubmatch(output); m != nil {
		line := strings.TrimSpace(m[0])
		if strings.Contains(m[1], "/") {
			return Failure{Category: status.CategoryMissingFile, Subject: m[1], ErrorLine: line}
		}
		if systemdTools[m[1]] {
			// An image without systemd lacks its tools; installing them
			// boots nothing.
			return Failure{Category: status.CategoryEnvironment, Subject: lacksSystemd, ErrorLine: line}
		}
		return Failure{Category: status.CategoryMissingDependency, Subject: m[1], ErrorLine: line}
	}
	if file, ok := projectfile.Missing(output); ok {
		return Failure{Category: status.CategoryMissingFile, Subject: file, ErrorLine: projectfile.Line(output)}
	}
	if m := envMissingRe.FindStringSubmatch(output); m != nil {
		return Failure{Category: status.CategoryMissingDependency, Subject: m[1], ErrorLine: lineContaining(output, m[0])}
	}
	if m := badInterpreter.FindStringSubmatch(output); m != nil {
		return Failure{Category: status.CategoryMissingDependency, Subject: path.Base(m[1]), ErrorLine: lineContaining(output, m[0])}
	}
	if m := noInterpreter.FindStringSubmatch(output); m != nil {
		return Failure{Category: status.CategoryMissingDependency, Subject: m[1], ErrorLine: lineContaining(output, m[0])}
	}
	if m := makeMissingProgram.FindStringSubmatch(output); m != nil {
		return Failure{Category: status.CategoryMissingDependency, Subject: m[1], ErrorLine: lineContaining(output, m[0])}
	}
	if m := helperMissing.FindStringSubmatch(output); m != nil && m[1] == m[2] {
		return Failure{Category: status.CategoryMissingDependency, Subject: m[1], ErrorLine: lineContaining(output, m[0])}
	}
	if m := pythonModule.FindStringSubmatch(output); m != nil {
		return Failure{Category: status.CategoryMissingDependency, Subject: m[1], ErrorLine: lineContaining(output, m[0])}
	}
	if m := nodeModule.FindStringSubmatch(output); m != nil {
		cat := status.CategoryMissingDependency
		if strings.HasPrefix(m[1], ".") || strings.HasPrefix(m[1], "/") {
			cat = status.CategoryMissingFile
		}
		return Failure{Category: cat, Subject: m[1], ErrorLine: lineContaining(output, m[0])}
	}
	if f, ok := environmentFailure(command, output); ok {
		return f
	}
	if exitCode == 127 && !missingFileText.MatchString(output) {
		if name := shell.CommandName(command); name != "" && !strings.Contains(name, "/") {
			return Failure{Category: status.CategoryMissingDependency, Subject: name, ErrorLine: errLine}
		}
	}
	if permissionText.MatchString(output) || exitCode == 126 {
		f := Failure{Category: status.CategoryPermissionDenied, Subject: shell.CommandName(command), ErrorLine: errLine}
		for _, re := range permissionRes {
			if m := re.FindStringSubmatch(output); m != nil {
				f.Subject, f.ErrorLine = m[1], lineContaining(output, m[0])
				break
			}
		}
		return f
	}
	if m := outputFolderMissing.FindStringSubmatch(output); m != nil && path.Dir(m[1]+m[2]+m[3]) != "." {
		// The file is written, not read: its folder is what is missing.
		return Failure{Category: status.CategoryMissingFile, Subject: path.Dir(m[1]+m[2]+m[3]) + "/", ErrorLine: lineContaining(output, m[0])}
	}
	if missingFileText.MatchString(output) {
		for _, re := range missingFileRes {
			if m := re.FindStringSubmatch(output); m != nil {
				return Failure{Category: status.CategoryMissingFile, Subject: m[1], ErrorLine: lineContaining(output, m[0])}
			}
		}
		return Failure{Category: status.CategoryMissingFile, ErrorLine: errLine}
	}
	return Failure{Category: status.CategoryCommandFailure, ErrorLine: errLine}
}

// ErrorLine is the line of output most likely to say what went wrong: the
// last one that reads like an error, else the last non-blank one.
func ErrorLine(output string) string {
	lines := strings.Split(strings.TrimSpace(output), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		l := strings.ToLower(lines[i])
		if strings.Contains(l, "error") || strings.Contains(l, "not found") || strings.Contains(l, "denied") ||
			strings.Contains(l, "no such") || strings.Contains(l, "cannot") || strings.Contains(l, "can't") ||
			strings.Contains(l, "fatal") || strings.Contains(l, "failed") {
			return strings.TrimSpace(lines[i])
		}
	}
	for i := len(lines) - 1; i >= 0; i-- {
		if t := strings.TrimSpace(lines[i]); t != "" {
			return t
		}
	}
	return ""
}

func lineContaining(output, s string) string {
	for _, l := range strings.Split(output, "\n") {
		if strings.Contains(l, s) {
			return strings.TrimSpace(l)
		}
	}
	return s
}

// Interpreter reads the program a script's shebang names ("python3" for
// "#!/usr/bin/env python3", "zsh" for "#!/bin/zsh"), or "".
func Interpreter(ctx context.Context, h session.Hands, script string) string {
	return interpreterOf(Shebang(ctx, h, script))
}

// Shebang is the script's #! line without its mark, "" when it has none.
func Shebang(ctx context.Context, h session.Hands, script string) string {
	head, err := session.ReadFile(ctx, h, script, 256)
	if err != nil {
		return ""
	}
	line, _, _ := strings.Cut(string(head), "\n")
	if !strings.HasPrefix(line, "#!") {
		return ""
	}
	return strings.TrimSpace(strings.TrimPrefix(line, "#!"))
}

// interpreterOf is the program a #! line runs (after env).
func interpreterOf(shebang string) string {
	fields := strings.Fields(shebang)
	if len(fields) == 0 {
		return ""
	}
	prog := path.Base(fields[0])
	if prog == "env" {
		for _, f := range fields[1:] {
			if !strings.HasPrefix(f, "-") {
				return path.Base(f)
			}
		}
		return ""
	}
	return prog
}

// fragmentOnly is a build tool's answer to an input with nothing to build:
// make's "No targets" for a makefile that holds only a pattern rule or
// variables.
var fragmentOnly = regexp.MustCompile(`(?m)^make(?:\[\d+\])?: \*\*\* No targets\.\s+Stop\.`)

// FragmentOnly says whether a failed command's output says its input is a
// fragment with nothing to build, not a broken example.
func FragmentOnly(output string) bool { return fragmentOnly.MatchString(output) }

// noSuchFileInPipe is a program's complaint that a file it was given is not
// there: "cat: data.json: No such file or directory" (the program, the file).
var noSuchFileInPipe = regexp.MustCompile(`(?m)^([\w.+-]+): (?:cannot (?:open|access|stat) )?'?([^:'\n]+?)'?: No such file or directory\s*$`)

// misused: a program's own words for being called wrongly (an option it does
// not have, arguments it cannot parse), or the shell's syntax error.
var misused = regexp.MustCompile(`(?im)\b(?:invalid|unrecognized|unrecognised|illegal|unknown) (?:option|argument|flag)\b|\bmissing (?:destination )?(?:file )?operand\b|\bsyntax error\b|\bbad substitution\b|^usage:|\btry '[^']+ --help'`)

// Misused says whether a failed command's output says the command itself
// was written wrongly, not that what it works on is missing. A command that
// asks for help (`sqlite3 -help`) prints its usage on purpose.
func Misused(command, output string) bool {
	return misused.MatchString(output) && !helpFlag.MatchString(command)
}

// helpFlag asks a program for its usage.
var helpFlag = regexp.MustCompile(`(?:^|\s)(?:--?help|-h|-\?)(?:\s|$)`)

// MissingInPipe is the Failure of a pipeline that exited 0 though one of
// its programs was not found (`curl ... | grep x` prints bash's "curl:
// command not found" and nothing else), or one of its files (`cat
// data.json | jq .` prints "cat: data.json: No such file or directory": a
// pipeline's status is its last program's): a missing program or file, not
// output that differs. ok is false when the output names no missing program
// or file of the command. A program the tutorial lists as a prerequisite is
// the environment's.
func MissingInPipe(command, output string, t *spec.Tutorial) (Failure, bool) {
	words := strings.Fields(command)
	if m := noSuchFileInPipe.FindStringSubmatch(output); m != nil && slices.Contains(words, m[2]) && slices.Contains(words, m[1]) {
		return Failure{Category: status.CategoryMissingFile, Subject: m[2], ErrorLine: strings.TrimSpace(m[0])}, true
	}
	m := notFoundRe.FindStringSubmatch(output)
	if m == nil || strings.Contains(m[1], "/") || !slices.Contains(words, m[1]) {
		return Failure{}, false
	}
	f := Failure{Category: status.CategoryMissingDependency, Subject: m[1], ErrorLine: strings.TrimSpace(m[0])}
	return prerequisiteFailure(f, prereq.Prerequisites(t)), true
}

// aptError is apt's or dpkg's error line.
var aptError = regexp.MustCompile(`(?m)^E: .*$`)

// FailedLine is the line of output where a command said it failed for a
// reason Classify knows (a program not found, a missing file, a refused
// permission, apt's `E: `), "" when the output says none: output that ended
// well may still hold an earlier command's error (a `;` list).
func FailedLine(output string) string {
	if m := aptError.FindString(output); m != "" {
		return strings.TrimSpace(m)
	}
	for _, re := range []*regexp.Regexp{notFoundRe, missingFileText, permissionText} {
		if m := re.FindString(output); m != "" {
			return lineContaining(output, m)
		}
	}
	return ""
}
