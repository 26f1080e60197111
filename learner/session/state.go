package session

import (
	"fmt"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// State is what one command leaves to the next: its working directory, the
// names of the variables that hold a value, and the script that restores all
// of it (variables, functions, aliases, options) in a fresh shell.
type State struct {
	Cwd  string
	Vars map[string]bool
	// body restores variables, functions and aliases; options restores the
	// shell options and runs last, after the save trap is in place.
	body    string
	options string
	// status is the exit status of the command before: the next one's `$?`
	// (`ls /nonexistent`, then `if [ $? -ne 0 ]` on its own line).
	status string
}

// Set reports whether the variable holds a value in the session.
func (st State) Set(name string) bool { return st.Vars[name] }

func initialState(workDir string, env []string) State {
	st := State{Cwd: workDir, Vars: map[string]bool{}}
	for _, kv := range env {
		if name, _, ok := strings.Cut(kv, "="); ok {
			st.Vars[name] = true
		}
	}
	return st
}

// A command's shell gets its restore script, and the files its save trap
// writes, as open files no path names (local.go), never as files another
// process of the tutorial's could change between the server writing them and
// the shell reading them, or the other way round: the script on restoreFD,
// which it closes once read, each saved part from saveFD on, in saveFiles'
// order, out of the way of the low numbers pages use (`exec 3<>...`) and of
// those bash gives `exec {fd}>...` (from 10 up).
const (
	restoreFD = 3
	saveFD    = 60
)

// saveFiles are the parts of its state the save trap writes.
var saveFiles = []string{"cwd", "vars", "functions", "aliases", "options", "exports", "args", "status"}

// savePath is where the save trap writes one part of the state.
func savePath(name string) string {
	return fmt.Sprintf("/dev/fd/%d", saveFD+slices.Index(saveFiles, name))
}

// script is what each command's shell runs first.
func (st State) script(bash bool, workDir string) string {
	var b strings.Builder
	if bash {
		b.WriteString("unset BASH_ENV\n")
	}
	fmt.Fprintf(&b, "command cd -- %s 2>/dev/null || command cd -- %s\n", quote(st.Cwd), quote(workDir))
	b.WriteString(st.body)
	if bash {
		// A learner's interactive shell expands aliases.
		b.WriteString("builtin shopt -s expand_aliases\n")
	}
	b.WriteString(saveTrap(bash))
	fmt.Fprintf(&b, "exec %d<&-\n", restoreFD)
	b.WriteString(st.options)
	if bash {
		b.WriteString("builtin shopt -s expand_aliases 2>/dev/null\n")
	}
	if st.status != "" && st.status != "0" && !strings.Contains(st.options, "set -o errexit") {
		// The last thing the script does sets `$?` for the command, as a
		// terminal keeps it from one line to the next (under errexit it
		// would end the shell instead).
		fmt.Fprintf(&b, "(exit %s)\n", st.status)
	}
	return b.String()
}

// saveTrap saves the session when the command's shell exits, whatever the
// reason (the end of the command, `exit 1`, errexit). The cwd file is written
// last: a folder without it holds a partial save, which is ignored.
func saveTrap(bash bool) string {
	to := savePath
	if bash {
		return "builtin trap '{ __smile_rc=$?; { builtin shopt -p; builtin set +o; } >|" + to("options") + "; builtin set +eux;" +
			" builtin declare -p >|" + to("vars") + "; builtin declare -f >|" + to("functions") + ";" +
			" builtin alias -p >|" + to("aliases") + "; { builtin test $# -eq 0 || builtin printf \"%q \" \"$@\"; } >|" + to("args") + ";" +
			" builtin printf %s \"$__smile_rc\" >|" + to("status") + ";" +
			" builtin printf %s \"$PWD\" >|" + to("cwd") + "; } 2>/dev/null;" +
			" builtin exit \"$__smile_rc\"' EXIT\n"
	}
	return "trap '{ __smile_rc=$?; set +o >|" + to("options") + "; set +eux; set >|" + to("vars") + ";" +
		" export -p >|" + to("exports") + "; alias >|" + to("aliases") + "; printf %s \"$__smile_rc\" >|" + to("status") + ";" +
		" printf %s \"$PWD\" >|" + to("cwd") + "; } 2>/dev/null;" +
		" exit \"$__smile_rc\"' EXIT\n"
}

// loadState reads what the save trap wrote (saved, by file name). ok is
// false when the command did not get to save (it was killed), or the save
// cannot be read.
func loadState(bash bool, saved map[string]string, prev State) (State, bool) {
	cwd, ok := saved["cwd"]
	if !ok {
		return prev, false
	}
	var st State
	var err error
	if bash {
		st, err = parseBashDump(saved["vars"], saved["functions"], saved["aliases"], saved["options"])
		st.body += positional(saved["args"])
	} else {
		st, err = parseShDump(saved["vars"], saved["exports"], saved["aliases"], saved["options"])
	}
	if err != nil {
		return prev, false
	}
	st.Cwd = cwd
	if rc := strings.TrimSpace(saved["status"]); rc != "" && strings.Trim(rc, "0123456789") == "" {
		st.status = rc
	}
	return st, true
}

// parseBashDump turns `declare -p`, `declare -f`, `alias -p` and
// `shopt -p; set +o` output into a State, leaving out what a shell sets
// itself or does not let a script set (its special and read-only variables).
func parseBashDump(vars, functions, aliases, options string) (State, error) {
	st := State{Vars: map[string]bool{}}
	f, err := parse(vars)
	if err != nil {
		return st, fmt.Errorf("parse saved variables: %w", err)
	}
	var b strings.Builder
	for _, stmt := range f.Stmts {
		decl, ok := stmt.Cmd.(*syntax.DeclClause)
		if !ok || decl.Variant.Value != "declare" {
			continue
		}
		name, set := "", false
		for _, a := range decl.Args {
			if a.Name != nil && name == "" {
				name, set = a.Name.Value, a.Value != nil || a.Array != nil
			}
		}
		// The shell's own read-only variables are all special; a read-only
		// variable the tutorial made is carried (a fresh shell accepts it).
		if name == "" || special(name) {
			continue
		}
		if set {
			st.Vars[name] = true
		}
		b.WriteString(source(vars, stmt))
		b.WriteString("\n")
	}
	if strings.TrimSpace(functions) != "" {
		b.WriteString(functions)
		if !strings.HasSuffix(functions, "\n") {
			b.WriteString("\n")
		}
	}
	b.WriteString(aliases)
	if aliases != "" && !strings.HasSuffix(aliases, "\n") {
		b.WriteString("\n")
	}
	st.body = b.String()
	st.options = filterOptions(options)
	return st, nil
}

// parseShDump is parseBashDump for a POSIX sh: `set` (variables),
// `export -p`, `alias` and `set +o`. A POSIX sh cannot list its functions, so
// they do not carry over.
func parseShDump(vars, exports, aliases, options string) (State, error) {
	st := State{Vars: map[string]bool{}}
	var b strings.Builder
	f, err := parse(vars)
	if err != nil {
		return st, fmt.Errorf("parse saved variables: %w", err)
	}
	for _, stmt := range f.Stmts {
		call, ok := stmt.Cmd.(*syntax.CallExpr)
		if !ok || len(call.Args) > 0 || len(call.Assigns) != 1 {
			continue
		}
		name := call.Assigns[0].Name.Value
		if special(name) {
			continue
		}
		st.Vars[name] = true
		b.WriteString(source(vars, stmt) + "\n")
	}
	if f, err := parse(exports); err == nil {
		for _, stmt := range f.Stmts {
			decl, ok := stmt.Cmd.(*syntax.DeclClause)
			if !ok || decl.Variant.Value != "export" {
				continue
			}
			for _, a := range decl.Args {
				if a.Name != nil && !special(a.Name.Value) {
					b.WriteString("export " + a.Name.Value + "\n")
				}
			}
		}
	}
	if f, err := parse(aliases); err == nil {
		for _, stmt := range f.Stmts {
			text := source(aliases, stmt)
			if call, ok := stmt.Cmd.(*syntax.CallExpr); ok && len(call.Args) == 0 {
				text = "alias " + text
			}
			b.WriteString(text + "\n")
		}
	}
	st.body = b.String()
	st.options = filterOptions(options)
	return st, nil
}

// positional restores the positional parameters ($1, $2... set by `set a b
// c` at the prompt) that bash's save trap wrote as quoted words, or nothing
// when there were none or the words do not parse as plain arguments. A POSIX
// sh has no quoting printf, so its positional parameters do not carry over.
func positional(args string) string {
	args = strings.TrimSpace(args)
	if args == "" {
		return ""
	}
	line := "builtin set -- " + args
	f, err := parse(line)
	if err != nil || len(f.Stmts) != 1 {
		return ""
	}
	call, ok := f.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(call.Assigns) > 0 {
		return ""
	}
	for _, w := range call.Args {
		for _, part := range w.Parts {
			switch part.(type) {
			case *syntax.Lit, *syntax.SglQuoted, *syntax.DblQuoted:
			default:
				return ""
			}
		}
	}
	return line + "\n"
}

// filterOptions keeps the option lines a script may set, each silenced.
func filterOptions(options string) string {
	var b strings.Builder
	for _, line := range strings.Split(options, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.Contains(line, "login_shell") || strings.Contains(line, "restricted_shell") {
			continue
		}
		if !strings.HasPrefix(line, "shopt ") && !strings.HasPrefix(line, "set ") {
			continue
		}
		b.WriteString(line + " 2>/dev/null\n")
	}
	return b.String()
}

// special reports the variables a shell manages itself, and the wrapper's.
func special(name string) bool {
	switch name {
	case "_", "PWD", "PPID", "UID", "EUID", "GROUPS", "SHLVL", "SHELLOPTS", "BASHOPTS",
		"RANDOM", "SRANDOM", "SECONDS", "LINENO", "HISTCMD", "FUNCNAME", "DIRSTACK",
		"PIPESTATUS", "EPOCHSECONDS", "EPOCHREALTIME", "OPTIND", "OPTARG", "COLUMNS", "LINES", "ENV":
		return true
	}
	return strings.HasPrefix(name, "BASH") || strings.HasPrefix(name, "COMP_") ||
		strings.HasPrefix(name, "__smile_") || strings.HasPrefix(name, "SMILE_")
}

func parse(src string) (*syntax.File, error) {
	return syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
}

// source is a statement's exact text.
func source(src string, stmt *syntax.Stmt) string {
	start, end := int(stmt.Pos().Offset()), int(stmt.End().Offset())
	if start < 0 || end > len(src) || start > end {
		return ""
	}
	return src[start:end]
}

// quote makes s one single-quoted shell word.
func quote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
