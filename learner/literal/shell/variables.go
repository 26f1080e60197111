package shell

import (
	"sort"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// shellManaged are variables a shell or a login session sets by itself.
var shellManaged = map[string]bool{
	"HOME": true, "PWD": true, "OLDPWD": true, "PATH": true, "RANDOM": true, "SRANDOM": true,
	"SECONDS": true, "LINENO": true, "UID": true, "EUID": true, "PPID": true, "GROUPS": true,
	"HOSTNAME": true, "HOSTTYPE": true, "OSTYPE": true, "MACHTYPE": true, "SHELL": true,
	"SHLVL": true, "SHELLOPTS": true, "IFS": true, "PS1": true, "PS2": true, "PS4": true,
	"USER": true, "LOGNAME": true, "TERM": true, "LANG": true, "LANGUAGE": true, "TMPDIR": true,
	"REPLY": true, "OPTARG": true, "OPTIND": true, "OPTERR": true, "PIPESTATUS": true,
	"FUNCNAME": true, "DIRSTACK": true, "HISTCMD": true, "EPOCHSECONDS": true, "EPOCHREALTIME": true,
	"COLUMNS": true, "LINES": true, "MAPFILE": true,
}

// special reports positional and special parameters and shell-managed names.
func specialParam(name string) bool {
	if name == "" || shellManaged[name] || strings.HasPrefix(name, "BASH") || strings.HasPrefix(name, "LC_") {
		return true
	}
	if strings.Trim(name, "0123456789") == "" {
		return true // $0, $1, ${10}
	}
	switch name {
	case "@", "*", "#", "?", "-", "$", "!", "_":
		return true
	}
	return false
}

// UndefinedVariables lists, in order of appearance, the variables a command
// expands that nothing defines: not set in the session (isSet), not assigned
// earlier in the command itself (assignment, export/declare, for, read,
// getopts, printf -v, arithmetic), not special, and not guarded
// (${VAR:-x}, ${VAR-x}, ${VAR:=x}, ${VAR:?}, ${VAR:+x}, ${#VAR}, [ -z "$VAR" ]).
// Single quotes, quoted heredocs and function bodies are not expanded when
// the command runs, so they are not looked at. A command that sources a file
// or evals text can define anything: from there on nothing is reported.
func UndefinedVariables(command string, isSet func(string) bool) []string {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(command), "")
	if err != nil {
		return nil // the shell will say what is wrong with it
	}
	assigned := map[string]uint{} // name -> offset of the first assignment
	assign := func(name string, at syntax.Pos) {
		if name == "" {
			return
		}
		if off, ok := assigned[name]; !ok || at.Offset() < off {
			assigned[name] = at.Offset()
		}
	}
	opaqueFrom := ^uint(0) // offset after which anything may be defined
	type use struct {
		name string
		at   uint
	}
	var uses []use
	guarded := map[*syntax.ParamExp]bool{}

	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.FuncDecl:
			if n.Name != nil {
				return false // the body runs when called, not now
			}
		case *syntax.Assign:
			if n.Name != nil && (!n.Naked || n.Value != nil || n.Array != nil) {
				assign(n.Name.Value, n.Pos())
			}
		case *syntax.WordIter:
			assign(n.Name.Value, n.Pos())
		case *syntax.BinaryArithm:
			if isArithAssign(n.Op) {
				if w, ok := n.X.(*syntax.Word); ok {
					assign(w.Lit(), n.Pos())
				}
			}
		case *syntax.UnaryArithm:
			if n.Op == syntax.Inc || n.Op == syntax.Dec {
				if w, ok := n.X.(*syntax.Word); ok {
					assign(w.Lit(), n.Pos())
				}
			}
		case *syntax.UnaryTest:
			if n.Op == syntax.TsEmpStr || n.Op == syntax.TsNempStr || n.Op == syntax.TsVarSet {
				markGuarded(n.X, guarded)
			}
		case *syntax.CallExpr:
			callAssigns(n, assign, guarded, func(at syntax.Pos) {
				opaqueFrom = min(opaqueFrom, at.Offset())
			})
		case *syntax.ParamExp:
			if n.Param == nil || guarded[n] || guardedExpansion(n) {
				return true
			}
			uses = append(uses, use{n.Param.Value, n.Pos().Offset()})
		}
		return true
	})

	var out []string
	seen := map[string]bool{}
	sort.SliceStable(uses, func(i, j int) bool { return uses[i].at < uses[j].at })
	for _, u := range uses {
		if seen[u.name] || specialParam(u.name) || isSet(u.name) || u.at > opaqueFrom {
			continue
		}
		if off, ok := assigned[u.name]; ok && off < u.at {
			continue
		}
		seen[u.name] = true
		out = append(out, u.name)
	}
	return out
}

