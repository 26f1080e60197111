package mentor

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/smile-loop/smile/learner/literal/packages"

	"github.com/smile-loop/smile/learner/provider"
	"github.com/smile-loop/smile/learner/session"
)

// probeFunc runs a shell script where the Mentor looks (its own container by
// default) and returns its combined output and exit code; err is for a
// script that could not be run at all or ran out of time.
type probeFunc func(ctx context.Context, script string, timeout time.Duration) (output string, exit int, err error)

// Time limits of the Mentor's looks. apt's lists are missing from slim images
// (smile-base removes them), so the first look downloads them.
const (
	probeUpdateTimeout = 120 * time.Second
	probeQueryTimeout  = 30 * time.Second
	probeReadTimeout   = 5 * time.Second
)

// handsProbe runs one look-up in a shell session on the Mentor's hands (the
// container), bounded by timeout.
func (m *mentor) handsProbe(ctx context.Context, script string, timeout time.Duration) (string, int, error) {
	if m.probeSess == nil {
		sess, err := session.NewWith(ctx, m.env.HandsOrLocal(), m.env.WorkDir, m.env.CommandEnv())
		if err != nil {
			return "", -1, fmt.Errorf("probe %q: %w", FirstLine(script), err)
		}
		m.probeSess = sess
	}
	res, err := m.probeSess.Run(ctx, script, timeout)
	if err != nil {
		return res.Output, -1, fmt.Errorf("probe %q: %w", FirstLine(script), err)
	}
	if res.TimedOut {
		return res.Output, -1, fmt.Errorf("probe %q: no answer within %s: %w", FirstLine(script), timeout, context.DeadlineExceeded)
	}
	return res.Output, res.ExitCode, nil
}

// closeProbe ends the look-up session, if one was started.
func (m *mentor) closeProbe() {
	if m.probeSess != nil {
		_ = m.probeSess.Close()
		m.probeSess = nil
	}
}

// Heartbeat reports step as progress every interval until stop is called, so
// a long install or look-up is not mistaken for a stuck attempt (the
// controller measures its step timeout from the last progress).
func Heartbeat(ctx context.Context, env provider.Env, step string, line int, interval time.Duration) (stop func()) {
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(max(interval, time.Second))
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-t.C:
				env.Progress(ctx, step, line)
			}
		}
	}()
	return func() { close(done); <-finished }
}

// osRelease reads the ID and ID_LIKE of /etc/os-release: the distribution
// and the ones it derives from ("ubuntu", "debian").
func osRelease(text string) (id string, like []string) {
	for _, l := range strings.Split(text, "\n") {
		k, v, ok := strings.Cut(strings.TrimSpace(l), "=")
		if !ok {
			continue
		}
		v = strings.ToLower(strings.Trim(v, `"'`))
		switch k {
		case "ID":
			id = v
		case "ID_LIKE":
			like = strings.Fields(v)
		}
	}
	return id, like
}

// managerFor picks the package manager a distribution uses, among those on
// PATH: Debian and Ubuntu use apt, Alpine apk, Fedora and RHEL dnf (or
// microdnf/yum on minimal images).
func managerFor(id string, like []string, lookPath func(string) (string, error)) (packages.Manager, bool) {
	families := map[string][]packages.Manager{
		"debian": {packages.APT}, "ubuntu": {packages.APT}, "alpine": {packages.APK},
		"fedora": {packages.DNF, packages.MicroDNF, packages.YUM}, "rhel": {packages.DNF, packages.MicroDNF, packages.YUM}, "centos": {packages.DNF, packages.MicroDNF, packages.YUM},
	}
	for _, name := range append([]string{id}, like...) {
		for _, pm := range families[name] {
			if _, err := lookPath(string(pm)); err == nil {
				return pm, true
			}
		}
	}
	return packages.Detect(lookPath)
}

var packageName = regexp.MustCompile(`^[a-z0-9][a-z0-9+._-]*$`)

