package server_test

import (
	"github.com/smile-loop/smile/reconcile"
	"github.com/smile-loop/smile/reconcile/events"
	"github.com/smile-loop/smile/reconcile/internal/apitest"
	. "github.com/smile-loop/smile/reconcile/server"

	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/smile-loop/smile/status/wire"

	"github.com/go-logr/logr"
	"github.com/gorilla/websocket"

	"github.com/smile-loop/smile/runtime/fake"
	"github.com/smile-loop/smile/status"
)

// stuckAfter is how long an event may take to reach an observer before the
// test calls the hub stuck. It is a bound on hanging, not SC-010's 100 ms
// target: the latency itself is measured by hack/bench-events.sh.
const stuckAfter = 5 * time.Second

// wsMsg is one received message, raw payload kept for typed decoding.
type wsMsg struct {
	Event   string          `json:"event"`
	Payload json.RawMessage `json:"payload"`
	At      time.Time       `json:"-"` // when the client received it
}

func (m wsMsg) decode(t *testing.T, v any) {
	t.Helper()
	if err := json.Unmarshal(m.Payload, v); err != nil {
		t.Fatalf("decode %s payload %s: %v", m.Event, m.Payload, err)
	}
}

// wsClient reads a connection on its own goroutine into a channel.
type wsClient struct {
	c    *websocket.Conn
	msgs chan wsMsg
	done chan error
}

func dialWS(t *testing.T, m *reconcile.Manager, query string, header http.Header) *wsClient {
	t.Helper()
	c := dialRaw(t, m, query, header, nil)
	return readAll(t, c)
}

func dialRaw(t *testing.T, m *reconcile.Manager, query string, header http.Header, dialer *websocket.Dialer) *websocket.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if dialer == nil {
		dialer = websocket.DefaultDialer
	}
	c, resp, err := dialer.DialContext(ctx, "ws://"+m.APIAddr()+"/ws"+query, withToken(header))
	if err != nil {
		code := 0
		if resp != nil {
			code = resp.StatusCode
		}
		t.Fatalf("dial /ws%s: %v (HTTP %d)", query, err, code)
	}
	c.SetReadLimit(1 << 26)
	t.Cleanup(func() { c.Close() })
	return c
}

func readAll(t *testing.T, c *websocket.Conn) *wsClient {
	w := &wsClient{c: c, msgs: make(chan wsMsg, 100000), done: make(chan error, 1)}
	go func() {
		for {
			_, data, err := c.ReadMessage()
			if err != nil {
				w.done <- err
				close(w.msgs)
				return
			}
			var m wsMsg
			if err := json.Unmarshal(data, &m); err != nil {
				w.done <- fmt.Errorf("message is not JSON: %s", data)
				close(w.msgs)
				return
			}
			m.At = time.Now()
			w.msgs <- m
		}
	}()
	return w
}

// next returns the next message, failing after a few seconds.
func (w *wsClient) next(t *testing.T) wsMsg {
	t.Helper()
	select {
	case m, ok := <-w.msgs:
		if !ok {
			t.Fatalf("connection ended: %v", <-w.done)
		}
		return m
	case <-time.After(5 * time.Second):
		t.Fatal("no WebSocket message within 5s")
	}
	return wsMsg{}
}

// until collects messages up to and including the first named one.
func (w *wsClient) until(t *testing.T, event string) []wsMsg {
	t.Helper()
	var got []wsMsg
	for {
		m := w.next(t)
		got = append(got, m)
		if m.Event == event {
			return got
		}
	}
}

// untilPhase collects messages up to and including the phase event that
// enters phase.
func (w *wsClient) untilPhase(t *testing.T, phase status.Phase) []wsMsg {
	t.Helper()
	var got []wsMsg
	for {
		m := w.next(t)
		got = append(got, m)
		if m.Event == WSPhase {
			var p WSPhasePayload
			m.decode(t, &p)
			if p.Phase == phase {
				return got
			}
		}
	}
}

