package mentor

import (
	"context"
	"fmt"
	"path"
	"regexp"
	"strings"
	"time"

	"github.com/smile-loop/smile/internal/textutil"
	"github.com/smile-loop/smile/learner/literal/packages"
	"github.com/smile-loop/smile/learner/literal/prereq"
	"github.com/smile-loop/smile/learner/literal/reach"
	"github.com/smile-loop/smile/learner/literal/shell"
	"github.com/smile-loop/smile/learner/literal/supply"

	"github.com/smile-loop/smile/status/wire"

	"github.com/smile-loop/smile/learner/session"
	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/status"
)

// What a container can lack that no tutorial can give it. Each is the
// Subject of an environment Failure: a phrase that completes "the container
// lacks ...".
const (
	LacksNetwork = "network access"
	lacksDocker  = "a running Docker daemon"
	lacksKVM     = "the /dev/kvm device (hardware virtualization)"
	lacksSystemd = "systemd as its init process"
	// lacksDatabaseServer: a database client found no server on this
	// machine's socket; the page assumes one running.
	lacksDatabaseServer = "a running database server (the client found none on its local socket)"
	// Slim images remove apt's package lists; a learner's machine has them.
	lacksAptLists = "apt's package lists (the image ships without them)"
	// Debian 12, Ubuntu 23.04 and later refuse `pip install` outside a
	// virtual environment (PEP 668): the reader's Python decides, not the page.
	lacksPipOutsideVenv = "a Python that lets pip install outside a virtual environment (this one is externally managed, PEP 668)"
	// A C compiler without the C library's development files.
	lacksLibcDev = "the C library's development files (libc6-dev), which a compiler needs to link"
	// LacksDesktopHome: lessons written on a desktop start in ~/Desktop or
	// ~/Documents, which a container's home does not have.
	LacksDesktopHome = "the Desktop, Documents and Downloads folders a desktop user's home has"
)

// LacksBehindStandIn completes "the container lacks ..." for a file missing
// from a folder the Mentor's workaround made empty at the line given.
const LacksBehindStandIn = "what the folder made empty at line %d would hold (the Mentor's workaround stood in for it)"

// DesktopFolder is a path into a desktop user's home folders.
var DesktopFolder = regexp.MustCompile(`(?:^|/)(?:Desktop|Documents|Downloads)(?:/|$)`)

// safeShellPath can be written unquoted in a workaround (a leading ~ must
// stay unquoted to expand).
var safeShellPath = regexp.MustCompile(`^[~\w./-]+$`)

// aptListsDir is where apt keeps its package lists.
const aptListsDir = "/var/lib/apt/lists"

// unableToLocate is apt's answer for a package it has no list entry for.
var unableToLocate = regexp.MustCompile(`E: Unable to locate package \S+|E: Package '[^']+' has no installation candidate`)

// environmentSignal is an error text that means the container, not the
// tutorial, is short of something.
type environmentSignal struct {
	re    *regexp.Regexp
	lacks string
	// remoteOnly: the text means a missing network only when the address is
	// not this machine (a refused connection to localhost is the tutorial's
	// server that is not running).
	remoteOnly bool
}

