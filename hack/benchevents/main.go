// Command benchevents measures the controller's observer path and its API
// while a loop runs (NFR-001, NFR-002, NFR-004, SC-010). It runs a real
// Manager on the in-memory fake runtime, drives its loop through the callback
// API (the Student asks, the Mentor answers, again and again), and prints two
// tables:
//
//   - event delivery latency with 1, 10 and 100 WebSocket clients on /ws:
//     from a transition's save (the phase event's "at") to its receipt by
//     each client;
//   - GET /api/status throughput and latency at several concurrencies while
//     the loop runs, with the loop's own pace beside it.
//
// Usage: go run ./hack/benchevents [-cycles 50] [-clients 1,10,100] [-concurrency 1,8,32]
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/smile-loop/smile/status/wire"

	"github.com/go-logr/logr"
	"github.com/gorilla/websocket"

	"github.com/smile-loop/smile/reconcile"
	"github.com/smile-loop/smile/reconcile/events"
	"github.com/smile-loop/smile/reconcile/server"
	"github.com/smile-loop/smile/runtime/fake"
	"github.com/smile-loop/smile/status"
)

const tutorial = "# Demo\n\nRun it:\n\n```bash\n./run.sh\n```\n"

func main() {
	cycles := flag.Int("cycles", 50, "Student/Mentor cycles per scenario (4 transitions each)")
	clients := flag.String("clients", "1,10,100", "WebSocket client counts")
	conc := flag.String("concurrency", "1,8,32", "GET /api/status concurrencies")
	flag.Parse()
	if err := run(*cycles, ints(*clients), ints(*conc)); err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(1)
	}
}

func run(cycles int, clients, concs []int) error {
	fmt.Printf("Event delivery latency: transition saved -> received by each /ws client (%d transitions per row)\n\n", 4*cycles)
	fmt.Printf("%-8s %-10s %-10s %-10s %-10s %-10s\n", "CLIENTS", "EVENTS", "P50", "P99", "MAX", "OVER100MS")
	for _, n := range clients {
		res, err := scenario(cycles, n, 0)
		if err != nil {
			return err
		}
		lat := res.latencies
		fmt.Printf("%-8d %-10d %-10s %-10s %-10s %-10d\n", n, len(lat), dur(pct(lat, 50)), dur(pct(lat, 99)), dur(pct(lat, 100)), over(lat, 100*time.Millisecond))
	}

	fmt.Printf("\nGET /api/status while a loop runs (1 /ws client; keep-alive connections)\n\n")
	fmt.Printf("%-12s %-10s %-10s %-10s %-10s %-18s\n", "CONCURRENCY", "REQUESTS", "REQ/S", "P50", "P99", "LOOP TRANSITIONS/S")
	base, err := scenario(cycles, 1, 0)
	if err != nil {
		return err
	}
	fmt.Printf("%-12s %-10s %-10s %-10s %-10s %-18.0f\n", "0", "-", "-", "-", "-", base.transitionsPerSec)
	for _, c := range concs {
		res, err := scenario(cycles, 1, c)
		if err != nil {
			return err
		}
		fmt.Printf("%-12d %-10d %-10.0f %-10s %-10s %-18.0f\n", c, len(res.statusLat), float64(len(res.statusLat))/res.elapsed.Seconds(),
			dur(pct(res.statusLat, 50)), dur(pct(res.statusLat, 99)), res.transitionsPerSec)
	}
	return nil
}

type result struct {
	latencies         []time.Duration
	statusLat         []time.Duration
	elapsed           time.Duration
	transitionsPerSec float64
}

