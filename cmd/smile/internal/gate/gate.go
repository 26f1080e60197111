// Package gate is what `smile apply --fail-on` and the pre-commit hook fail
// on: the tutorial's gaps at or above a severity and, only when named,
// environment findings.
package gate

import (
	"fmt"
	"strings"

	"github.com/smile-loop/smile/status"
)

// Gate is what --fail-on fails on: the tutorial's gaps at or above a
// severity and, only when it names them, environment findings. An
// environment finding says what the container lacked (a network, a tool the
// page lists as a prerequisite), not what the page gets wrong: a class of
// its own, reported as a note, never failing a check by default.
type Gate struct {
	// Min is the lowest severity of a tutorial gap that fails; "" for none.
	Min status.Severity
	// Environment: environment findings fail too, at any severity.
	Environment bool
}

// Off: nothing fails (--fail-on none), and a run's result is never an exit
// code of its own but SMILE's failures.
func (g Gate) Off() bool { return g.Min == "" && !g.Environment }

// Fails says whether one counted gap fails the gate.
func (g Gate) Fails(gp status.Gap) bool {
	if gp.Category == status.CategoryEnvironment {
		return g.Environment
	}
	return g.Min != "" && gp.Severity.Rank() >= g.Min.Rank()
}

// Values is --fail-on's help and error text.
const Values = "critical, major, minor or none, optionally with environment (major,environment)"

// Parse reads --fail-on: one severity (critical, major, minor or
// none), and environment to fail on environment findings too;
// "environment" alone keeps the default severity, minor.
func Parse(s string) (Gate, error) {
	var g Gate
	severity := ""
	for _, part := range strings.Split(s, ",") {
		switch p := strings.TrimSpace(part); p {
		case "environment":
			g.Environment = true
		case "critical", "major", "minor", "none":
			if severity != "" {
				return Gate{}, fmt.Errorf("--fail-on names two severities, %s and %s: give one of %s", severity, p, Values)
			}
			severity = p
		default:
			return Gate{}, fmt.Errorf("--fail-on must be %s, got %q", Values, s)
		}
	}
	switch severity {
	case "", "minor":
		g.Min = status.SeverityMinor
	case "none":
	default:
		g.Min = status.Severity(severity)
	}
	return g, nil
}
