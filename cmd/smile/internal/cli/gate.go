package cli

import (
	"fmt"
	"strings"

	"github.com/smile-loop/smile/status"
)

// gate is what --fail-on fails on: the tutorial's gaps at or above a
// severity and, only when it names them, environment findings. An
// environment finding says what the container lacked (a network, a tool the
// page lists as a prerequisite), not what the page gets wrong: a class of
// its own, reported as a note, never failing a check by default.
type gate struct {
	// min is the lowest severity of a tutorial gap that fails; "" for none.
	min status.Severity
	// environment: environment findings fail too, at any severity.
	environment bool
}

// off: nothing fails (--fail-on none), and a run's result is never an exit
// code of its own but SMILE's failures.
func (g gate) off() bool { return g.min == "" && !g.environment }

// fails says whether one counted gap fails the gate.
func (g gate) fails(gp status.Gap) bool {
	if gp.Category == status.CategoryEnvironment {
		return g.environment
	}
	return g.min != "" && gp.Severity.Rank() >= g.min.Rank()
}

// failOnValues is --fail-on's help and error text.
const failOnValues = "critical, major, minor or none, optionally with environment (major,environment)"

// parseFailOn reads --fail-on: one severity (critical, major, minor or
// none), and environment to fail on environment findings too;
// "environment" alone keeps the default severity, minor.
func parseFailOn(s string) (gate, error) {
	var g gate
	severity := ""
	for _, part := range strings.Split(s, ",") {
		switch p := strings.TrimSpace(part); p {
		case "environment":
			g.environment = true
		case "critical", "major", "minor", "none":
			if severity != "" {
				return gate{}, fmt.Errorf("--fail-on names two severities, %s and %s: give one of %s", severity, p, failOnValues)
			}
			severity = p
		default:
			return gate{}, fmt.Errorf("--fail-on must be %s, got %q", failOnValues, s)
		}
	}
	switch severity {
	case "", "minor":
		g.min = status.SeverityMinor
	case "none":
	default:
		g.min = status.Severity(severity)
	}
	return g, nil
}
