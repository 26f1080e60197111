package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/smile-loop/smile/spec/markdown"

	"github.com/smile-loop/smile/status/store"

	"github.com/smile-loop/smile/runtime"
	"github.com/smile-loop/smile/status"
	smilereport "github.com/smile-loop/smile/status/report"
)

// quickstartFiles are the inputs of examples/quickstart (its reports are
// outputs and are not copied).
var quickstartFiles = []string{"run.yaml", "smile.json", "tutorial.md"}

// loopRun is one `smile apply --wait` of the quickstart.
type loopRun struct {
	wall       time.Duration // the process, start to exit
	loop       time.Duration // RunStarted to LoopEnded in the report's timeline
	containers []string      // the containers the run started, by role and iteration (the engine's events)
	steps      []step        // the time between consecutive timeline events
	report     report
	tutorial   string // the copy's tutorial.md
}

// step is the time between two consecutive events of a run's timeline.
type step struct {
	name string
	d    time.Duration
}

// report is the part of smile-report.json the bench reads.
type report struct {
	Summary struct {
		Status     string `json:"status"`
		Iterations int    `json:"iterations"`
	} `json:"summary"`
	Timeline   []status.TimelineEntry `json:"timeline"`
	AuditTrail struct {
		Commands []status.AuditCommand `json:"commands"`
		Files    []status.AuditFile    `json:"files"`
	} `json:"auditTrail"`
}

// measureLoop alternates runs of the quickstart through SMILE with runs of
// the same commands through docker run, so both see the same machine load.
func measureLoop(ctx context.Context, o options) ([]row, []string, error) {
	smile := filepath.Join(o.bin, "smile")
	for _, b := range []string{smile, filepath.Join(o.bin, "smile-wrapper")} {
		if _, err := os.Stat(b); err != nil {
			return nil, nil, fmt.Errorf("%w: build it with hack/build.sh", err)
		}
	}
	token := make([]byte, 4)
	_, _ = rand.Read(token)
	label := "smile.dev/bench=" + hex.EncodeToString(token)
	defer removeContainers(label)

	var smileWall, loopTime, dockerWall, perContainer []time.Duration
	var ratios []float64
	var order []string
	stepTimes := map[string][]time.Duration{}
	var script, expected string
	var containers []string
	var notes []string
	for i := range o.runs {
		progress("quickstart run %d/%d: smile apply --wait", i+1, o.runs)
		lr, leftover, err := applyQuickstart(ctx, o, smile)
		if err != nil {
			return nil, nil, err
		}
		if leftover > 0 {
			notes = append(notes, fmt.Sprintf("BUG: run %d left %d container(s) behind (removed by the bench).", i+1, leftover))
		}
		if script == "" {
			if script, expected, err = replayScript(lr); err != nil {
				return nil, nil, err
			}
			containers = lr.containers
			progress("docker run script (iteration 2 of the report):\n%s", script)
		}
		progress("quickstart run %d/%d: docker run", i+1, o.runs)
		d, err := dockerRun(ctx, o.image, label, script, expected)
		if err != nil {
			return nil, nil, err
		}
		for _, st := range lr.steps {
			if _, seen := stepTimes[st.name]; !seen {
				order = append(order, st.name)
			}
			stepTimes[st.name] = append(stepTimes[st.name], st.d)
		}
		smileWall = append(smileWall, lr.wall)
		loopTime = append(loopTime, lr.loop)
		dockerWall = append(dockerWall, d)
		ratios = append(ratios, float64(lr.wall)/float64(d))
		perContainer = append(perContainer, (lr.wall-d)/time.Duration(len(lr.containers)))
	}
	rows := []row{
		durationRow("quickstart, one literal run: `smile apply --wait` (wall)", smileWall, 0),
		durationRow("... of which the loop: RunStarted → LoopEnded", loopTime, 0),
		durationRow("same commands: `docker run --rm --init` of iteration 2 (wall)", dockerWall, 0),
		ratioRow("loop overhead: smile wall / docker run wall (paired)", ratios),
		durationRow(fmt.Sprintf("overhead per container started: (smile − docker run) / %d", len(containers)), perContainer, 0),
	}
	notes = append(notes, fmt.Sprintf("Quickstart: each `smile apply -f run.yaml --wait --fail-on none` ran in a fresh copy of examples/quickstart "+
		"and completed in 2 iterations, starting %d containers (the first run's, from the engine's events: %s); each was followed by one `docker run` "+
		"of the commands and file writes of iteration 2 (the successful one) as one bash script, and the pairs give the ratio "+
		"and the overhead per container.", len(containers), strings.Join(containers, ", ")))
	var parts []string
	for _, name := range order {
		parts = append(parts, fmt.Sprintf("%s %s", name, dur(summarize(stepTimes[name]).p50)))
	}
	notes = append(notes, "Where the loop's time goes (p50 between consecutive timeline events, iteration in brackets): "+strings.Join(parts, "; ")+".")
	return rows, notes, nil
}

