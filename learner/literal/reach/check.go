package reach

import (
	"context"
	"fmt"
	"strings"
)

// An Answer is what a check found about one address.
type Answer int

const (
	// Unknown: no check could be made (no bash or timeout in the image, or a
	// proxy the check would bypass); the command is run as written.
	Unknown Answer = iota
	Reachable
	// Unreachable: the name has no address in the container, or a
	// connection to it was refused or did not open in time.
	Unreachable
)

// A Result is an Answer with the check's own words, the evidence the
// report quotes.
type Result struct {
	Answer   Answer
	Evidence string
}

// ConnectSeconds bounds one connection attempt: a registry answers in well
// under a second where the network is open.
const ConnectSeconds = 5

// marker starts each line of a check's answer, so it can be told from
// anything the shell itself prints.
const marker = "smile-reach:"

// Script is the shell script that checks an address from inside the
// container: it resolves the name (getent, where there is one) and opens a
// TCP connection with bash's /dev/tcp, bounded by ConnectSeconds. A proxy
// setting means the tools go through the proxy, not straight to the
// address, so the check declines to judge. host and port come from Needs,
// whose hosts are plain DNS names, so they need no quoting.
func Script(a Address) string {
	return fmt.Sprintf(`if [ -n "${https_proxy:-}${HTTPS_PROXY:-}${http_proxy:-}${HTTP_PROXY:-}${all_proxy:-}${ALL_PROXY:-}" ]; then echo "%[1]s proxy"; exit 0; fi
if ! command -v bash >/dev/null 2>&1 || ! command -v timeout >/dev/null 2>&1; then echo "%[1]s no-tools"; exit 0; fi
if command -v getent >/dev/null 2>&1 && ! getent hosts %[2]s >/dev/null 2>&1; then echo "%[1]s no-address"; exit 0; fi
timeout %[4]d bash -c 'exec 3<>/dev/tcp/%[2]s/%[3]d' >/dev/null 2>&1
case $? in 0) echo "%[1]s connected" ;; 124) echo "%[1]s timed-out" ;; *) echo "%[1]s refused" ;; esac`,
		marker, a.Host, a.Port, ConnectSeconds)
}

// EvidencePrefix starts the evidence of every Unreachable result: the
// Mentor reads a step's failure as the network's by it.
const EvidencePrefix = "the container cannot connect to "

// Read turns the output of Script into a Result.
func Read(a Address, output string) Result {
	word := ""
	for _, line := range strings.Split(output, "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), marker); ok {
			word = strings.TrimSpace(rest)
		}
	}
	switch word {
	case "connected":
		return Result{Answer: Reachable, Evidence: fmt.Sprintf("the container connected to %s", a)}
	case "no-address":
		return Result{Answer: Unreachable, Evidence: fmt.Sprintf(EvidencePrefix+"%s: the name %s has no address there", Describe(a), a.Host)}
	case "timed-out":
		return Result{Answer: Unreachable, Evidence: fmt.Sprintf(EvidencePrefix+"%s: no connection within %d s", Describe(a), ConnectSeconds)}
	case "refused":
		return Result{Answer: Unreachable, Evidence: fmt.Sprintf(EvidencePrefix+"%s: the connection was refused", Describe(a))}
	case "proxy":
		return Result{Answer: Unknown, Evidence: "a proxy is set, so the tools do not connect directly"}
	default:
		return Result{Answer: Unknown, Evidence: "the image has no bash or timeout to check with"}
	}
}

// A Probe runs a shell script in the Student's container and returns what
// it printed.
type Probe func(ctx context.Context, script string) (string, error)

// A Checker checks addresses with a Probe, each address once.
type Checker struct {
	probe Probe
	seen  map[string]Result
}

// NewChecker is a Checker that runs its checks with probe.
func NewChecker(probe Probe) *Checker {
	return &Checker{probe: probe, seen: map[string]Result{}}
}

// Check says whether the container reaches a. A check that could not run
// is Unknown, and is tried again next time.
func (c *Checker) Check(ctx context.Context, a Address) Result {
	if r, ok := c.seen[a.String()]; ok {
		return r
	}
	out, err := c.probe(ctx, Script(a))
	if err != nil {
		return Result{Answer: Unknown, Evidence: err.Error()}
	}
	r := Read(a, out)
	c.seen[a.String()] = r
	return r
}

// FirstUnreachable checks the addresses in order and returns the first the
// container cannot reach.
func (c *Checker) FirstUnreachable(ctx context.Context, addrs []Address) (Address, Result, bool) {
	for _, a := range addrs {
		if r := c.Check(ctx, a); r.Answer == Unreachable {
			return a, r, true
		}
	}
	return Address{}, Result{}, false
}