var environmentSignals = []environmentSignal{
	// First what only a daemon or device explains: "Failed to connect to bus"
	// must not read as a refused network connection.
	{re: regexp.MustCompile(`(?i)cannot connect to the docker daemon|docker daemon socket|docker\.sock`), lacks: lacksDocker},
	{re: regexp.MustCompile(`/dev/kvm`), lacks: lacksKVM},
	// PostgreSQL's and MySQL's clients with no server behind their socket.
	{re: regexp.MustCompile(`(?i)connection to server on socket [^\n]* failed|is the server running locally and accepting|can't connect to local (?:mysql|mariadb) server through socket`), lacks: lacksDatabaseServer},
	{re: regexp.MustCompile(`(?i)externally-managed-environment`), lacks: lacksPipOutsideVenv},
	// A compiler installed without the C library's start files links nothing.
	{re: regexp.MustCompile(`cannot find (?:S?crt1\.o|crti\.o)`), lacks: lacksLibcDev},
	{re: regexp.MustCompile(`(?i)has not been booted with systemd|failed to connect to bus|systemd-(?:logind|run)[^\n]*not available`), lacks: lacksSystemd},
	// The Student's own check of an address a step downloads from (package
	// reach): its evidence leads the step's output.
	{re: regexp.MustCompile(regexp.QuoteMeta(reach.EvidencePrefix) + `\S+:\d+`), lacks: LacksNetwork},
	// Name resolution: curl, git, wget, glibc, Go, Node (getaddrinfo).
	{re: regexp.MustCompile(`(?i)could not resolve (host|proxy)|name or service not known|temporary failure in name resolution|unable to resolve host address|getaddrinfo (ENOTFOUND|EAI_AGAIN)|no such host|Temporary failure resolving`), lacks: LacksNetwork},
	{re: regexp.MustCompile(`(?i)network is unreachable|no route to host|proxyconnect tcp|dial tcp [^\n]*i/o timeout|ERR! network|ETIMEDOUT|ECONNRESET`), lacks: LacksNetwork},
	// Package registries that could not be reached: pip, cargo, gem, go.
	{re: regexp.MustCompile(`(?i)could not find a version that satisfies|no matching distribution found|failed to establish a new connection|failed to download|unable to download data from|Gem::RemoteFetcher|failed to fetch [^\n]*https?://|proxy\.golang\.org`), lacks: LacksNetwork},
	{re: regexp.MustCompile(`(?i)connection refused|failed to connect to|couldn't connect to server|ECONNREFUSED`), lacks: LacksNetwork, remoteOnly: true},
}

// localAddress is an address on this machine: a connection refused there is
// the tutorial's own server, not the network.
var localAddress = regexp.MustCompile(`(?i)localhost|127\.0\.0\.\d+|0\.0\.0\.0|\[::1\]|::1\b`)

// environmentFailure recognizes a failure that is the container's doing: no
// network, no Docker daemon, no KVM, no systemd.
func environmentFailure(command, output string) (Failure, bool) {
	if m := pageFile.FindStringSubmatch(output); m != nil {
		// The Student found the missing file in the page's folder.
		return Failure{Category: status.CategoryEnvironment, Subject: fmt.Sprintf(lacksPageFilesFormat, m[1]), ErrorLine: lineAround(output, strings.Index(output, m[0]))}, true
	}
	if m := pageFolder.FindStringSubmatch(output); m != nil {
		// The Student found it in one folder of the page's folder.
		return Failure{Category: status.CategoryEnvironment, Subject: fmt.Sprintf(lacksPageFolderFormat, m[1], m[2]), ErrorLine: lineAround(output, strings.Index(output, m[0]))}, true
	}
	for _, sig := range environmentSignals {
		loc := sig.re.FindStringIndex(output)
		if loc == nil {
			continue
		}
		line := lineAround(output, loc[0])
		if sig.remoteOnly && (localAddress.MatchString(line) || localAddress.MatchString(command)) {
			continue
		}
		return Failure{Category: status.CategoryEnvironment, Subject: sig.lacks, ErrorLine: line}, true
	}
	return Failure{}, false
}

// lineAround is the trimmed line of s that holds byte i.
func lineAround(s string, i int) string {
	start := strings.LastIndexByte(s[:i], '\n') + 1
	end := strings.IndexByte(s[i:], '\n')
	if end < 0 {
		end = len(s) - i
	}
	return strings.TrimSpace(s[start : i+end])
}

// prerequisiteSubject is the Subject of an environment Failure for a tool the
// tutorial lists as a prerequisite, at the line that says so, or only
// implies (no line says so: its title names it, its commands run it).
func prerequisiteSubject(p prereq.Prerequisite) string {
	return fmt.Sprintf("`%s`, which %s", p.Tool, prerequisiteSaid(p, ""))
}

