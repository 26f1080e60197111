package agent

import (
	"context"
	"io"
	"net"
	"strings"
	"sync"

	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/status/wire"

	"github.com/go-logr/logr"
)

// The environment variables that hold the providers' API keys are spec's
// provider table's (spec.AllKeyVariables). The controller passes the
// provider's own into the container; the wrapper keeps every one of them out
// of tutorial commands and out of what it posts.

// Secrets returns the values of the key variables (and of extra names, such
// as openai.apiKeyEnv) that are set, for redaction.
func Secrets(getenv func(string) string, extra ...string) []string {
	var out []string
	seen := map[string]bool{}
	for _, name := range append(spec.AllKeyVariables(), extra...) {
		if name == "" || seen[name] {
			continue
		}
		seen[name] = true
		if v := getenv(name); len(v) >= 4 {
			out = append(out, v)
		}
	}
	return out
}

// CLIEnv is the environment a CLI runs with: env without the wrapper's own
// variables (the callback token must never reach the model's commands), plus
// extra (later entries win).
func CLIEnv(env []string, extra ...string) []string {
	out := make([]string, 0, len(env)+len(extra))
	override := map[string]bool{}
	for _, kv := range extra {
		name, _, _ := strings.Cut(kv, "=")
		override[name] = true
	}
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, "SMILE_") || override[name] {
			continue
		}
		out = append(out, kv)
	}
	return append(out, extra...)
}

// WithoutKeys removes the API key variables (and extra names) from env: the
// environment of commands the wrapper itself runs for the model.
func WithoutKeys(env []string, extra ...string) []string {
	drop := map[string]bool{}
	for _, n := range append(spec.AllKeyVariables(), extra...) {
		drop[n] = true
	}
	out := env[:0:0]
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if !drop[name] {
			out = append(out, kv)
		}
	}
	return out
}

// ProxyEnv points a CLI's HTTP clients at proxy (both spellings: Node, Go
// and Rust tools read different ones).
func ProxyEnv(proxy string) []string {
	if proxy == "" {
		return nil
	}
	return []string{"HTTPS_PROXY=" + proxy, "https_proxy=" + proxy, "HTTP_PROXY=" + proxy, "http_proxy=" + proxy,
		"ALL_PROXY=" + proxy, "NO_PROXY=", "no_proxy="}
}

// Forwarder is the wrapper's end of the relay in a container without a
// network (studentNetwork none): a TCP listener on the loopback whose every
// connection is piped to the controller's relay socket. The relay speaks
// HTTP proxy (CONNECT for https, absolute URLs for http), so the model's
// CLI, told HTTPS_PROXY=http://127.0.0.1:PORT, reaches its API and nothing
// else.
type Forwarder struct {
	ln     net.Listener
	socket string
	log    logr.Logger
	wg     sync.WaitGroup
}

// StartForwarder listens on 127.0.0.1 and forwards to the Unix socket.
func StartForwarder(socket string, log logr.Logger) (*Forwarder, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	f := &Forwarder{ln: ln, socket: socket, log: log}
	f.wg.Add(1)
	go f.serve()
	return f, nil
}

// URL is the proxy URL to give the CLI.
func (f *Forwarder) URL() string { return "http://" + f.ln.Addr().String() }

// Close stops listening; connections in flight end with their peers.
func (f *Forwarder) Close() error {
	err := f.ln.Close()
	f.wg.Wait()
	return err
}

func (f *Forwarder) serve() {
	defer f.wg.Done()
	for {
		c, err := f.ln.Accept()
		if err != nil {
			return
		}
		go f.pipe(c)
	}
}

func (f *Forwarder) pipe(c net.Conn) {
	defer c.Close()
	var d net.Dialer
	up, err := d.DialContext(context.Background(), "unix", f.socket)
	if err != nil {
		f.log.Info("Relay not reachable", "socket", f.socket, "error", err.Error())
		return
	}
	defer up.Close()
	done := make(chan struct{}, 2)
	go func() { _, _ = io.Copy(up, c); closeWrite(up); done <- struct{}{} }()
	go func() { _, _ = io.Copy(c, up); closeWrite(c); done <- struct{}{} }()
	<-done
	<-done
}

func closeWrite(c net.Conn) {
	if cw, ok := c.(interface{ CloseWrite() error }); ok {
		_ = cw.CloseWrite()
	}
}

// RelaySocket is the relay's socket from the environment ("" on the bridge).
func RelaySocket(getenv func(string) string) string { return getenv(wire.EnvRelaySocket) }
