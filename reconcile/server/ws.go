package server

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"

	"github.com/smile-loop/smile/reconcile/events"

	"github.com/smile-loop/smile/status"
)

// WSWriteTimeout bounds one WebSocket write. A client that accepts nothing
// for this long is disconnected; until then it only loses its oldest events
// (E17), and never delays the loop or other clients.
const WSWriteTimeout = 10 * time.Second

// errorPollInterval is how often a connection looks for a failed reconcile
// (a failure is not a transition, so the hub does not publish it).
const errorPollInterval = 100 * time.Millisecond

// observers serves the read-only observer routes of the loopback listener:
// the WebSocket events, the dashboard and the tutorial it shows.
type observers struct {
	s *Server

	views viewCache // the view of each run's end, made once for every connection

	mu       sync.Mutex
	conns    map[*wsConn]struct{}
	stopping bool
	servers  sync.Map // *http.Server -> struct{}: shutdown hooks registered
}

// observe adds the observer routes to the loopback API mux.
func (s *Server) observe(mux *http.ServeMux) {
	o := &observers{s: s, conns: map[*wsConn]struct{}{}}
	s.obs = o
	mux.Handle("GET /ws", sameHostOnly(http.HandlerFunc(o.serveWS)))
	mux.Handle("GET /ws/runs", sameHostOnly(http.HandlerFunc(o.serveRunsWS)))
	o.dashboard(mux)
}

// serveWS streams a run's events: connected with the current state, then
// every transition as it is saved. Each connection has its own subscription,
// so with no connection nothing is kept (E15).
func (o *observers) serveWS(w http.ResponseWriter, r *http.Request) {
	name, ok := o.s.pickRun(w, r)
	if !ok {
		return
	}
	stop, conn := o.track()
	if conn == nil {
		writeError(w, http.StatusServiceUnavailable, "the controller is stopping")
		return
	}
	defer o.untrack(conn)
	o.hookShutdown(r)

	// Subscribe before the snapshot is taken, so nothing between the two is
	// missed; events the snapshot already holds are skipped below.
	sub := o.s.b.Subscribe()
	defer sub.Close()
	c, err := upgrader.Upgrade(w, r, nil)
	if err != nil {
		return // Upgrade answered: 403 for a foreign origin
	}
	defer c.Close()
	boundSendBuffer(c)
	// Observers only listen: a message from one closes its connection. ctx
	// ends when the connection does; stop when the controller stops.
	ctx := closeRead(c)

	f := &feed{b: o.s.b, name: name, views: &o.views}
	if err := f.write(c, f.connected()); err != nil {
		return
	}
	tick := time.NewTicker(errorPollInterval)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-stop.Done():
			f.flush(c, sub) // the last transitions before the stop, e.g. the report
			msg := websocket.FormatCloseMessage(websocket.CloseGoingAway, "the controller is stopping")
			_ = c.WriteControl(websocket.CloseMessage, msg, time.Now().Add(time.Second))
			return
		case ev := <-sub.C:
			for _, e := range f.next(ev) {
				if err := f.write(c, e); err != nil {
					return
				}
			}
		case <-tick.C:
			if e, ok := f.checkError(); ok {
				if err := f.write(c, e); err != nil {
					return
				}
			}
		}
	}
}

// flush sends the events already published to sub, without waiting for
// more, then whatever the run's saved state holds beyond them.
func (f *feed) flush(c *websocket.Conn, sub *events.Subscription) {
	for {
		select {
		case ev := <-sub.C:
			for _, e := range f.next(ev) {
				if f.write(c, e) != nil {
					return
				}
			}
		default:
			for _, e := range f.catchUp() {
				if f.write(c, e) != nil {
					return
				}
			}
			return
		}
	}
}

// actCatchUp names the transition a closing connection is sent when the
// run's saved state is newer than the last event it got.
const actCatchUp = "CatchUp"

// catchUp is what this connection has not been sent of the run as last
// saved. A transition is saved (and readable) a moment before the hub
// publishes it, so a controller that stops right after its run ended (an
// in-process apply) may close the connection in between: without this, the
// page would show the run ended but never get its report.
func (f *feed) catchUp() []WSEvent {
	run, err := f.b.Run(f.name)
	if err != nil || run == nil || run == f.prev {
		return nil
	}
	if p := f.prev; p != nil && p.Metadata.Generation == run.Metadata.Generation && !run.Status.UpdatedAt.After(p.Status.UpdatedAt) {
		return nil
	}
	return f.next(events.Event{Run: run, Action: actCatchUp, At: run.Status.UpdatedAt})
}