// quiet asserts that no message arrives for d.
func (w *wsClient) quiet(t *testing.T, d time.Duration) {
	t.Helper()
	select {
	case m := <-w.msgs:
		t.Fatalf("unexpected message %s %s", m.Event, m.Payload)
	case <-time.After(d):
	}
}

func names(msgs []wsMsg, keep ...string) []string {
	var out []string
	for _, m := range msgs {
		if len(keep) == 0 || slices.Contains(keep, m.Event) {
			out = append(out, m.Event)
		}
	}
	return out
}

// attempt returns the run's token and the container it waits on.
func attempt(t *testing.T, m *reconcile.Manager) (token, container string) {
	t.Helper()
	run, err := m.Run("demo")
	if err != nil || run.Status.Attempt == nil {
		t.Fatalf("no attempt: %v %+v", err, run)
	}
	return containerToken(t, m, run.Status.Attempt.Container), run.Status.Attempt.Container
}

func postJSON(t *testing.T, m *reconcile.Manager, path string, v any) {
	t.Helper()
	token, container := attempt(t, m)
	body, _ := json.Marshal(v)
	if code, out := apitest.Post(t, "http://"+m.CallbackAddr()+path, token, container, body); code != http.StatusOK {
		t.Fatalf("POST %s: %d %v", path, code, out)
	}
}

var chmodAdvice = &wire.MentorAdvice{Line: 6, Category: "permission_denied", Resolution: status.ResolutionWorkaround,
	Workaround: "chmod +x run.sh", SuggestedFix: "Add `chmod +x run.sh` before line 6."}

const chmodNotes = "Line 6: run `chmod +x run.sh` first."

var completed = status.StudentOutput{Status: status.StudentCompleted, CurrentStep: "line 6: ./run.sh", Line: 6,
	Summary: "ran the script after chmod +x"}

