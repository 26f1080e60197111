package shell

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Assigned are the variables a command's top-level statements assign or
// export (`NAME=value`, `export NAME=value`, `declare`, `readonly`, `local`),
// in order; nil when it does not parse.
func Assigned(command string) []string {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(command), "")
	if err != nil {
		return nil
	}
	var out []string
	add := func(name string) {
		if name != "" && !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	for _, st := range f.Stmts {
		switch c := st.Cmd.(type) {
		case *syntax.CallExpr:
			if len(c.Args) == 0 {
				for _, a := range c.Assigns {
					add(a.Name.Value)
				}
			}
		case *syntax.DeclClause:
			for _, a := range c.Args {
				if a.Name != nil {
					add(a.Name.Value)
				}
			}
		}
	}
	return out
}
