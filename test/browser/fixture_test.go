package browser_test

import (
	"context"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/smile-loop/smile/reconcile/events"
	"github.com/smile-loop/smile/reconcile/server"
	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/spec/markdown"
	"github.com/smile-loop/smile/status"
)

// tutorial is the page every fixture run tests. Its code blocks start at
// lines 5, 11, 17, 24 and 31.
const tutorial = "# Deploy the greeter\n" + // 1
	"\n" +
	"Install the tools:\n" + // 3
	"\n" +
	"```bash\n" + // 5
	"apt-get install -y jq\n" +
	"```\n" +
	"\n" +
	"On macOS, use Homebrew:\n" + // 9
	"\n" +
	"```bash\n" + // 11
	"brew install jq\n" +
	"```\n" +
	"\n" +
	"Write `greet.sh`:\n" + // 15
	"\n" +
	"```bash\n" + // 17
	"#!/bin/sh\n" +
	"echo \"hello, $1\"\n" +
	"```\n" +
	"\n" +
	"Run it:\n" + // 22
	"\n" +
	"```console\n" + // 24
	"$ ./greet.sh world\n" + // 25
	"hello, world\n" +
	"```\n" +
	"\n" +
	"Then deploy it <script>window.__pwned = 1</script><img src=x onerror=\"window.__pwned = 2\">:\n" + // 29
	"\n" +
	"```bash\n" + // 31
	"./deploy.sh\n" +
	"```\n"

var blocks = []status.BlockCoverage{
	{Line: 5, EndLine: 7, Lines: 1, Outcome: status.OutcomeRun, Covered: 1},
	{Line: 11, EndLine: 13, Lines: 1, Outcome: status.OutcomeSkipped, Reason: "for macOS"},
	{Line: 17, EndLine: 20, Lines: 2, Outcome: status.OutcomeWritten, Covered: 2},
	{Line: 24, EndLine: 27, Lines: 2, Outcome: status.OutcomeRun, Covered: 2},
	{Line: 31, EndLine: 33, Lines: 1, Outcome: status.OutcomeRun, Covered: 1},
}

// fixture is a controller's server.Backend with runs whose status the test
// sets: the dashboard sees them as it sees a real controller's.
type fixture struct {
	hub events.Hub

	mu       sync.Mutex
	runs     map[string]*status.Run
	audits   map[string][]status.Audit
	progress map[string]*events.Progress
	stopped  []string
	reruns   []string
}

func newFixture(runs ...*status.Run) *fixture {
	f := &fixture{runs: map[string]*status.Run{}, audits: map[string][]status.Audit{}, progress: map[string]*events.Progress{}}
	for _, r := range runs {
		r.SetConditions(time.Now())
		f.runs[r.Metadata.Name] = r
	}
	return f
}

// serve starts the loopback API on 127.0.0.1 and returns the dashboard's
// one-time URL for path.
func (f *fixture) serve(t *testing.T, path string) string {
	t.Helper()
	srv := server.New(f, "control-token")
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := &http.Server{Handler: srv.Handler(), ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = hs.Serve(l) }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = hs.Shutdown(ctx)
	})
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	return "http://" + l.Addr().String() + path + sep + server.TokenParam + "=" + srv.DashboardLogin()
}

// set replaces a run's status and publishes the transition.
func (f *fixture) set(run *status.Run) {
	run.SetConditions(time.Now())
	f.mu.Lock()
	f.runs[run.Metadata.Name] = run
	f.mu.Unlock()
	f.hub.Publish(events.Event{Run: run, Action: "Test", At: time.Now()})
}

// say publishes what a run's attempt is doing now.
func (f *fixture) say(name string, p *events.Progress) {
	f.mu.Lock()
	f.progress[name] = p
	run := f.runs[name]
	f.mu.Unlock()
	f.hub.Publish(events.Event{Run: run, Action: events.ActProgress, At: p.At, Progress: p})
}

func (f *fixture) Names() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var names []string
	for n := range f.runs {
		names = append(names, n)
	}
	return names
}

func (f *fixture) Known(name string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	_, ok := f.runs[name]
	return ok
}

func (f *fixture) Run(name string) (*status.Run, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if r, ok := f.runs[name]; ok {
		return r, nil
	}
	return nil, status.UnknownRun(name)
}

func (f *fixture) LastError(string) error { return nil }

func (f *fixture) Desired(name string) (*spec.Desired, error) {
	// Parsed as the loader parses it: the dashboard reads its blocks.
	d := &spec.Desired{Name: name, Dir: "/docs", Tutorial: &spec.Tutorial{Path: "/docs/greeter.md", Content: tutorial,
		Blocks: markdown.ParseMarkdown([]byte(tutorial)).Blocks}}
	d.Paths.Tutorial = "/docs/greeter.md"
	d.Config.MaxIterations = 5
	return d, nil
}

func (f *fixture) Progress(name, _ string) (*events.Progress, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.progress[name], nil
}

func (f *fixture) Subscribe() *events.Subscription { return f.hub.Subscribe() }

func (f *fixture) Audits(name string) ([]status.Audit, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.audits[name], nil
}

func (f *fixture) Apply(server.ApplyRequest) (any, error) { return nil, nil }
func (f *fixture) Delete(context.Context, string) error   { return nil }
func (f *fixture) WaitFinished(context.Context, string) (*status.Run, error) {
	return nil, context.Canceled
}

func (f *fixture) Rerun(name string) (any, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reruns = append(f.reruns, name)
	return map[string]string{"name": name, "outcome": "configured"}, nil
}

func (f *fixture) RequestStop(name, _ string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.stopped = append(f.stopped, name)
	return nil
}

func (f *fixture) actions() (stopped, reruns []string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.stopped), slices.Clone(f.reruns)
}

func (f *fixture) AttemptToken(string) (server.AttemptToken, bool) {
	return server.AttemptToken{}, false
}
func (f *fixture) BrainRun(string) bool                              { return true }
func (f *fixture) ExpectedAttempt(*status.Run) (string, status.Role) { return "", "" }
func (f *fixture) PutResult(string, *server.Result) (bool, error)    { return false, nil }
func (f *fixture) PutProgress(string, string, *events.Progress) error {
	return nil
}