func TestWSEventsThroughALoop(t *testing.T) {
	m, _ := startManager(t)
	ws := dialWS(t, m, "", nil)

	first := ws.next(t)
	if first.Event != WSConnected {
		t.Fatalf("first message %q, want connected", first.Event)
	}
	var snap WSSnapshotPayload
	first.decode(t, &snap)
	if snap.Name != "demo" || snap.Phase != status.PhaseWaitingForStudent || snap.State.Status != "waiting_for_student" ||
		snap.State.Iteration != 1 || snap.Attempt == nil || snap.Attempt.Role != status.RoleStudent ||
		len(snap.Timeline) == 0 || snap.MaxIterations == 0 || snap.Tutorial != "tutorial.md" || snap.Terminal {
		t.Fatalf("connected = %s", first.Payload)
	}
	run, _ := m.Run("demo")
	if strings.Contains(string(first.Payload), run.Status.Token) {
		t.Fatal("the snapshot carries the run's token")
	}

	// Iteration 1: progress, then the Student asks; the Mentor answers;
	// iteration 2 completes; the report is written.
	postJSON(t, m, wire.PathProgress, wire.ProgressRequest{Step: "line 6: ./run.sh", Line: 6})
	got := []wsMsg{first}
	got = append(got, ws.until(t, WSProgress)...)
	postJSON(t, m, wire.PathStudentResult, wire.StudentResultRequest{StudentOutput: askChmod})
	got = append(got, ws.untilPhase(t, status.PhaseWaitingForMentor)...)
	postJSON(t, m, wire.PathMentorResult, wire.MentorResultRequest{MentorOutput: chmodNotes, Advice: chmodAdvice})
	got = append(got, ws.until(t, WSIterationStart)...)
	postJSON(t, m, wire.PathStudentResult, wire.StudentResultRequest{StudentOutput: completed})
	got = append(got, ws.until(t, WSReport)...)
	ws.quiet(t, 200*time.Millisecond)

	seed := names(got, WSConnected, WSProgress, WSIterationStart, WSStudentOutput, WSMentorOutput, WSLoopComplete, WSError)
	want := []string{WSConnected, WSProgress, WSStudentOutput, WSMentorOutput, WSIterationStart, WSStudentOutput, WSLoopComplete}
	if !slices.Equal(seed, want) {
		t.Fatalf("seed events %v, want %v (all: %v)", seed, want, names(got))
	}

	// Every transition is a phase event, in order, within 100 ms of its save.
	var phases []string
	for _, msg := range got {
		if msg.Event != WSPhase {
			continue
		}
		var p WSPhasePayload
		msg.decode(t, &p)
		phases = append(phases, string(p.Phase)+"/"+p.Action)
		if lag := msg.At.Sub(p.At); lag > stuckAfter {
			t.Errorf("phase %s arrived %v after its transition: the hub is stuck", p.Phase, lag)
		}
	}
	wantPhases := []string{"RunningMentor/StudentResult", "WaitingForMentor/MentorStarted", "RunningStudent/MentorResult",
		"WaitingForStudent/StudentStarted", "Completed/StudentReported", "Completed/Finish"}
	if !slices.Equal(phases, wantPhases) {
		t.Fatalf("phases %v, want %v", phases, wantPhases)
	}

	// Payloads.
	byName := map[string][]wsMsg{}
	for _, msg := range got {
		byName[msg.Event] = append(byName[msg.Event], msg)
	}
	var prog WSProgressPayload
	byName[WSProgress][0].decode(t, &prog)
	if prog.Step != "line 6: ./run.sh" || prog.Line != 6 || prog.Iteration != 1 || prog.Role != status.RoleStudent {
		t.Errorf("progress = %+v", prog)
	}
	var so1, so2 WSStudentOutputPayload
	byName[WSStudentOutput][0].decode(t, &so1)
	byName[WSStudentOutput][1].decode(t, &so2)
	if so1.Status != status.StudentAskMentor || so1.CurrentStep != askChmod.CurrentStep || so1.QuestionForMentor != askChmod.QuestionForMentor || so1.Iteration != 1 || so1.Line != 6 {
		t.Errorf("first student_output = %+v", so1)
	}
	if so2.Status != status.StudentCompleted || so2.Summary != completed.Summary || so2.Iteration != 2 {
		t.Errorf("second student_output = %+v", so2)
	}
	var mo WSMentorOutputPayload
	byName[WSMentorOutput][0].decode(t, &mo)
	if mo.Notes != chmodNotes || mo.Iteration != 1 || mo.Question != askChmod.QuestionForMentor || mo.Workaround != "chmod +x run.sh" {
		t.Errorf("mentor_output = %+v", mo)
	}
	var is WSIterationStartPayload
	byName[WSIterationStart][0].decode(t, &is)
	if is.Iteration != 2 || is.Timestamp.IsZero() {
		t.Errorf("iteration_start = %+v", is)
	}
	var lc WSLoopCompletePayload
	byName[WSLoopComplete][0].decode(t, &lc)
	if lc.Status != "completed" || lc.Iterations != 2 || lc.Phase != status.PhaseCompleted || lc.Gaps != 1 || !strings.Contains(lc.Summary, "completed") {
		t.Errorf("loop_complete = %+v", lc)
	}
	gaps := byName[WSGap]
	if len(gaps) == 0 {
		t.Fatal("no gap event")
	}
	var g status.Gap
	gaps[0].decode(t, &g)
	if g.Location.LineNumber != 6 || g.Category != status.CategoryPermissionDenied || g.Severity == "" {
		t.Errorf("gap = %+v", g)
	}
	var rep status.ReportRef
	byName[WSReport][0].decode(t, &rep)
	if rep.Markdown == "" {
		t.Errorf("report = %+v", rep)
	}
	var entries []string
	for _, msg := range byName[WSTimeline] {
		var e status.TimelineEntry
		msg.decode(t, &e)
		entries = append(entries, e.Event)
	}
	if want := []string{"StudentReported", "MentorStarted", "MentorAnswered", "StudentStarted", "StudentReported", "LoopEnded", "ReportWritten"}; !slices.Equal(entries, want) {
		t.Errorf("timeline events %v, want %v", entries, want)
	}

	// Within a transition: phase first, then what it recorded.
	order := names(got)
	at := func(name string) int { return slices.Index(order, name) }
	if !(at(WSPhase) < at(WSStudentOutput) && at(WSStudentOutput) < at(WSGap)) {
		t.Errorf("order within the Student's result: %v", order)
	}
}

