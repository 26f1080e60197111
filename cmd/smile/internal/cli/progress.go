package cli

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/smile-loop/smile/status"
)

// progressPrinter shows where a run is on stderr: one line that updates in
// place on a terminal; on anything else (CI logs) a plain line per event.
type progressPrinter struct {
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

func newProgressPrinter(w io.Writer) *progressPrinter {
	return &progressPrinter{w: w, tty: isTerminal(w), started: time.Now()}
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
func (p *progressPrinter) update(run *status.Run, step string) {
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
func (p *progressPrinter) done() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.tty && p.open {
		fmt.Fprintln(p.w)
		p.open = false
	}
}
