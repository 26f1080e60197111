package mentor

import (
	"fmt"
	"strings"

	"github.com/smile-loop/smile/learner/literal/shell"
	"github.com/smile-loop/smile/status"
	"github.com/smile-loop/smile/status/wire"
)

// A container boots no init system, so `systemctl start redis` cannot work
// there, though it does on the reader's machine. Debian's packages of
// daemons still ship a System V init script (/etc/init.d/redis-server), which
// starts the daemon without systemd: the workaround runs it in the step's
// place, under the unit's name or the name with -server (redis, redis-server)
// that packages often use, and the rest of the page can talk to the daemon.

// systemctlStart is the unit `systemctl start|restart|enable --now UNIT`
// starts, "" for anything else (status, stop, a user unit).
func systemctlStart(command string) string {
	args := shell.FirstArgs(command)
	if len(args) > 0 && args[0] == "sudo" {
		args = args[1:]
	}
	if len(args) < 3 || args[0] != "systemctl" {
		return ""
	}
	rest := args[1:]
	switch {
	case rest[0] == "start" || rest[0] == "restart":
		rest = rest[1:]
	case rest[0] == "enable" && len(rest) > 2 && rest[1] == "--now":
		rest = rest[2:]
	default:
		return ""
	}
	if len(rest) == 0 || strings.HasPrefix(rest[0], "-") || !safeShellPath.MatchString(rest[0]) {
		return ""
	}
	return strings.TrimSuffix(rest[0], ".service")
}

// initScript advises starting a unit through its package's init script.
func initScript(base wire.MentorAdvice, f status.Finding) (advice, bool) {
	unit := systemctlStart(f.Command)
	if unit == "" {
		return advice{}, false
	}
	base.Resolution = status.ResolutionWorkaround
	base.Workaround = fmt.Sprintf("for s in %s %s-server; do if [ -x /etc/init.d/$s ]; then /etc/init.d/$s start; exit $?; fi; done; exit 1", unit, unit) +
		standsInMarker + FirstLine(f.Command)
	base.SuggestedFix = environmentFix(lacksSystemd, f.Line)
	return advice{MentorAdvice: base, Explanation: fmt.Sprintf(
		"`%s` needs systemd, which a container does not boot; on the reader's machine it works. The workaround starts `%s` through the init script its Debian package ships, in the step's place, so the rest of the tutorial can use it.",
		FirstLine(f.Command), unit)}, true
}