func TestWSConnectedMidRunGetsTheCurrentStateFirst(t *testing.T) {
	m, _ := startManager(t)
	postJSON(t, m, wire.PathStudentResult, wire.StudentResultRequest{StudentOutput: askChmod})
	apitest.WaitPhase(t, m, "demo", status.PhaseWaitingForMentor)
	postJSON(t, m, wire.PathProgress, wire.ProgressRequest{Step: "reading the Student's question"})

	ws := dialWS(t, m, "?name=demo", nil)
	first := ws.next(t)
	if first.Event != WSConnected {
		t.Fatalf("first message %q, want connected", first.Event)
	}
	var snap WSSnapshotPayload
	first.decode(t, &snap)
	if snap.State.Status != "waiting_for_mentor" || snap.Iteration != 1 || len(snap.State.History) != 1 ||
		snap.State.History[0].StudentOutput.QuestionForMentor != askChmod.QuestionForMentor {
		t.Fatalf("connected state = %s", first.Payload)
	}
	if len(snap.Gaps) != 1 || snap.Gaps[0].Location.LineNumber != 6 {
		t.Errorf("connected gaps = %+v", snap.Gaps)
	}
	if snap.Attempt == nil || snap.Attempt.Role != status.RoleMentor || snap.Progress == nil || snap.Progress.Step != "reading the Student's question" {
		t.Errorf("connected attempt %+v progress %+v", snap.Attempt, snap.Progress)
	}
	if !slices.ContainsFunc(snap.Timeline, func(e status.TimelineEntry) bool { return e.Event == "MentorStarted" }) {
		t.Errorf("connected timeline = %+v", snap.Timeline)
	}
	// What happened before the connection is in the snapshot, not replayed.
	ws.quiet(t, 200*time.Millisecond)

	postJSON(t, m, wire.PathMentorResult, wire.MentorResultRequest{MentorOutput: chmodNotes, Advice: chmodAdvice})
	if msg := ws.next(t); msg.Event != WSPhase {
		t.Fatalf("after connected: %s, want the next transition's phase", msg.Event)
	}

	if code := dialStatus(t, m, "?name=nope", nil); code != http.StatusNotFound {
		t.Errorf("an unknown run: HTTP %d, want 404", code)
	}
}

func subscribers(h *events.Hub) int { return h.Subscribers() }

func TestWSNoObserversNothingBuffered(t *testing.T) {
	m, _ := startManager(t)
	if n := subscribers(m.Hub()); n != 0 {
		t.Fatalf("%d subscribers with no observer connected, want 0", n)
	}
	// Transitions with nobody watching keep nothing for later.
	postJSON(t, m, wire.PathStudentResult, wire.StudentResultRequest{StudentOutput: askChmod})
	apitest.WaitPhase(t, m, "demo", status.PhaseWaitingForMentor)
	if n := subscribers(m.Hub()); n != 0 {
		t.Fatalf("%d subscribers after the loop moved, want 0", n)
	}

	ws := dialWS(t, m, "", nil)
	if msg := ws.next(t); msg.Event != WSConnected {
		t.Fatalf("first message %q", msg.Event)
	}
	if n := subscribers(m.Hub()); n != 1 {
		t.Fatalf("%d subscribers with one observer, want 1", n)
	}
	ws.quiet(t, 200*time.Millisecond)

	closeMsg := websocket.FormatCloseMessage(websocket.CloseNormalClosure, "")
	_ = ws.c.WriteControl(websocket.CloseMessage, closeMsg, time.Now().Add(time.Second))
	deadline := time.Now().Add(2 * time.Second)
	for subscribers(m.Hub()) != 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%d subscribers after the observer left, want 0", subscribers(m.Hub()))
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// smallReadBuffer dials with a tiny socket receive buffer, so a client that
// does not read stalls the server's writes quickly. restore gives the socket
// a normal buffer again for when the client reads.
func smallReadBuffer() (dialer *websocket.Dialer, restore func()) {
	d := &net.Dialer{}
	var mu sync.Mutex
	var conns []*net.TCPConn
	dialer = &websocket.Dialer{NetDialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := d.DialContext(ctx, network, addr)
		if err == nil {
			tc := c.(*net.TCPConn)
			_ = tc.SetReadBuffer(64 << 10) // with less, some kernels keep the window small after restore
			mu.Lock()
			conns = append(conns, tc)
			mu.Unlock()
		}
		return c, err
	}}
	return dialer, func() {
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			_ = c.SetReadBuffer(4 << 20)
		}
	}
}