// prerequisiteSaid is how the tutorial tells its reader to have the tool
// (it: the object, "" after "which").
func prerequisiteSaid(p prereq.Prerequisite, it string) string {
	if p.Via != "" {
		if p.Line == 0 && p.Implied != "" {
			return fmt.Sprintf("comes with %s, which the tutorial assumes its reader has (%s)", p.Via, p.Implied)
		}
		return fmt.Sprintf("comes with %s, which the tutorial lists as a prerequisite (line %d)", p.Via, p.Line)
	}
	if p.Line == 0 && p.Implied != "" {
		return fmt.Sprintf("the tutorial assumes its reader has%s (%s)", it, p.Implied)
	}
	return fmt.Sprintf("the tutorial lists%s as a prerequisite (line %d)", it, p.Line)
}

// prerequisiteTool reads the tool back out of prerequisiteSubject, or "".
func prerequisiteTool(subject string) string {
	if !strings.HasPrefix(subject, "`") {
		return ""
	}
	tool, _, ok := strings.Cut(subject[1:], "`")
	if !ok {
		return ""
	}
	return tool
}

// environmentProblem is the finding's problem: what the container lacked,
// and the error that showed it.
func environmentProblem(subject, errLine string) string {
	s := "the container lacks " + subject
	if prerequisiteTool(subject) != "" {
		s = "the image lacks " + subject
	}
	if errLine != "" {
		s += ": " + errLine
	}
	return s
}

// environmentFix says which setting gives the container what it lacked; the
// tutorial itself needs no change (at most a sentence saying what it needs).
func environmentFix(subject string, line int) string {
	if tool := prerequisiteTool(subject); tool != "" {
		how := "the tutorial lists it as a prerequisite"
		if strings.Contains(subject, "assumes its reader has") {
			how = "the tutorial assumes its reader has it"
		}
		return fmt.Sprintf("Nothing to fix in the tutorial: run it with a `containerImage` that has `%s` installed (%s; line %d needs it).", tool, how, line)
	}
	switch subject {
	case LacksNetwork:
		return fmt.Sprintf("Nothing to fix in the tutorial: line %d needs the network. Give the Student's container network access (`studentNetwork: bridge`, and a host that can reach the address), or use a `containerImage` that already holds what it downloads.", line)
	case lacksDocker:
		return fmt.Sprintf("Nothing to fix in the tutorial: line %d needs a Docker daemon, which SMILE's containers do not run and no setting provides one; check this step on a machine that runs Docker.", line)
	case lacksKVM:
		return fmt.Sprintf("Nothing to fix in the tutorial: line %d needs /dev/kvm, which SMILE's containers do not have and no setting provides; check this step on a machine with hardware virtualization.", line)
	case lacksAptLists:
		return fmt.Sprintf("Nothing to fix in the tutorial: line %d installs with apt, and the image has no package lists (a learner's machine has them). Use a `containerImage` that keeps them, or `setup: [\"apt-get update\"]`.", line)
	case LacksDesktopHome:
		return fmt.Sprintf("Nothing to fix in the tutorial: line %d assumes a desktop machine's home folders, which a container's home lacks. Add a `setup` command that creates them (`mkdir -p`), or use a `containerImage` that has them.", line)
	case lacksPipOutsideVenv:
		return fmt.Sprintf("Nothing to fix in the tutorial for this run: line %d installs with pip outside a virtual environment, which Debian 12, Ubuntu 23.04 and later refuse (PEP 668). Use a `containerImage` whose Python allows it.", line)
	case lacksDatabaseServer:
		return fmt.Sprintf("Nothing to fix in the tutorial: line %d talks to a database server on this machine, which the page assumes is installed and running. Use a `containerImage` that runs one, or `setup` commands that install and start it.", line)
	case lacksSystemd:
		return fmt.Sprintf("Nothing to fix in the tutorial: line %d needs systemd, which containers do not boot with. Use a `containerImage` that runs systemd.", line)
	}
	if strings.HasPrefix(subject, lacksSuppliedPrefix) {
		return fmt.Sprintf("Nothing to fix in the tutorial's steps: its readers get the files line %d reads separately, as it says. To check the page end to end, run it with a `containerImage` that holds them.", line)
	}
	if strings.Contains(subject, "older than the tutorial expects") {
		return fmt.Sprintf("Nothing to fix in the tutorial: run it with a `containerImage` that has the version line %d is written for.", line)
	}
	return fmt.Sprintf("Nothing to fix in the tutorial: give the container what line %d needs (%s) through `containerImage` or `setup`.", line, subject)
}

