package shell

import "strings"

// LooksUp is the program a command line only checks for: `which lua`,
// `command -v node`, `type -p git`, `whereis gcc`, `hash make`, `lua -v`,
// `node --version`; "" when the line does more than look one program up
// (a pipe, a second command, a version query of a script).
func LooksUp(command string) string {
	calls := Calls(command)
	if len(calls) != 1 {
		return ""
	}
	args := calls[0]
	if len(args) < 2 {
		return ""
	}
	switch args[0] {
	case "which", "whereis", "hash", "type":
		names := withoutOptions(args[1:])
		if len(names) == 1 {
			return names[0]
		}
	case "command":
		if len(args) == 3 && (args[1] == "-v" || args[1] == "-V") {
			return args[2]
		}
	default:
		if len(args) == 2 && versionFlags[args[1]] && !strings.Contains(args[0], "/") {
			return args[0]
		}
	}
	return ""
}

// versionFlags ask a program for its version, and nothing else.
var versionFlags = map[string]bool{"--version": true, "-version": true, "-v": true, "-V": true, "version": true}

func withoutOptions(args []string) []string {
	var out []string
	for _, a := range args {
		if len(a) > 1 && a[0] == '-' {
			continue
		}
		out = append(out, a)
	}
	return out
}