// wsConn is one open connection, which a shutdown ends.
type wsConn struct{ cancel context.CancelFunc }

// track registers a connection so a shutdown can end it: http.Server.Shutdown
// neither closes nor waits for hijacked connections. It returns nil once the
// server is stopping.
func (o *observers) track() (context.Context, *wsConn) {
	ctx, cancel := context.WithCancel(context.Background())
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.stopping {
		cancel()
		return nil, nil
	}
	c := &wsConn{cancel: cancel}
	o.conns[c] = struct{}{}
	return ctx, c
}

func (o *observers) untrack(c *wsConn) {
	c.cancel()
	o.mu.Lock()
	defer o.mu.Unlock()
	delete(o.conns, c)
}

// drain ends every observer connection and waits, at most d, until each
// has sent what it still had (the run's last transitions, its report) and
// closed: http.Server.Shutdown neither ends nor waits for hijacked
// connections, and a controller that stops right after its run ended (an
// in-process apply) would otherwise exit while a page still lacks the end.
func (o *observers) drain(d time.Duration) {
	deadline := time.Now().Add(d)
	for {
		o.mu.Lock()
		o.stopping = true
		open := len(o.conns)
		for c := range o.conns {
			c.cancel()
		}
		o.mu.Unlock()
		if open == 0 || time.Now().After(deadline) {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// hookShutdown ends every connection when the server serving r shuts down.
func (o *observers) hookShutdown(r *http.Request) {
	srv, ok := r.Context().Value(http.ServerContextKey).(*http.Server)
	if !ok {
		return
	}
	if _, loaded := o.servers.LoadOrStore(srv, struct{}{}); loaded {
		return
	}
	srv.RegisterOnShutdown(func() {
		o.mu.Lock()
		defer o.mu.Unlock()
		o.stopping = true
		for c := range o.conns {
			c.cancel()
		}
	})
}

// feed is one connection's view of a run: what it was last sent.
type feed struct {
	b       Runs
	views   *viewCache
	name    string
	prev    *status.Run
	lastErr string
}

// connected is the first message: the run as last written.
func (f *feed) connected() WSEvent {
	run, _ := f.b.Run(f.name)
	f.prev = run
	return WSEvent{Event: WSConnected, Payload: f.snapshot(run)}
}

// next translates a hub event into this connection's messages.
func (f *feed) next(ev events.Event) []WSEvent {
	run := ev.Run
	if run == nil || run.Metadata.Name != f.name {
		return nil
	}
	if ev.Action == events.ActProgress {
		p := ev.Progress
		if p == nil {
			return nil
		}
		payload := WSProgressPayload{Step: p.Step, Line: p.Line, At: p.At, Iteration: run.Status.Iteration}
		if a := run.Status.Attempt; a != nil {
			payload.Role = a.Role
		}
		return []WSEvent{{Event: WSProgress, Payload: payload}}
	}
	if run == f.prev || (f.prev != nil && run.Metadata.Generation == f.prev.Metadata.Generation &&
		run.Status.UpdatedAt.Before(f.prev.Status.UpdatedAt)) {
		return nil // already in the snapshot this connection was sent
	}
	events, resync := diffEvents(f.prev, run, ev.Action, ev.At)
	f.prev = run
	// The phase event that ends the run carries the run page's view, which
	// then arrives even when the controller stops right after (an
	// in-process apply); before, the page reads it (GET /api/view), so the
	// loop's events cost no more with many observers.
	if p, ok := events[0].Payload.(WSPhasePayload); ok && p.Terminal {
		p.View = f.views.of(f.b, f.name, run)
		events[0].Payload = p
	}
	if resync {
		events = append(events, WSEvent{Event: WSSnapshot, Payload: f.snapshot(run)})
	}
	return events
}

// checkError reports a reconcile failure once, when it first appears.
func (f *feed) checkError() (WSEvent, bool) {
	msg := ""
	if err := f.b.LastError(f.name); err != nil {
		msg = err.Error()
	}
	if msg == f.lastErr {
		return WSEvent{}, false
	}
	f.lastErr = msg
	if msg == "" {
		return WSEvent{}, false
	}
	return WSEvent{Event: WSError, Payload: WSErrorPayload{Message: msg, Reason: status.ReasonReconcileFailed}}, true
}

// snapshot is everything an observer needs to draw the run from scratch.
func (f *feed) snapshot(run *status.Run) WSSnapshotPayload {
	p := WSSnapshotPayload{Name: f.name, Gaps: []status.Gap{}, Timeline: []status.TimelineEntry{}, MentorNotesHTML: []string{}}
	if d, err := f.b.Desired(f.name); err == nil {
		p.MaxIterations = d.Config.MaxIterations
		p.Tutorial = relPath(d.Dir, d.Paths.Tutorial)
	}
	if err := f.b.LastError(f.name); err != nil {
		p.LastError = err.Error()
	}
	f.lastErr = p.LastError
	if run == nil {
		p.State = (&status.Status{}).LoopState()
		return p
	}
	st := &run.Status
	p.State = st.LoopState()
	p.MentorNotesHTML = mentorNotesHTML(st.MentorNotes)
	v := viewOf(f.b, f.name, run)
	p.View = &v
	p.Generation = run.Metadata.Generation
	p.Phase, p.Terminal, p.Reason, p.Message = st.Phase, st.Phase.Terminal(), st.Reason, st.Message
	p.Iteration = st.Iteration
	p.Gaps = append(p.Gaps, st.Gaps...)
	p.Timeline = append(p.Timeline, st.Timeline...)
	p.Report, p.FinishedAt = st.Report, st.FinishedAt
	if a := st.Attempt; a != nil {
		p.Attempt = &WSAttempt{Role: a.Role, Iteration: a.Iteration, Container: a.Container, StartedAt: a.StartedAt}
		p.Progress, _ = f.b.Progress(f.name, a.Container)
	}
	return p
}

// write sends one message, giving up after WSWriteTimeout: a connection
// whose write timed out is broken, and the next write ends it.
func (f *feed) write(c *websocket.Conn, e WSEvent) error {
	data, err := json.Marshal(e)
	if err != nil {
		return err
	}
	if err := c.SetWriteDeadline(time.Now().Add(WSWriteTimeout)); err != nil {
		return err
	}
	return c.WriteMessage(websocket.TextMessage, data)
}

// WSSendBuffer bounds the kernel's send buffer of one observer's connection:
// a client that stops reading stalls its writes after this much, and from
// then on loses its oldest events in the hub (E17) instead of having
// megabytes of stale ones queued for it.
const WSSendBuffer = 64 << 10

func boundSendBuffer(c *websocket.Conn) {
	if tc, ok := c.NetConn().(*net.TCPConn); ok {
		_ = tc.SetWriteBuffer(WSSendBuffer)
	}
}

// upgrader accepts the dashboard's own origins only (sameOrigin).
var upgrader = websocket.Upgrader{CheckOrigin: sameOrigin}

// closeRead reads the connection until it ends, answering pings and close
// frames: observers only listen, so a message from one closes it with a
// policy violation. The context ends with the connection.
func closeRead(c *websocket.Conn) context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		defer cancel()
		if _, _, err := c.NextReader(); err != nil {
			return
		}
		msg := websocket.FormatCloseMessage(websocket.ClosePolicyViolation, "observers only listen")
		_ = c.WriteControl(websocket.CloseMessage, msg, time.Now().Add(time.Second))
	}()
	return ctx
}

// sameOrigin allows a handshake without an Origin (not a browser), from the
// request's own host, or from the dashboard itself: this listener's port on
// the loopback names, so a page loaded from localhost reaches 127.0.0.1 and
// back. Any other origin is refused with 403.
func sameOrigin(r *http.Request) bool {
	origin := r.Header.Get("Origin")
	if origin == "" {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return false
	}
	if strings.EqualFold(u.Host, r.Host) {
		return true
	}
	return slices.ContainsFunc(ownOrigins(r), func(o string) bool { return strings.EqualFold(o, u.Host) })
}

// ownOrigins are the hosts of the dashboard itself: this listener's port on
// the loopback names.
func ownOrigins(r *http.Request) []string {
	addr, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok {
		return nil
	}
	_, port, err := net.SplitHostPort(addr.String())
	if err != nil {
		return nil
	}
	return []string{"127.0.0.1:" + port, "localhost:" + port, "[::1]:" + port}
}

// sameHostOnly refuses requests whose Host is not this machine by a loopback
// name or the listener's own address: a page on another site that rebinds
// its DNS name to 127.0.0.1 is same-origin with itself, so the Origin check
// alone would not stop it.
func sameHostOnly(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !localHost(r) {
			writeError(w, http.StatusForbidden, "host "+strconv.Quote(r.Host)+" is not this controller's address")
			return
		}
		next.ServeHTTP(w, r)
	})
}

func localHost(r *http.Request) bool {
	host := r.Host
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	if ip == nil {
		return false
	}
	if ip.IsLoopback() {
		return true
	}
	addr, ok := r.Context().Value(http.LocalAddrContextKey).(*net.TCPAddr)
	return ok && addr.IP.Equal(ip)
}
