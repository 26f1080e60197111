// Package progress shows a run's progress on a terminal (one updating line)
// or in a log (one line an event), for one run or several at once.
package progress

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	hub "github.com/smile-loop/smile/reconcile/events"
	"github.com/smile-loop/smile/status"
)

// progressPrinter shows where a run is on stderr: one line that updates in
// place on a terminal; on anything else (CI logs) a plain line per event.
type Printer struct {
	mu       sync.Mutex
	w        io.Writer
	tty      bool
	started  time.Time
	timeline int
	gen      int64
	step     string
	width    int
	open     bool
}

func New(w io.Writer) *Printer {
	return &Printer{w: w, tty: isTerminal(w), started: time.Now()}
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// update shows the run's latest state; step is what the attempt last said
// it was doing ("" when unknown or unchanged).
func (p *Printer) Update(run *status.Run, step string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	st := run.Status
	if st.ObservedGeneration != p.gen || len(st.Timeline) < p.timeline {
		p.timeline = 0 // a new generation started over
		p.gen = st.ObservedGeneration
	}
	newEvents := st.Timeline[p.timeline:]
	p.timeline = len(st.Timeline)
	// A step belongs to an attempt: in a log, it waits until the status
	// shows that attempt (its start event printed first), since the step
	// may be read before the status that records its attempt.
	if step != "" && step != p.step && (p.tty || st.Attempt != nil) {
		p.step = step
	} else {
		step = ""
	}
	if !p.tty {
		for _, e := range newEvents {
			fmt.Fprintf(p.w, "%s  iteration %d  %-16s %s\n", e.Timestamp.Local().Format("15:04:05"), e.Iteration, e.Event, e.Details)
		}
		if step != "" {
			fmt.Fprintf(p.w, "%s  iteration %d  %-16s %s\n", time.Now().Format("15:04:05"), st.Iteration, "Step", step)
		}
		return
	}
	if len(newEvents) > 0 && st.Phase.Terminal() {
		p.step = ""
	}
	line := fmt.Sprintf("[%s] %s: %s, iteration %d", time.Since(p.started).Round(time.Second), run.Metadata.Name, st.Phase, st.Iteration)
	if p.step != "" && !st.Phase.Terminal() {
		line += ", " + p.step
	}
	if len(line) > 120 {
		line = line[:117] + "..."
	}
	fmt.Fprintf(p.w, "\r%s%s", line, strings.Repeat(" ", max(0, p.width-len(line))))
	p.width, p.open = len(line), true
}

// done ends the updating line.
func (p *Printer) Done() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.tty && p.open {
		fmt.Fprintln(p.w)
		p.open = false
	}
}

// Multi is one progress display for several runs: a progress
// printer per run, its lines prefixed with the run's name when there are
// several. On a terminal each run's updating line is printed as a plain line
// when it changes, so lines of different runs never overwrite each other.
type Multi struct {
	mu       sync.Mutex
	w        io.Writer
	prefixed bool
	runs     map[string]*Printer
	bufs     map[string]*prefixWriter
}

func NewMulti(w io.Writer, prefixed bool) *Multi {
	return &Multi{w: w, prefixed: prefixed, runs: map[string]*Printer{}, bufs: map[string]*prefixWriter{}}
}

func (m *Multi) Update(run *status.Run, step string) {
	m.mu.Lock()
	name := run.Metadata.Name
	p, ok := m.runs[name]
	if !ok {
		if m.prefixed {
			pw := &prefixWriter{w: m.w, prefix: name + " | "}
			p = &Printer{w: pw, started: New(m.w).started} // plain lines: never a shared updating line
			m.bufs[name] = pw
		} else {
			p = New(m.w)
		}
		m.runs[name] = p
	}
	m.mu.Unlock()
	p.Update(run, step)
}

func (m *Multi) Done() {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, p := range m.runs {
		p.Done()
	}
}

// prefixWriter puts a prefix before every line written through it.
type prefixWriter struct {
	mu      sync.Mutex
	w       io.Writer
	prefix  string
	midLine bool
}

func (p *prefixWriter) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out strings.Builder
	for _, line := range strings.SplitAfter(string(b), "\n") {
		if line == "" {
			continue
		}
		if !p.midLine {
			out.WriteString(p.prefix)
		}
		out.WriteString(line)
		p.midLine = !strings.HasSuffix(line, "\n")
	}
	if _, err := io.WriteString(p.w, out.String()); err != nil {
		return 0, err
	}
	return len(b), nil
}

// Follow shows the run's events as they come; the function it returns
// prints what was published until then and stops.
func Follow(sub *hub.Subscription, name string, progress *Printer) (flush func()) {
	show := func(ev hub.Event) {
		if ev.Run.Metadata.Name != name {
			return
		}
		step := ""
		if ev.Progress != nil {
			step = ev.Progress.Step
		}
		progress.Update(ev.Run, step)
	}
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case ev := <-sub.C:
				show(ev)
			case <-stop:
				for {
					select {
					case ev := <-sub.C:
						show(ev)
					default:
						return
					}
				}
			}
		}
	}()
	return func() { close(stop); <-done }
}
