//go:build !linux

package docker

import "errors"

// noTraceProfile needs the engine's default profile, which is built for
// Linux hosts only: elsewhere a container asking for NoTrace is refused
// rather than started with tracing allowed.
func noTraceProfile() (string, error) {
	return "", errors.New("confining tracing (container.allowPtrace false) needs a Linux host; set container.allowPtrace to run here")
}
