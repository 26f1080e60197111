// Package relay carries the traffic of a container without a network
// (studentNetwork: none): its wrapper's callbacks to the controller, and its
// CLI's calls to the provider's API hosts, and nothing else.
package relay

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/go-logr/logr"

	"github.com/smile-loop/smile/runtime"
	"github.com/smile-loop/smile/status/wire"
)

// A Student container on studentNetwork none has no network interface but
// the loopback: it can reach nothing, the controller included. The relay is
// how its wrapper still reports, and how its model's CLI still reaches the
// model's API and nothing else. It is a Unix socket in a folder mounted
// read-only into the container (a socket needs no network, and connect()
// works on a read-only mount), served by the controller:
//
//   - origin-form requests (POST /api/student/result, /api/progress) go to
//     the callback listener, token and all: the relay adds no authority;
//   - CONNECT host:443 (https through a proxy) and absolute-URL requests
//     (http through a proxy) go to the provider's API hosts only; anything
//     else is refused with 403.
//
// Inside the container, the wrapper pipes a loopback port to the socket and
// gives the CLI HTTPS_PROXY=http://127.0.0.1:PORT. A tutorial command that
// tries the web gets "Network is unreachable" (or a 403 through the proxy).
// One relay serves one container; it closes when the container is gone.

// Set holds the open relays, by container name. The manager owns one and
// closes it when it stops; nothing about relays is package state.
type Set struct {
	rt   runtime.Runtime
	poll time.Duration // how often a relay checks that its container exists

	mu   sync.Mutex
	open map[string]*relay
}

// NewSet returns an empty set whose relays check every poll that their
// container still exists (5 s when poll is 0).
func NewSet(rt runtime.Runtime, poll time.Duration) *Set {
	if poll <= 0 {
		poll = 5 * time.Second
	}
	return &Set{rt: rt, poll: poll, open: map[string]*relay{}}
}

type relay struct {
	name     string
	dir      string
	srv      *http.Server
	callback *url.URL
	allowed  map[string]bool // host:port
	redirect map[string]string
	done     chan struct{}
}

// Start opens the relay of container name and returns the folder that holds
// its socket (to be mounted at wire.ContainerRelayDir): callback is the
// callback listener's URL as the host reaches it, allowed the API hosts,
// gateway the address hostName (the runtime's name for the host) stands for.
func (s *Set) Start(ctx context.Context, name string, callback *url.URL, allowed []string, hostName, gateway string) (string, error) {
	s.Stop(name)
	// Under the system's temp folder: a socket path may not exceed 108 bytes,
	// and a run's own folders can be deep.
	dir, err := os.MkdirTemp("", "smile-relay-")
	if err != nil {
		return "", err
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		os.RemoveAll(dir)
		return "", err
	}
	sock := filepath.Join(dir, wire.RelaySocketName)
	ln, err := net.Listen("unix", sock)
	if err != nil {
		os.RemoveAll(dir)
		return "", fmt.Errorf("listen on the relay socket: %w", err)
	}
	// Whoever the container runs as may connect; the callback token still
	// guards every write.
	if err := os.Chmod(sock, 0o666); err != nil {
		ln.Close()
		os.RemoveAll(dir)
		return "", err
	}
	r := &relay{name: name, dir: dir, callback: callback, allowed: map[string]bool{}, redirect: map[string]string{}, done: make(chan struct{})}
	for _, h := range allowed {
		r.allowed[h] = true
		if host, port, err := net.SplitHostPort(h); err == nil && host == hostName && hostName != "" && gateway != "" {
			r.redirect[h] = net.JoinHostPort(gateway, port)
		}
	}
	log := logr.FromContextOrDiscard(ctx).WithValues("container", name)
	r.srv = &http.Server{Handler: r, ReadHeaderTimeout: 30 * time.Second, ErrorLog: nil}
	go func() {
		if err := r.srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Info("Relay stopped", "error", err.Error())
		}
	}()
	s.mu.Lock()
	s.open[name] = r
	s.mu.Unlock()
	go s.watch(context.WithoutCancel(ctx), r)
	return dir, nil
}

// notCreatedGrace is how long a relay waits for a container that does not
// exist yet: the relay opens before its container is created (the container
// mounts its folder), and creating one may take a while on a busy engine.
const notCreatedGrace = 2 * time.Minute