// applyQuickstart runs the quickstart once in a fresh copy and checks that
// it completed as the README says. It returns how many containers the run
// left behind (and removes them).
func applyQuickstart(ctx context.Context, o options, smile string) (loopRun, int, error) {
	var lr loopRun
	dir, err := os.MkdirTemp("", "smile-bench-quickstart-")
	if err != nil {
		return lr, 0, err
	}
	defer os.RemoveAll(dir)
	for _, f := range quickstartFiles {
		data, err := os.ReadFile(filepath.Join(o.repo, "examples", "quickstart", f))
		if err != nil {
			return lr, 0, err
		}
		if err := os.WriteFile(filepath.Join(dir, f), data, 0o644); err != nil {
			return lr, 0, err
		}
	}
	cmd := exec.CommandContext(ctx, smile, "apply", "-f", "run.yaml", "--wait", "--fail-on", "none")
	cmd.Dir = dir
	interruptOnCancel(cmd)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err = cmd.Run()
	lr.wall = time.Since(start)
	leftover, instance := 0, ""
	own := filepath.Join(dir, store.HomeDir, "runs", "quickstart") // the run's own folder in its workspace
	if run, lerr := store.Load(filepath.Join(own, "state.json")); lerr == nil && run.Status.Instance != "" {
		instance = run.Status.Instance
		leftover = removeContainers(runtime.LabelInstance + "=" + instance)
	}
	if err != nil {
		os.Stderr.Write(out.Bytes())
		return lr, leftover, fmt.Errorf("smile apply in %s: %w", dir, err)
	}
	data, err := os.ReadFile(filepath.Join(own, "smile-report.json"))
	if err != nil {
		return lr, leftover, err
	}
	if err := json.Unmarshal(data, &lr.report); err != nil {
		return lr, leftover, fmt.Errorf("read smile-report.json: %w", err)
	}
	if s := lr.report.Summary; s.Status != smilereport.ReportCompleted || s.Iterations != 2 {
		os.Stderr.Write(out.Bytes())
		return lr, leftover, fmt.Errorf("the quickstart ended %s after %d iteration(s), not completed after 2", s.Status, s.Iterations)
	}
	var started, ended time.Time
	for _, e := range lr.report.Timeline {
		switch e.Event {
		case "RunStarted":
			started = e.Timestamp
		case "LoopEnded":
			ended = e.Timestamp
		}
	}
	if lr.containers, err = startedContainers(ctx, instance, start, time.Now()); err != nil {
		return lr, leftover, err
	}
	for i := 1; i < len(lr.report.Timeline); i++ {
		prev, e := lr.report.Timeline[i-1], lr.report.Timeline[i]
		lr.steps = append(lr.steps, step{fmt.Sprintf("%s → %s [%d]", prev.Event, e.Event, e.Iteration), e.Timestamp.Sub(prev.Timestamp)})
	}
	if started.IsZero() || ended.IsZero() || len(lr.containers) == 0 {
		return lr, leftover, errors.New("smile-report.json: the timeline lacks RunStarted, LoopEnded or any container start")
	}
	lr.loop = ended.Sub(started)
	tut, err := os.ReadFile(filepath.Join(dir, "tutorial.md"))
	lr.tutorial = string(tut)
	return lr, leftover, err
}