// scenario runs one Manager with n WebSocket clients and conc status
// pollers through the given number of ask/answer cycles.
func scenario(cycles, n, conc int) (*result, error) {
	dir, err := os.MkdirTemp("", "smile-benchevents-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	ctx, cancel := context.WithCancel(context.Background())
	b, err := startBench(ctx, dir, cycles)
	defer func() { cancel(); b.m.Wait() }()
	if err != nil {
		return nil, err
	}
	defer b.sub.Close()
	if _, err := b.m.Apply(filepath.Join(dir, "run.yaml")); err != nil {
		return nil, err
	}
	if err := waitPhase(b.sub, status.PhaseWaitingForStudent); err != nil {
		return nil, err
	}
	obs, err := observe(ctx, b.m, n)
	if err != nil {
		return nil, err
	}
	polls := poll(b.m, conc)

	start := time.Now()
	loopErr := b.cycle(cycles)
	elapsed := time.Since(start)
	statusLat, pollErr := polls.stop()
	lat := obs.stop()
	if loopErr != nil {
		return nil, loopErr
	}
	if pollErr != nil {
		return nil, pollErr
	}
	if want := 4 * cycles * n; len(lat) < want {
		return nil, fmt.Errorf("%d clients received %d phase events, want %d", n, len(lat), want)
	}
	return &result{latencies: lat, statusLat: statusLat, elapsed: elapsed, transitionsPerSec: float64(4*cycles) / elapsed.Seconds()}, nil
}

// bench is one running Manager on the fake runtime, with the driver's own
// subscription to its events.
type bench struct {
	m   *reconcile.Manager
	rt  *fake.Runtime
	sub *events.Subscription
}

// startBench writes a vendor CLI's run into dir and starts a Manager on it.
// The returned bench's Manager is set even on error, for Wait.
func startBench(ctx context.Context, dir string, cycles int) (*bench, error) {
	// A vendor CLI's run: only their in-container wrappers post callbacks
	// (a literal run's learner runs in the controller and takes none).
	files := map[string]string{
		"tutorial.md":   tutorial,
		"run.yaml":      fmt.Sprintf("apiVersion: smile.dev/v1alpha1\nkind: SmileRun\nmetadata: {name: bench}\nspec: {llmProvider: claude, maxIterations: %d}\n", cycles+5),
		"smile-wrapper": "#!/bin/true\n",
	}
	rt := fake.New("smile-base:latest")
	m := reconcile.NewManager(reconcile.Options{Runtime: rt, WrapperPath: filepath.Join(dir, "smile-wrapper"),
		CallbackHost: "127.0.0.1", Log: logr.Discard(), ReportFallback: io.Discard})
	b := &bench{m: m, rt: rt}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			return b, err
		}
	}
	if err := m.Start(ctx); err != nil {
		return b, err
	}
	b.sub = m.Hub().Subscribe()
	return b, nil
}

// cycle drives the loop: the Student asks, the Mentor answers, next iteration.
func (b *bench) cycle(cycles int) error {
	for range cycles {
		if err := postResult(b.m, b.rt, wire.PathStudentResult, wire.StudentResultRequest{StudentOutput: status.StudentOutput{
			Status: status.StudentAskMentor, CurrentStep: "line 6: ./run.sh", Line: 6,
			QuestionForMentor: "./run.sh printed Permission denied. What is missing?",
		}}); err != nil {
			return err
		}
		if err := waitPhase(b.sub, status.PhaseWaitingForMentor); err != nil {
			return err
		}
		if err := postResult(b.m, b.rt, wire.PathMentorResult, wire.MentorResultRequest{MentorOutput: "run `chmod +x run.sh` first"}); err != nil {
			return err
		}
		if err := waitPhase(b.sub, status.PhaseWaitingForStudent); err != nil {
			return err
		}
	}
	return nil
}

// observers are n WebSocket clients on /ws, each timing the phase events it
// receives.
type observers struct {
	conns []*websocket.Conn
	wg    sync.WaitGroup
	mu    sync.Mutex
	lat   []time.Duration
}

func observe(ctx context.Context, m *reconcile.Manager, n int) (*observers, error) {
	o := &observers{}
	for i := range n {
		auth := http.Header{"Authorization": {"Bearer " + m.ControlToken()}} // reads need the controller's token
		c, _, err := websocket.DefaultDialer.DialContext(ctx, "ws://"+m.APIAddr()+"/ws", auth)
		if err != nil {
			o.stop()
			return nil, fmt.Errorf("dial client %d: %w", i, err)
		}
		o.conns = append(o.conns, c)
		o.wg.Add(1)
		go o.read(c)
	}
	return o, nil
}

func (o *observers) read(c *websocket.Conn) {
	defer o.wg.Done()
	var mine []time.Duration
	for {
		_, data, err := c.ReadMessage()
		if err != nil {
			break
		}
		got := time.Now()
		var e struct {
			Event   string `json:"event"`
			Payload struct {
				At time.Time `json:"at"`
			} `json:"payload"`
		}
		if json.Unmarshal(data, &e) == nil && e.Event == server.WSPhase {
			mine = append(mine, got.Sub(e.Payload.At))
		}
	}
	o.mu.Lock()
	o.lat = append(o.lat, mine...)
	o.mu.Unlock()
}

