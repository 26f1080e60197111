package mentor

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/smile-loop/smile/learner/literal/packages"

	"github.com/smile-loop/smile/status/wire"

	"github.com/smile-loop/smile/status"
)

var (
	// A package manager's install command printed by the failing program:
	// "apt install python3.11-venv", "Try: sudo apt install tree",
	// "Command 'tree' not found, but can be installed with:\nsudo apt install tree".
	installHint = regexp.MustCompile(`(?m)\b(apt-get|apt|apk|dnf|microdnf|yum)\s+(?:install|add)\s+((?:-{1,2}[a-z-]+\s+)*)([a-z0-9][a-z0-9+._-]*(?:[ \t]+[a-z0-9][a-z0-9+._-]*)*)`)
	// "pip install requests", "Try: pip3 install 'httpx[cli]'".
	pipHint = regexp.MustCompile(`(?m)\b(pip3?)\s+install\s+([A-Za-z0-9'"][A-Za-z0-9_.\[\]=<>'"-]*)`)
	// Debian's Python refuses system-wide pip installs (PEP 668).
	externallyManaged = regexp.MustCompile(`externally-managed-environment`)
)

// hintManagers maps a manager named in a hint to ours.
var hintManagers = map[string]packages.Manager{"apt": packages.APT, "apt-get": packages.APT, "apk": packages.APK, "dnf": packages.DNF, "microdnf": packages.MicroDNF, "yum": packages.YUM}

// venvWorkaround makes a virtual environment and activates it for the rest of
// the session; on apt images it installs the venv module first (Debian
// ships Python without it).
func venvWorkaround(pm packages.Manager, found bool) string {
	venv := "python3 -m venv .venv && . .venv/bin/activate"
	if found && pm == packages.APT {
		return pm.Install("python3-venv") + " && " + venv
	}
	return venv
}

// fromHint follows a fix the failing command printed itself: an install
// command for the image's package manager, a pip install, or a virtual
// environment where the system Python refuses pip.
func (m *mentor) fromHint(base wire.MentorAdvice, f status.Finding) (advice, bool) {
	out := f.Output
	pm, found := packages.Detect(m.lookPath)
	base.Resolution = status.ResolutionWorkaround
	if externallyManaged.MatchString(out) {
		base.Workaround = venvWorkaround(pm, found)
		base.SuggestedFix = fmt.Sprintf("Create and activate a virtual environment before line %d (`python3 -m venv .venv && . .venv/bin/activate`): the system Python refuses packages installed with pip.", f.Line)
		return advice{MentorAdvice: base, Explanation: fmt.Sprintf(
			"`%s` failed with `externally-managed-environment`: this Python is managed by the distribution and refuses pip installs outside a virtual environment. The workaround creates one in the work folder and activates it, so the step installs there.",
			FirstLine(f.Command))}, true
	}
	for _, mm := range installHint.FindAllStringSubmatch(out, -1) {
		hinted := hintManagers[mm[1]]
		pkgs := hintPackages(mm[3])
		if !found || hinted.Family() != pm.Family() || hinted == "" || len(pkgs) == 0 {
			continue
		}
		pkg := strings.Join(pkgs, " ")
		base.Workaround = pm.Install(pkg)
		base.SuggestedFix = fmt.Sprintf("Add `%s` before line %d (or to the prerequisites).", pm.TutorialInstall(pkg), f.Line)
		return advice{MentorAdvice: base, Explanation: fmt.Sprintf(
			"`%s` failed, and its own output says what to install: `%s`. The image uses %s, so the workaround installs `%s`.",
			FirstLine(f.Command), lineContaining(out, mm[0]), pm, pkg)}, true
	}
	if mm := pipHint.FindStringSubmatch(out); mm != nil && !strings.Contains(f.Command, mm[0]) {
		pkg := strings.Trim(mm[2], `'"`)
		base.Workaround = mm[1] + " install " + shellWord(pkg)
		base.SuggestedFix = fmt.Sprintf("Add `%s install %s` before line %d.", mm[1], pkg, f.Line)
		return advice{MentorAdvice: base, Explanation: fmt.Sprintf(
			"`%s` failed, and its output says to run `%s`: the Python package `%s` is missing and the tutorial never installs it.",
			FirstLine(f.Command), mm[0], pkg)}, true
	}
	return advice{}, false
}

// hintPackages are the package names of a hinted install, without
// placeholders ("python3-xyz") and trailing punctuation.
func hintPackages(s string) []string {
	var pkgs []string
	for _, p := range strings.Fields(s) {
		p = strings.TrimRight(p, ".,;:")
		if p == "" || strings.Contains(p, "xyz") || strings.Contains(p, "<") {
			continue
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}