func TestWSSlowClientLosesItsOldestAndDelaysNobody(t *testing.T) {
	m, _ := startManager(t)
	dialer, restore := smallReadBuffer()
	slow := dialRaw(t, m, "", nil, dialer) // never reads until the end
	fast := dialWS(t, m, "", nil)
	if msg := fast.next(t); msg.Event != WSConnected {
		t.Fatalf("first message %q", msg.Event)
	}
	run, _ := m.Run("demo")
	big := strings.Repeat("x", 8<<10)
	seq := 0
	// flood publishes progress reports in batches the fast client reads before
	// the next: the slow client's writes stall and its queue overflows.
	flood := func(n int) {
		t.Helper()
		for b := 0; b < n; b += 50 {
			start := time.Now()
			for i := 0; i < 50; i++ {
				seq++
				m.Hub().Publish(events.Event{Run: run, Action: events.ActProgress, At: time.Now(), Progress: &events.Progress{Step: strconv.Itoa(seq) + " " + big, At: time.Now()}})
			}
			if d := time.Since(start); d > stuckAfter {
				t.Errorf("publishing 50 events took %v: the hub waits for a client", d)
			}
			for {
				msg := fast.next(t)
				if msg.Event != WSProgress {
					continue
				}
				var p WSProgressPayload
				msg.decode(t, &p)
				if n := progressSeq(t, p); n == seq {
					break
				}
			}
		}
	}
	flood(1000)

	// The loop moves on, and the fast client sees each transition in time.
	postJSON(t, m, wire.PathStudentResult, wire.StudentResultRequest{StudentOutput: askChmod})
	for _, msg := range fast.untilPhase(t, status.PhaseWaitingForMentor) {
		if msg.Event == WSPhase {
			var p WSPhasePayload
			msg.decode(t, &p)
			if lag := msg.At.Sub(p.At); lag > stuckAfter {
				t.Errorf("with a stalled client, phase %s reached the fast one after %v", p.Phase, lag)
			}
		}
	}
	flood(500)

	// The slow client now reads: its events are in order, and past what its
	// socket held it kept only the newest SubscriptionBuffer.
	var seqs []int
	restore()
	slowMsgs := readAll(t, slow)
	for len(seqs) == 0 || seqs[len(seqs)-1] != seq {
		msg := slowMsgs.next(t)
		if msg.Event != WSProgress {
			continue
		}
		var p WSProgressPayload
		msg.decode(t, &p)
		seqs = append(seqs, progressSeq(t, p))
	}
	if !slices.IsSorted(seqs) {
		t.Fatalf("the slow client's events are out of order")
	}
	if len(seqs) >= seq {
		t.Fatalf("the slow client got all %d events: it never fell behind", seq)
	}
	tail := seqs[len(seqs)-events.SubscriptionBuffer:]
	for i, n := range tail {
		if n != seq-events.SubscriptionBuffer+1+i {
			t.Fatalf("the slow client's last %d events are %v..., want the newest %d", events.SubscriptionBuffer, tail[:5], events.SubscriptionBuffer)
		}
	}
	if before := seqs[len(seqs)-events.SubscriptionBuffer-1]; before == seq-events.SubscriptionBuffer {
		t.Fatalf("no event was dropped before the newest %d", events.SubscriptionBuffer)
	}
	t.Logf("published %d, the slow client got %d (the rest dropped, oldest first)", seq, len(seqs))
}