// lookupScript asks pm which package provides command. Each prints package
// names, one per line, best first.
func lookupScript(pm packages.Manager, command string) string {
	c := shellWord(command)
	switch pm {
	case packages.APT:
		// An exact name first, then names built from the command
		// ("python3-x", "ncdu-extra"), from the package lists. A name that
		// only looks like the command proves nothing (task-spooler is not
		// task, libwebsockets-evlib-uv is not uv): such a package is named
		// only when its own file list has bin/COMMAND, read from its .deb
		// (downloaded, not installed; at most five are looked at).
		re := regexp.QuoteMeta(command)
		return fmt.Sprintf(`apt-cache show --no-all-versions %[1]s >/dev/null 2>&1 && echo %[1]s; `, c) +
			fmt.Sprintf(`cd "$(mktemp -d)" && for p in $(apt-cache search --names-only '^(%[1]s-.*|.*-%[1]s)$' | cut -d' ' -f1 | head -n 5); do `+
				`apt-get download -qq "$p" >/dev/null 2>&1 && dpkg-deb -c "$p"_*.deb 2>/dev/null | grep -qE '\./(usr/)?s?bin/%[1]s$' && echo "$p"; rm -f ./*.deb; done`, re)
	case packages.APK:
		return fmt.Sprintf(`apk search -q cmd:%s`, c)
	case packages.DNF, packages.MicroDNF, packages.YUM:
		return fmt.Sprintf(`%s -q repoquery --qf '%%{name}' --whatprovides '*/bin/%s' 2>/dev/null || %s -q provides '*/bin/%s'`, pm, command, pm, command)
	}
	return ""
}

// updateScript refreshes pm's package lists, when it keeps them.
func updateScript(pm packages.Manager) string {
	if pm == packages.APT {
		return "apt-get update -qq"
	}
	return ""
}

// parseProviders reads the package names a look-up printed, best first: an
// exact match for the command, then the others in order.
func parseProviders(pm packages.Manager, command, output string) []string {
	var names []string
	for _, l := range strings.Split(output, "\n") {
		name := strings.TrimSpace(l)
		if f := strings.Fields(name); len(f) > 0 {
			name = f[0]
		}
		if pm != packages.APT {
			name = versionSuffix.ReplaceAllString(name, "") // jq-1.7.1-r0, jq-1.6-3.fc39.x86_64
		}
		if packageName.MatchString(name) && !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	// The package named like the command first, then "command-*" (fd-find),
	// then the rest as listed.
	rank := func(n string) int {
		switch {
		case n == command:
			return 0
		case strings.HasPrefix(n, command+"-"):
			return 1
		}
		return 2
	}
	slices.SortStableFunc(names, func(a, b string) int { return rank(a) - rank(b) })
	return names
}

var versionSuffix = regexp.MustCompile(`-\d[^\s]*$`)

// probeable is a command name safe to put in a look-up script.
var probeable = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._+-]*$`)

// lookup asks the image's package manager which package provides command:
// it reads /etc/os-release to know the distribution, refreshes the package
// lists when the image has none, and queries them. Every step is bounded.
func (m *mentor) lookup(ctx context.Context, command string, line int) (packages.Manager, []string, string) {
	if !probeable.MatchString(command) {
		return "", nil, fmt.Sprintf("`%s` is not a name a package manager can look up", command)
	}
	out, _, err := m.probe(ctx, "cat /etc/os-release", probeReadTimeout)
	if err != nil {
		out = ""
	}
	id, like := osRelease(out)
	pm, ok := managerFor(id, like, m.lookPath)
	if !ok {
		return "", nil, "the image has no package manager I know (apt-get, apk, dnf, microdnf, yum)"
	}
	step := fmt.Sprintf("line %d: asking %s which package provides %s", line, pm, command)
	m.env.Progress(ctx, step, line)
	stop := Heartbeat(ctx, m.env, step, line, m.beat)
	defer stop()
	if u := updateScript(pm); u != "" {
		if _, code, err := m.probe(ctx, u, probeUpdateTimeout); err != nil || code != 0 {
			m.env.Log.Info("Package lists not refreshed", "manager", string(pm), "exitCode", code, "error", fmt.Sprint(err))
		}
	}
	q, _, err := m.probe(ctx, lookupScript(pm, command), probeQueryTimeout)
	if err != nil {
		return pm, nil, fmt.Sprintf("%s did not answer which package provides `%s` (%v)", pm, command, err)
	}
	names := parseProviders(pm, command, q)
	if len(names) == 0 {
		return pm, nil, fmt.Sprintf("%s knows no package that provides `%s`", pm, command)
	}
	return pm, names, ""
}