// EnvironmentCause turns into an environment failure what the image, not
// the page, is short of: a missing command the tutorial lists as a
// prerequisite, or apt finding no package because the image has no package
// lists (listsDir holds none).
func EnvironmentCause(f Failure, output string, t *spec.Tutorial, aptLists func(dir string) bool) Failure {
	if m := unableToLocate.FindString(output); m != "" && f.Category == status.CategoryCommandFailure && !aptLists(aptListsDir) {
		return Failure{Category: status.CategoryEnvironment, Subject: lacksAptLists, ErrorLine: lineContaining(output, m)}
	}
	if f.Category == status.CategoryMissingFile && machineFile.MatchString(f.Subject) {
		return Failure{Category: status.CategoryEnvironment, Subject: fmt.Sprintf(lacksMachineFile, f.Subject), ErrorLine: f.ErrorLine}
	}
	if f.Category != status.CategoryMissingDependency || f.Subject == "" {
		return f
	}
	return prerequisiteFailure(f, prereq.Prerequisites(t))
}

// machineFile is a path into the kernel's view of the machine's hardware
// (/sys/class/backlight, /dev/ttyUSB0, /proc/acpi): what it holds is the
// author's machine's, and a container has its own, smaller one.
var machineFile = regexp.MustCompile(`^/(?:sys|dev|proc)/\S`)

// lacksMachineFile completes "the container lacks ..." for such a path.
const lacksMachineFile = "the hardware the author's machine exposes as `%s` (a laptop's or a device's, not the container's)"

// AptListsOn says whether apt has downloaded any package list into dir, on
// the hands given (the container the commands run in, not the controller).
func AptListsOn(ctx context.Context, hands session.Hands) func(dir string) bool {
	return func(dir string) bool {
		names, err := session.List(ctx, hands, session.ListRequest{Root: dir, Depth: 1, Limit: 200})
		if err != nil {
			return true // cannot tell: do not blame the image
		}
		for _, n := range names {
			if strings.Contains(path.Base(n), "_Packages") {
				return true
			}
		}
		return false
	}
}

// prerequisiteFailure turns a missing command the tutorial lists as a
// prerequisite into an environment failure: the page did its job, the
// image did not.
func prerequisiteFailure(f Failure, prereqs []prereq.Prerequisite) Failure {
	if f.Category != status.CategoryMissingDependency || f.Subject == "" {
		return f
	}
	if p, ok := prerequisiteOf(f.Subject, prereqs); ok {
		f.Category = status.CategoryEnvironment
		f.Subject = prerequisiteSubject(p)
	}
	return f
}

// prerequisiteOf is the prerequisite that gives the reader tool: the tool
// itself, or a prerequisite that comes in the same package (createdb with
// psql, both postgresql-client's), which a reader who installed one has.
// For such a sibling, the Prerequisite returned is tool's, citing the
// line (or the reason) of the one the tutorial names.
func prerequisiteOf(tool string, prereqs []prereq.Prerequisite) (prereq.Prerequisite, bool) {
	if tool == "python" {
		// Debian and Ubuntu call Python 3 `python3` and have no `python`
		// unless python-is-python3 is installed: a reader who installed the
		// page's prerequisite still meets this, so it is the page's gap.
		return prereq.Prerequisite{}, false
	}
	for _, p := range prereqs {
		if p.Tool == tool {
			return p, true
		}
	}
	pkg := packages.For(tool, packages.APT)
	if pkg == "" {
		return prereq.Prerequisite{}, false
	}
	for _, p := range prereqs {
		if packages.For(p.Tool, packages.APT) == pkg {
			p.Tool, p.Via = tool, fmt.Sprintf("`%s` (package %s)", p.Tool, pkg)
			return p, true
		}
	}
	return prereq.Prerequisite{}, false
}

