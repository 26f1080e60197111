package servers

import (
	"fmt"
	"net"
	"net/url"
	"strings"
)

// readyMark is what a probe prints once what it asks answers.
const readyMark = "smile-ready"

// Probe is the shell script (bash: /dev/tcp) that asks, from inside the
// container, whether a background command is up as its author's ready
// annotation says: a port that accepts a connection, or a URL that answers
// with a status below 400 (an https URL: its port accepts one). Each try
// is bounded by timeout(1), so a server that accepts and never answers
// cannot hold the Student. "" when there is nothing to ask.
func Probe(port int, rawURL string) string {
	if port > 0 {
		return fmt.Sprintf("timeout 3 bash -c 'exec 3<>/dev/tcp/127.0.0.1/%d' 2>/dev/null && echo %s", port, readyMark)
	}
	u, err := url.Parse(rawURL)
	if rawURL == "" || err != nil || u.Hostname() == "" {
		return ""
	}
	host, p := u.Hostname(), u.Port()
	if p == "" {
		p = map[bool]string{true: "443", false: "80"}[u.Scheme == "https"]
	}
	if u.Scheme == "https" {
		return fmt.Sprintf("timeout 3 bash -c 'exec 3<>/dev/tcp/%s/%s' 2>/dev/null && echo %s", host, p, readyMark)
	}
	path := u.RequestURI()
	request := fmt.Sprintf(`GET %s HTTP/1.0\r\nHost: %s\r\n\r\n`, path, net.JoinHostPort(host, p))
	return fmt.Sprintf(`timeout 3 bash -c 'exec 3<>/dev/tcp/%s/%s && printf "%s" >&3 && head -n 1 <&3' 2>/dev/null | grep -Eq '^HTTP/[0-9.]+ [123][0-9][0-9]' && echo %s`,
		host, p, strings.ReplaceAll(request, "'", ""), readyMark)
}

// Answered says whether a probe's output says it is up.
func Answered(output string) bool { return strings.Contains(output, readyMark) }