// watch closes the relay once its container has exited or, having existed,
// is gone; a container never created within notCreatedGrace closes it too.
func (s *Set) watch(ctx context.Context, r *relay) {
	t := time.NewTicker(s.poll)
	defer t.Stop()
	opened, seen := time.Now(), false
	for {
		select {
		case <-r.done:
			return
		case <-t.C:
		}
		c, err := s.rt.Inspect(ctx, r.name)
		notFound := errors.Is(err, runtime.ErrNotFound)
		if err == nil {
			seen = true
		}
		if (notFound && (seen || time.Since(opened) > notCreatedGrace)) ||
			(err == nil && (c.State == runtime.StateExited || c.State == runtime.StateGone)) {
			s.Stop(r.name)
			return
		}
	}
}

// Stop closes the relay of a container, if it has one.
func (s *Set) Stop(name string) {
	s.mu.Lock()
	r, ok := s.open[name]
	delete(s.open, name)
	s.mu.Unlock()
	if !ok {
		return
	}
	close(r.done)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_ = r.srv.Shutdown(ctx)
	os.RemoveAll(r.dir)
}

// Close stops every relay: the manager's last act, so no socket outlives
// the controller.
func (s *Set) Close() {
	s.mu.Lock()
	names := make([]string, 0, len(s.open))
	for name := range s.open {
		names = append(names, name)
	}
	s.mu.Unlock()
	for _, name := range names {
		s.Stop(name)
	}
}

func (r *relay) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	switch {
	case req.Method == http.MethodConnect:
		r.connect(w, req)
	case req.URL.IsAbs():
		r.forward(w, req)
	case strings.HasPrefix(req.URL.Path, "/api/"):
		// The wrapper's callbacks.
		p := httputil.NewSingleHostReverseProxy(r.callback)
		p.ServeHTTP(w, req)
	default:
		http.Error(w, "the relay only carries SMILE's callbacks and the model's API", http.StatusForbidden)
	}
}

func (r *relay) target(hostport, scheme string) (string, bool) {
	if _, _, err := net.SplitHostPort(hostport); err != nil {
		hostport = net.JoinHostPort(hostport, map[string]string{"http": "80", "https": "443"}[scheme])
	}
	if !r.allowed[hostport] {
		return "", false
	}
	if to, ok := r.redirect[hostport]; ok {
		return to, true
	}
	return hostport, true
}

// connect tunnels https to an allowed API host.
func (r *relay) connect(w http.ResponseWriter, req *http.Request) {
	addr, ok := r.target(req.Host, "https")
	if !ok {
		http.Error(w, "studentNetwork is none: only the model's API is reachable, not "+req.Host, http.StatusForbidden)
		return
	}
	up, err := net.DialTimeout("tcp", addr, 15*time.Second)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	hj, ok := w.(http.Hijacker)
	if !ok {
		up.Close()
		http.Error(w, "cannot tunnel", http.StatusInternalServerError)
		return
	}
	conn, buf, err := hj.Hijack()
	if err != nil {
		up.Close()
		return
	}
	_, _ = conn.Write([]byte("HTTP/1.1 200 Connection Established\r\n\r\n"))
	if n := buf.Reader.Buffered(); n > 0 {
		data, _ := buf.Reader.Peek(n)
		_, _ = up.Write(data)
	}
	done := make(chan struct{}, 2)
	go func() { _, _ = io.Copy(up, conn); done <- struct{}{} }()
	go func() { _, _ = io.Copy(conn, up); done <- struct{}{} }()
	<-done
	conn.Close()
	up.Close()
	<-done
}

// forward passes a plain-http proxy request to an allowed API host.
func (r *relay) forward(w http.ResponseWriter, req *http.Request) {
	addr, ok := r.target(req.URL.Host, req.URL.Scheme)
	if !ok {
		http.Error(w, "studentNetwork is none: only the model's API is reachable, not "+req.URL.Host, http.StatusForbidden)
		return
	}
	out := req.Clone(req.Context())
	out.RequestURI = ""
	out.URL.Host = addr
	out.Header.Del("Proxy-Connection")
	out.Header.Del("Proxy-Authorization")
	resp, err := http.DefaultTransport.RoundTrip(out)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	for k, vs := range resp.Header {
		for _, v := range vs {
			w.Header().Add(k, v)
		}
	}
	w.WriteHeader(resp.StatusCode)
	_, _ = io.Copy(w, resp.Body)
}
