package runtime

import (
	"context"
	"net"
	"net/url"
	"strings"
)

// FromHost rewrites an endpoint written for containers (http://HOST:PORT,
// HOST the runtime's name for the host) for a caller on the host: the
// engine's gateway address is one of the host's own.
func FromHost(ctx context.Context, rt Runtime, endpoint string) string {
	u, err := url.Parse(endpoint)
	if err != nil {
		return endpoint
	}
	info, err := rt.Info(ctx)
	if err != nil || info.GatewayIP == "" || info.HostName == "" || u.Hostname() != info.HostName {
		return endpoint
	}
	if port := u.Port(); port != "" {
		u.Host = net.JoinHostPort(info.GatewayIP, port)
	} else {
		u.Host = info.GatewayIP
	}
	return u.String()
}

// LastLogLines returns the last n lines a container printed, on one line
// joined by " | " ("" when there are none or they cannot be read).
func LastLogLines(ctx context.Context, rt Runtime, name string, n int) string {
	logs, err := rt.Logs(ctx, name)
	if err != nil {
		return ""
	}
	lines := strings.Split(strings.TrimSpace(logs), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.TrimSpace(strings.Join(lines, " | "))
}