// stop lets the last events arrive, closes every client and returns the
// latencies they measured.
func (o *observers) stop() []time.Duration {
	time.Sleep(200 * time.Millisecond) // the last events are on their way
	for _, c := range o.conns {
		c.Close()
	}
	o.wg.Wait()
	return o.lat
}

// pollers are conc clients calling GET /api/status in a loop.
type pollers struct {
	done chan struct{}
	wg   sync.WaitGroup
	mu   sync.Mutex
	lat  []time.Duration
	err  atomic.Value
}

func poll(m *reconcile.Manager, conc int) *pollers {
	p := &pollers{done: make(chan struct{})}
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: conc + 1}}
	for range conc {
		p.wg.Add(1)
		go p.loop(m, client)
	}
	return p
}

func (p *pollers) loop(m *reconcile.Manager, client *http.Client) {
	defer p.wg.Done()
	var mine []time.Duration
	for {
		select {
		case <-p.done:
			p.mu.Lock()
			p.lat = append(p.lat, mine...)
			p.mu.Unlock()
			return
		default:
		}
		start := time.Now()
		req, _ := http.NewRequest(http.MethodGet, "http://"+m.APIAddr()+wire.PathStatus, nil)
		req.Header.Set("Authorization", "Bearer "+m.ControlToken())
		resp, err := client.Do(req)
		if err != nil {
			p.err.Store(err)
			continue
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			p.err.Store(fmt.Errorf("GET /api/status: %s", resp.Status))
		}
		mine = append(mine, time.Since(start))
	}
}

// stop ends every poller and returns their latencies and the last error.
func (p *pollers) stop() ([]time.Duration, error) {
	close(p.done)
	p.wg.Wait()
	err, _ := p.err.Load().(error)
	return p.lat, err
}

// postResult posts as the container the run waits on, with the token that
// container was given.
func postResult(m *reconcile.Manager, rt *fake.Runtime, path string, body any) error {
	run, err := m.Run("bench")
	if err != nil {
		return err
	}
	if run.Status.Attempt == nil {
		return errors.New("the run waits on no container")
	}
	data, _ := json.Marshal(body)
	req, _ := http.NewRequest(http.MethodPost, "http://"+m.CallbackAddr()+path, bytes.NewReader(data))
	cs, _ := rt.Spec(run.Status.Attempt.Container)
	token := ""
	for _, kv := range cs.Env {
		if v, ok := strings.CutPrefix(kv, wire.EnvToken+"="); ok {
			token = v
		}
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set(wire.HeaderAttempt, run.Status.Attempt.Container)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		msg, _ := io.ReadAll(resp.Body)
		return fmt.Errorf("POST %s: %s %s", path, resp.Status, msg)
	}
	return nil
}

func waitPhase(sub *events.Subscription, phase status.Phase) error {
	timeout := time.After(10 * time.Second)
	for {
		select {
		case ev := <-sub.C:
			if ev.Run != nil && ev.Run.Status.Phase == phase && ev.Action != events.ActProgress {
				return nil
			}
			if ev.Run != nil && ev.Run.Status.Phase.Terminal() {
				return fmt.Errorf("the loop ended early: %s %s", ev.Run.Status.Phase, ev.Run.Status.Message)
			}
		case <-timeout:
			return fmt.Errorf("the loop never reached %s", phase)
		}
	}
}

func pct(d []time.Duration, p int) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	i := (len(s)*p + 99) / 100
	return s[max(0, min(len(s)-1, i-1))]
}

func over(d []time.Duration, limit time.Duration) int {
	n := 0
	for _, v := range d {
		if v > limit {
			n++
		}
	}
	return n
}

func dur(d time.Duration) string {
	switch {
	case d >= time.Second:
		return fmt.Sprintf("%.2fs", d.Seconds())
	case d >= time.Millisecond:
		return fmt.Sprintf("%.2fms", float64(d)/float64(time.Millisecond))
	}
	return fmt.Sprintf("%dµs", d.Microseconds())
}

func ints(s string) []int {
	var out []int
	for _, f := range strings.Split(s, ",") {
		if n, err := strconv.Atoi(strings.TrimSpace(f)); err == nil {
			out = append(out, n)
		}
	}
	return out
}