// replayScript turns iteration 2 of a run's audit trail into one bash
// script: its commands and its file writes in the order they happened, with
// each file's content taken from the tutorial's block at the audited line.
// expected is what the commands printed, concatenated.
func replayScript(lr loopRun) (script, expected string, err error) {
	doc := markdown.ParseMarkdown([]byte(lr.tutorial))
	type action struct {
		at   time.Time
		text string
	}
	var steps []action
	for _, c := range lr.report.AuditTrail.Commands {
		if c.Iteration != 2 {
			continue
		}
		if c.ExitCode != 0 {
			return "", "", fmt.Errorf("iteration 2 ran %q with exit code %d: not a successful iteration", c.Command, c.ExitCode)
		}
		steps = append(steps, action{c.StartedAt, c.Command})
		expected += c.Output
	}
	for _, f := range lr.report.AuditTrail.Files {
		if f.Iteration != 2 {
			continue
		}
		i := slices.IndexFunc(doc.Blocks, func(b markdown.Block) bool { return b.Kind == markdown.BlockCode && b.Line == f.Line })
		if i < 0 || len(doc.Blocks[i].Text) != f.Bytes {
			return "", "", fmt.Errorf("no code block of %d bytes at line %d for the file %s", f.Bytes, f.Line, f.Path)
		}
		path := f.Path
		if !filepath.IsAbs(path) {
			path = "/workspace/work/" + path
		}
		redirect := ">"
		if f.Action == "append" {
			redirect = ">>"
		}
		steps = append(steps, action{f.WrittenAt, fmt.Sprintf("mkdir -p %s && printf '%%s' %s %s %s",
			shellQuote(filepath.Dir(path)), shellQuote(doc.Blocks[i].Text), redirect, shellQuote(path))})
	}
	if len(steps) == 0 {
		return "", "", errors.New("the report's audit trail has no command of iteration 2")
	}
	slices.SortStableFunc(steps, func(a, b action) int { return a.at.Compare(b.at) })
	var b strings.Builder
	b.WriteString("set -e\ncd /workspace/work\n")
	for _, s := range steps {
		b.WriteString(s.text + "\n")
	}
	return b.String(), expected, nil
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// dockerRun times one `docker run --rm --init` of the script and checks it
// printed what the Student saw.
func dockerRun(ctx context.Context, image, label, script, expected string) (time.Duration, error) {
	cmd := exec.CommandContext(ctx, "docker", "run", "--rm", "--init", "--label", label, image, "bash", "-c", script)
	interruptOnCancel(cmd)
	start := time.Now()
	out, err := cmd.CombinedOutput()
	d := time.Since(start)
	if err != nil {
		return d, fmt.Errorf("docker run: %w: %s", err, out)
	}
	if string(out) != expected {
		return d, fmt.Errorf("docker run printed %q, the Student saw %q", out, expected)
	}
	return d, nil
}

// startedContainers asks the engine which containers the controller
// instance started between since and until: iteration and role of each
// (i1-student).
func startedContainers(ctx context.Context, instance string, since, until time.Time) ([]string, error) {
	stamp := func(t time.Time) string { return fmt.Sprintf("%d.%09d", t.Unix(), t.Nanosecond()) }
	out, err := exec.CommandContext(ctx, "docker", "events", "--since", stamp(since), "--until", stamp(until.Add(time.Second)),
		"--filter", "type=container", "--filter", "event=start", "--filter", "label="+runtime.LabelInstance+"="+instance,
		"--format", `{{index .Actor.Attributes "name"}}`).Output()
	if err != nil {
		return nil, fmt.Errorf("docker events: %w", err)
	}
	var names []string
	for _, name := range strings.Fields(string(out)) {
		if i := strings.LastIndex(name, "-i"); i >= 0 {
			name = name[i+1:] // smile-quickstart-<key>-g1-i1-student
		}
		names = append(names, name)
	}
	slices.Sort(names) // some start side by side
	return names, nil
}

// removeContainers force-removes the containers matching a label filter and
// returns how many there were.
func removeContainers(filter string) int {
	out, err := exec.Command("docker", "ps", "-aq", "--filter", "label="+filter).Output()
	if err != nil {
		return 0
	}
	ids := strings.Fields(string(out))
	if len(ids) > 0 {
		_ = exec.Command("docker", append([]string{"rm", "-f"}, ids...)...).Run()
	}
	return len(ids)
}

// ratioRow summarises ratios (no limit).
func ratioRow(measure string, ratios []float64) row {
	s := slices.Clone(ratios)
	slices.Sort(s)
	ds := make([]time.Duration, len(s))
	for i, r := range s {
		ds[i] = time.Duration(r * 1e6) // summarize works on durations: keep 6 digits
	}
	sum := summarize(ds)
	x := func(d time.Duration) string { return fmt.Sprintf("×%.2f", float64(d)/1e6) }
	return row{measure: measure, n: fmt.Sprint(len(s)), p50: x(sum.p50), p95: x(sum.p95),
		mean: x(sum.mean) + " ± " + fmt.Sprintf("%.2f", float64(sum.sd)/1e6), limit: "-", share: "-"}
}
