package session

import (
	"slices"

	"github.com/smile-loop/smile/status"
)

// Saved returns the state in a form that outlives the session (a
// checkpoint's): restored with FromSaved in another session, it gives the
// next command the same folder, variables, functions, aliases and options.
func (st State) Saved() status.ShellState {
	vars := make([]string, 0, len(st.Vars))
	for name, set := range st.Vars {
		if set {
			vars = append(vars, name)
		}
	}
	slices.Sort(vars)
	return status.ShellState{Cwd: st.Cwd, Vars: vars, Script: st.body, Options: st.options}
}

// FromSaved is the state Saved returned.
func FromSaved(s status.ShellState) State {
	st := State{Cwd: s.Cwd, Vars: map[string]bool{}, body: s.Script, options: s.Options}
	for _, name := range s.Vars {
		st.Vars[name] = true
	}
	return st
}