func guardedExpansion(p *syntax.ParamExp) bool {
	if p.Length || p.Excl || p.IsSet || p.Names != 0 {
		return true
	}
	if p.Exp == nil {
		return false
	}
	switch p.Exp.Op {
	case syntax.DefaultUnset, syntax.DefaultUnsetOrNull, syntax.AssignUnset, syntax.AssignUnsetOrNull,
		syntax.ErrorUnset, syntax.ErrorUnsetOrNull, syntax.AlternateUnset, syntax.AlternateUnsetOrNull:
		return true
	}
	return false
}

func markGuarded(n syntax.Node, guarded map[*syntax.ParamExp]bool) {
	if n == nil {
		return
	}
	syntax.Walk(n, func(n syntax.Node) bool {
		if p, ok := n.(*syntax.ParamExp); ok {
			guarded[p] = true
		}
		return true
	})
}

func isArithAssign(op syntax.BinAritOperator) bool {
	switch op {
	case syntax.Assgn, syntax.AddAssgn, syntax.SubAssgn, syntax.MulAssgn, syntax.QuoAssgn, syntax.RemAssgn,
		syntax.AndAssgn, syntax.OrAssgn, syntax.XorAssgn, syntax.ShlAssgn, syntax.ShrAssgn:
		return true
	}
	return false
}

// callAssigns finds what a simple command assigns (read, mapfile, getopts,
// printf -v), what it guards (test -z/-n/-v) and whether it can define
// anything at all (source, ., eval, set -a).
func callAssigns(c *syntax.CallExpr, assign func(string, syntax.Pos), guarded map[*syntax.ParamExp]bool, opaque func(syntax.Pos)) {
	if len(c.Args) == 0 {
		return
	}
	args := make([]string, len(c.Args))
	for i, a := range c.Args {
		args[i] = a.Lit()
	}
	at := c.Args[0].Pos()
	switch args[0] {
	case "source", ".", "eval":
		opaque(at)
	case "set":
		for _, a := range args[1:] {
			if a == "-a" || a == "-o allexport" {
				opaque(at)
			}
		}
	case "read":
		names := 0
		for i := 1; i < len(args); i++ {
			a := args[i]
			switch {
			case a == "-a":
				if i+1 < len(args) {
					assign(args[i+1], at)
					names++
					i++
				}
			case a == "-d" || a == "-i" || a == "-n" || a == "-N" || a == "-p" || a == "-t" || a == "-u":
				i++
			case strings.HasPrefix(a, "-"):
			default:
				assign(a, at)
				names++
			}
		}
		if names == 0 {
			assign("REPLY", at)
		}
	case "mapfile", "readarray":
		if last := args[len(args)-1]; len(args) > 1 && !strings.HasPrefix(last, "-") {
			assign(last, at)
		}
	case "getopts":
		if len(args) > 2 {
			assign(args[2], at)
		}
	case "printf":
		if len(args) > 2 && args[1] == "-v" {
			assign(args[2], at)
		}
	case "[", "test":
		for i := 1; i+1 < len(c.Args); i++ {
			if args[i] == "-z" || args[i] == "-n" || args[i] == "-v" {
				markGuarded(c.Args[i+1], guarded)
			}
		}
	}
}