// environment advises on what the container lacks. A tool the tutorial lists
// as a prerequisite is installed like any missing command; a network, a
// daemon or a device no workaround can give, so the Mentor names the setting
// that does.
func (m *mentor) environment(ctx context.Context, base wire.MentorAdvice, f status.Finding, fail Failure) advice {
	if fail.Category == status.CategoryMissingDependency {
		p, ok := prerequisiteOf(fail.Subject, prereq.Prerequisites(m.tut))
		if !ok {
			// The Student found the page takes the tool for granted (its
			// subject, what most of its commands run): an environment note
			// is no gap, so its fix is the run's, never the page's.
			a := m.missingDependency(ctx, base, f, fail.Subject, "the page takes it for granted, so this is the image's gap, not the tutorial's")
			a.SuggestedFix = fmt.Sprintf("Nothing to fix in the tutorial: run it with a `containerImage` that has `%s` installed (the page takes it for granted; line %d needs it).", fail.Subject, f.Line)
			return a
		}
		a := m.missingDependency(ctx, base, f, fail.Subject, prerequisiteSaid(p, " it")+", so this is the image's gap, not the tutorial's")
		a.SuggestedFix = environmentFix(prerequisiteSubject(p), f.Line)
		return a
	}
	if a, ok := m.gnuAwk(base, f); ok {
		return a
	}
	if fail.Subject == LacksNetwork {
		if a, ok := m.distroStandIn(ctx, base, f); ok {
			return a
		}
	}
	if fail.Subject == lacksSystemd {
		if a, ok := initScript(base, f); ok {
			return a
		}
	}
	if pf := pageFile.FindStringSubmatch(fail.Subject); pf != nil {
		return pageFilesAdvice(base, wire.ContainerTutorialDir, pf[1], f.Line)
	}
	if pf := pageFolder.FindStringSubmatch(fail.Subject); pf != nil {
		return pageFolderAdvice(base, wire.ContainerTutorialDir, pf[1], pf[2], f.Line)
	}
	if fail.Category == status.CategoryMissingFile && !onlyDesktop(fail.Subject) {
		if s, ok := supply.Before(m.tut, f.Line); ok {
			return m.suppliedFiles(base, f, fail.Subject, s)
		}
	}
	if fail.Category == status.CategoryMissingFile && DesktopFolder.MatchString(fail.Subject) && safeShellPath.MatchString(fail.Subject) {
		// `ls Desktop`, `cd ~/Desktop/data`, `cat Desktop/notes.txt`: the
		// desktop folder itself is what the container lacks.
		dir := desktopDir(fail.Subject)
		base.Resolution = status.ResolutionWorkaround
		base.Workaround = "mkdir -p " + dir
		base.SuggestedFix = environmentFix(LacksDesktopHome, f.Line)
		return advice{MentorAdvice: base, Explanation: fmt.Sprintf(
			"`%s` failed because the container's home has no %s: the lesson was written on a desktop machine, where it exists. That is the environment, not the tutorial; the workaround creates it.",
			FirstLine(f.Command), dir)}
	}
	lacks := fail.Subject
	if fail.Category != status.CategoryEnvironment {
		lacks = "something the step needs"
	}
	// The Student calls "unable to locate package" the environment's only
	// when the image has no lists at all (EnvironmentCause).
	if unableToLocate.MatchString(f.Output) {
		base.Resolution = status.ResolutionWorkaround
		base.Workaround = "apt-get update"
		base.SuggestedFix = environmentFix(lacksAptLists, f.Line)
		return advice{MentorAdvice: base, Explanation: fmt.Sprintf(
			"`%s` failed because the image has no apt package lists (slim images remove them), so apt knows no package at all. The workaround downloads them before the step.",
			FirstLine(f.Command))}
	}
	base.Resolution = status.ResolutionUnresolvable
	base.SuggestedFix = environmentFix(lacks, f.Line)
	return advice{MentorAdvice: base, Explanation: fmt.Sprintf(
		"`%s` failed because the container lacks %s%s. That is the environment, not the tutorial, and nothing I can run in the container gives it: the run's settings must (see the suggested fix).",
		FirstLine(f.Command), lacks, parenCode(textutil.FirstNonEmpty(fail.ErrorLine, ErrorLine(f.Output))))}
}

