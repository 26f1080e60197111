package mentor

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/smile-loop/smile/learner/literal/packages"
	"github.com/smile-loop/smile/learner/literal/shell"
	"github.com/smile-loop/smile/status"
	"github.com/smile-loop/smile/status/wire"
)

// A language's registry (PyPI, npm, RubyGems) is often out of the
// container's reach when the distribution's mirror is not, and Debian
// packages most tools and libraries a tutorial installs from them under a
// name of its own (python3-pytest, node-ejs, mocha, ruby-rack). Installing
// those in place of the download lets the Student follow the rest of the
// page instead of stopping at its first install; what they print is not
// compared (their versions are Debian's), and the finding stays the
// environment's.

// standsInMarker ends a workaround that does its step's work in another way
// (the step is then not run again), naming the step: the programs the step
// would have installed are then known to come from the workaround
// (InstalledByWorkaround).
const standsInMarker = " # stands in for: "

// StandsIn reports whether a workaround does its step's work in another
// way, so the step itself is not to be run after it.
func StandsIn(workaround string) bool { return strings.Contains(workaround, standsInMarker) }

// registryInstall reads the packages a registry install downloads and the
// distribution names that may stand in for each: nil when the command is
// not one, or installs from a file, a URL or a path (nothing to stand in).
func registryInstall(command string) [][]string {
	words := shell.FirstArgs(command)
	if len(words) > 0 && words[0] == "sudo" {
		words = words[1:]
	}
	var names []string
	var candidates func(string) []string
	switch {
	case len(words) > 2 && (words[0] == "pip" || words[0] == "pip3") && words[1] == "install":
		names, candidates = words[2:], python
	case len(words) > 4 && strings.HasPrefix(words[0], "python") && words[1] == "-m" && words[2] == "pip" && words[3] == "install":
		names, candidates = words[4:], python
	case len(words) > 2 && words[0] == "npm" && (words[1] == "install" || words[1] == "i" || words[1] == "add"),
		len(words) > 2 && (words[0] == "yarn" || words[0] == "pnpm") && words[1] == "add":
		names, candidates = words[2:], node
	case len(words) > 1 && words[0] == "npx":
		names, candidates = words[1:2], node
	case len(words) > 2 && words[0] == "gem" && words[1] == "install":
		names, candidates = words[2:], ruby
	default:
		return nil
	}
	var out [][]string
	for _, n := range names {
		if strings.HasPrefix(n, "-") {
			if n == "-r" || n == "--requirement" || n == "-e" || n == "--editable" {
				return nil // a file or a path: nothing to stand in for
			}
			continue
		}
		n = registryName(n)
		if n == "" {
			return nil
		}
		out = append(out, candidates(n))
	}
	return out
}

// versioned strips what follows a package's name: a version, extras, a tag.
var versioned = regexp.MustCompile(`^(@?[A-Za-z0-9][A-Za-z0-9._/-]*?)(?:\[[^\]]*\])?(?:[=<>!~@^].*)?$`)

// registryName is the registry name alone, lower case; "" for a path or URL.
func registryName(word string) string {
	if strings.Contains(word, "://") || strings.HasPrefix(word, ".") || strings.HasPrefix(word, "/") || strings.HasSuffix(word, ".txt") {
		return ""
	}
	m := versioned.FindStringSubmatch(word)
	if m == nil || strings.Contains(strings.TrimPrefix(m[1], "@"), "@") {
		return ""
	}
	return strings.ToLower(m[1])
}

func python(n string) []string {
	return []string{"python3-" + strings.NewReplacer("_", "-", ".", "-").Replace(n)}
}

func node(n string) []string {
	n = strings.NewReplacer("@", "", "/", "-").Replace(n)
	return []string{"node-" + n, n}
}

func ruby(n string) []string { return []string{"ruby-" + strings.ReplaceAll(n, "_", "-"), n} }

// distroStandIn advises installing the distribution's packages in place of
// a registry download the container cannot reach, when every package has
// one the image's package lists know (asked in the container).
func (m *mentor) distroStandIn(ctx context.Context, base wire.MentorAdvice, f status.Finding) (advice, bool) {
	wanted := registryInstall(f.Command)
	if len(wanted) == 0 {
		return advice{}, false
	}
	if pm, ok := packages.Detect(m.lookPath); !ok || pm != packages.APT {
		return advice{}, false
	}
	step := fmt.Sprintf("line %d: asking apt-get for Debian's packages of what it downloads", f.Line)
	m.env.Progress(ctx, step, f.Line)
	stop := Heartbeat(ctx, m.env, step, f.Line, m.beat)
	defer stop()
	if _, code, err := m.probe(ctx, updateScript(packages.APT), probeUpdateTimeout); err != nil || code != 0 {
		return advice{}, false
	}
	var chosen []string
	for _, cands := range wanted {
		found := ""
		for _, c := range cands {
			out, code, err := m.probe(ctx, "apt-cache show --no-all-versions "+shellWord(c)+" >/dev/null 2>&1 && echo yes", probeQueryTimeout)
			if err == nil && code == 0 && strings.TrimSpace(out) == "yes" {
				found = c
				break
			}
		}
		if found == "" {
			return advice{}, false
		}
		chosen = append(chosen, found)
	}
	base.Resolution = status.ResolutionWorkaround
	// The comment names what the packages stand in for, so the Student
	// knows the programs came from the workaround (InstalledByWorkaround).
	base.Workaround = packages.APT.Install(strings.Join(chosen, " ")) + standsInMarker + FirstLine(f.Command)
	base.SuggestedFix = environmentFix(LacksNetwork, f.Line)
	return advice{MentorAdvice: base, Explanation: fmt.Sprintf(
		"`%s` downloads from a registry the container cannot reach, but it reaches Debian's mirror, whose packages `%s` provide the same. The workaround installs them in its place so the rest of the tutorial can be followed; their versions are Debian's, so what they print is not compared. Nothing to fix in the tutorial for this.",
		FirstLine(f.Command), strings.Join(chosen, "`, `"))}, true
}
