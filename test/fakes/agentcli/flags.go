package main

import (
	"fmt"
	"slices"
	"strings"
)

// flagSpec describes a CLI's options: booleans, options taking one value,
// and variadic ones (commander's <values...>: they take every following
// argument up to the next option).
type flagSpec struct {
	booleans []string
	valued   []string
	variadic []string
	// commaSlices are clap options with num_args=1.. that also split on
	// commas: with --opt=value they take just that value.
	greedy []string
}

type parsed struct {
	bools      map[string]bool
	values     map[string][]string
	positional []string
}

func (p parsed) value(names ...string) string {
	for _, n := range names {
		if v := p.values[n]; len(v) > 0 {
			return v[len(v)-1]
		}
	}
	return ""
}

func (p parsed) all(names ...string) []string {
	var out []string
	for _, n := range names {
		out = append(out, p.values[n]...)
	}
	return out
}

func (p parsed) has(names ...string) bool {
	for _, n := range names {
		if p.bools[n] || len(p.values[n]) > 0 {
			return true
		}
	}
	return false
}

// parse reads args; an unknown option is an error in the CLI's words.
func (s flagSpec) parse(args []string) (parsed, error) {
	p := parsed{bools: map[string]bool{}, values: map[string][]string{}}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			p.positional = append(p.positional, args[i+1:]...)
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			p.positional = append(p.positional, a)
			continue
		}
		name, inline, hasInline := strings.Cut(a, "=")
		switch {
		case slices.Contains(s.booleans, name):
			p.bools[name] = true
		case slices.Contains(s.valued, name):
			if hasInline {
				p.values[name] = append(p.values[name], inline)
				continue
			}
			if i+1 >= len(args) {
				return p, fmt.Errorf("option '%s' argument missing", name)
			}
			i++
			p.values[name] = append(p.values[name], args[i])
		case slices.Contains(s.variadic, name) || slices.Contains(s.greedy, name):
			if hasInline {
				p.values[name] = append(p.values[name], inline)
				if slices.Contains(s.greedy, name) {
					continue
				}
			}
			for i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
				i++
				p.values[name] = append(p.values[name], args[i])
			}
		default:
			return p, fmt.Errorf("unknown option '%s'", name)
		}
	}
	return p, nil
}

// list splits comma- or space-separated tool lists.
func list(values []string) []string {
	var out []string
	for _, v := range values {
		out = append(out, strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' })...)
	}
	return out
}