// WorkaroundTimeout bounds one Mentor workaround replayed before a step. It
// is not the step timeout: a workaround is mostly a package install
// (apt-get update and install from Debian's mirror), which takes minutes
// where a tutorial step takes seconds. A workaround that runs out of it is
// stopped, and the audit and the report say so.
const WorkaroundTimeout = 300 * time.Second

// versionSmell is an error that says a program does not know what it was
// asked: an old version's answer to a newer tutorial.
var versionSmell = regexp.MustCompile(`(?i)\bedition\b|\bversion\b|unknown (?:sub)?command|unrecognized (?:option|command|subcommand|arguments?)|` +
	`unexpected argument|invalid choice|no such (?:sub)?command|not a valid (?:sub)?command|unknown (?:flag|option)|is not supported|invalid option|` +
	`^Usage: |` +
	`unable to locate config`)

// OlderThanExpected: a program the image lacked, installed by the Mentor's
// workaround from the image's package manager, fails as an older version
// would ("failed to parse the `edition` key", "unknown command"). Its
// version is SMILE's doing, not the tutorial's: the environment.
func OlderThanExpected(f Failure, command, output string, notes []status.MentorNote) Failure {
	if f.Category == status.CategoryEnvironment || !versionSmell.MatchString(output) {
		return f
	}
	prog := shell.CommandName(command)
	switch {
	case InstalledByWorkaround(prog, notes):
	case awkInPipeline.MatchString(command) && InstalledByWorkaround("gawk", notes):
		// The gawk the Mentor installed (the image's awk is mawk) is older
		// than the page's.
		return Failure{Category: status.CategoryEnvironment, Subject: lacksRecentGawk,
			ErrorLine: textutil.FirstNonEmpty(f.ErrorLine, ErrorLine(output))}
	default:
		return f
	}
	return Failure{Category: status.CategoryEnvironment, Subject: fmt.Sprintf(lacksRecentFormat, prog),
		ErrorLine: textutil.FirstNonEmpty(f.ErrorLine, ErrorLine(output))}
}

// awkInPipeline: awk runs in the command, first or after a pipe; the gawk
// the Mentor installed answers to it.
var awkInPipeline = regexp.MustCompile(`(?:^|[|;&]\s*)awk\s`)

// InstalledByWorkaround: the Mentor's workaround installed prog, so its
// version is the image's package manager's, not the one the tutorial used.
func InstalledByWorkaround(prog string, notes []status.MentorNote) bool {
	if prog == "" {
		return false
	}
	word := regexp.MustCompile(`(?:^|[\s=])` + regexp.QuoteMeta(prog) + `(?:$|[\s:])`)
	for _, n := range notes {
		if n.Resolution == status.ResolutionWorkaround && strings.Contains(n.Workaround, "install") && word.MatchString(n.Workaround) {
			return true
		}
	}
	return false
}

// lacksRecentFormat completes "the container lacks ..." for a program whose
// packaged version is older than the tutorial's.
const lacksRecentGawk = "a recent enough `awk` (the image's awk is mawk; the GNU awk its package manager installed is older than the tutorial expects)"

const lacksRecentFormat = "a recent enough `%s` (the image had none; the one its package manager installed is older than the tutorial expects)"