func progressSeq(t *testing.T, p WSProgressPayload) int {
	t.Helper()
	n, err := strconv.Atoi(strings.Fields(p.Step)[0])
	if err != nil {
		t.Fatalf("progress step %q", p.Step[:20])
	}
	return n
}

// dialOptions are a handshake's extra headers and Host.
type dialOptions struct {
	HTTPHeader http.Header
	Host       string
}

// dialStatus attempts a handshake and returns its HTTP status (101 when
// accepted).
func dialStatus(t *testing.T, m *reconcile.Manager, query string, opts *dialOptions) int {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if opts == nil {
		opts = &dialOptions{}
	}
	h := withToken(opts.HTTPHeader)
	if opts.Host != "" {
		h.Set("Host", opts.Host) // the dialer sends it as the request's Host
	}
	c, resp, err := websocket.DefaultDialer.DialContext(ctx, "ws://"+m.APIAddr()+"/ws"+query, h)
	if err == nil {
		c.Close()
		return http.StatusSwitchingProtocols
	}
	if resp == nil {
		t.Fatalf("dial: %v", err)
	}
	return resp.StatusCode
}

func TestWSOriginChecked(t *testing.T) {
	m, _ := startManager(t)
	_, port, _ := net.SplitHostPort(m.APIAddr())
	tests := []struct {
		name, origin, host string
		want               int
	}{
		{"no Origin (not a browser)", "", "", http.StatusSwitchingProtocols},
		{"the dashboard itself", "http://127.0.0.1:" + port, "", http.StatusSwitchingProtocols},
		{"the dashboard by name", "http://localhost:" + port, "", http.StatusSwitchingProtocols},
		{"the dashboard by name, to its address", "http://localhost:" + port, "localhost:" + port, http.StatusSwitchingProtocols},
		{"another site", "http://evil.example", "", http.StatusForbidden},
		{"another site on this port", "http://evil.example:" + port, "", http.StatusForbidden},
		{"another local port", "http://127.0.0.1:1", "", http.StatusForbidden},
		{"an opaque origin", "null", "", http.StatusForbidden},
		{"a rebound DNS name", "http://evil.example:" + port, "evil.example:" + port, http.StatusForbidden},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := http.Header{}
			if tc.origin != "" {
				h.Set("Origin", tc.origin)
			}
			if got := dialStatus(t, m, "", &dialOptions{HTTPHeader: h, Host: tc.host}); got != tc.want {
				t.Errorf("handshake from %q (Host %q): %d, want %d", tc.origin, tc.host, got, tc.want)
			}
		})
	}
}

func TestWSShutdownClosesObservers(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "tutorial.md"), tutorialMD)
	write(t, filepath.Join(dir, "run.yaml"), "apiVersion: smile.dev/v1alpha1\nkind: SmileRun\nmetadata: {name: demo}\nspec: {llmProvider: literal}\n")
	write(t, filepath.Join(dir, "smile-wrapper"), "#!/bin/true\n")
	m := reconcile.NewManager(reconcile.Options{Runtime: fake.New("smile-base:latest"), WrapperPath: filepath.Join(dir, "smile-wrapper"),
		CallbackHost: "127.0.0.1", Log: logr.Discard(), ReportFallback: io.Discard, ControlToken: testControlToken})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if err := m.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Apply(filepath.Join(dir, "run.yaml")); err != nil {
		t.Fatal(err)
	}
	ws := dialWS(t, m, "", nil)
	ws.next(t)
	cancel()
	for range ws.msgs {
	}
	err := <-ws.done
	if !websocket.IsCloseError(err, websocket.CloseGoingAway) {
		t.Fatalf("after shutdown the observer got %v, want a going-away close", err)
	}
	m.Wait()
}
