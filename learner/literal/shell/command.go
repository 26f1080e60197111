package shell

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// CommandName is the program a command line starts with, after any
// variable assignments, or "" when it is not a simple command.
func CommandName(command string) string {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(command), "")
	if err != nil || len(f.Stmts) == 0 {
		fields := strings.Fields(command)
		if len(fields) == 0 {
			return ""
		}
		return fields[0]
	}
	cmd := f.Stmts[0].Cmd
	for {
		b, ok := cmd.(*syntax.BinaryCmd)
		if !ok {
			break
		}
		cmd = b.X.Cmd
	}
	if call, ok := cmd.(*syntax.CallExpr); ok && len(call.Args) > 0 {
		return call.Args[0].Lit()
	}
	return ""
}
