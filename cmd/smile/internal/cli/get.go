package cli

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/smile-loop/smile/cmd/smile/internal/ctlclient"
	"github.com/smile-loop/smile/cmd/smile/internal/kubectlfmt"
	"github.com/smile-loop/smile/cmd/smile/internal/progress"
	"github.com/smile-loop/smile/status/store"

	"github.com/smile-loop/smile/spec/runfile"

	"github.com/spf13/cobra"

	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/status"
)

type getOptions struct {
	output    string
	noHeaders bool
	dir       string
	watch     bool
}

func newGetCommand(streams Streams) *cobra.Command {
	o := &getOptions{}
	cmd := &cobra.Command{
		Use:   "get [NAME]",
		Short: "Show the status of the runs of this workspace (from any folder inside it)",
		Example: `  smile get
  smile get quickstart -o yaml`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			if ctx == nil {
				ctx = context.Background()
			}
			return o.run(ctx, streams, args)
		},
	}
	cmd.Flags().StringVarP(&o.output, "output", "o", "", "output format: wide, yaml, json or name")
	cmd.Flags().BoolVar(&o.noHeaders, "no-headers", false, "do not print the table's header")
	workspaceFlag(cmd, &o.dir)
	cmd.Flags().BoolVarP(&o.watch, "watch", "w", false, "after listing, print a run again each time it changes (sampled twice a second: a phase shorter than that may not show; `smile logs -f` shows every transition)")
	return cmd
}

func (o *getOptions) run(ctx context.Context, streams Streams, args []string) error {
	switch o.output {
	case "", "wide", "yaml", "json", "name":
	default:
		return fmt.Errorf("unknown output format %q: use wide, yaml, json or name", o.output)
	}
	objs, err := loadObjects(o.dir, args)
	if err != nil {
		return err
	}
	if c, err := ctlclient.Find(o.dir); err == nil && (o.output == "" || o.output == "wide") {
		fmt.Fprintf(streams.ErrOut, "dashboard: %s\n", c.DashboardURL())
	}
	if len(objs) == 0 && !o.watch {
		fmt.Fprintln(streams.ErrOut, "No resources found")
		return nil
	}
	if len(objs) > 0 {
		if err := printObjects(streams.Out, objs, o.output, o.noHeaders, time.Now()); err != nil {
			return err
		}
	}
	if !o.watch {
		return nil
	}
	return o.watchObjects(ctx, streams, args, objs)
}

// watchObjects prints a run again whenever what get shows of it changes (a
// phase, an iteration, a gap), the way kubectl get --watch does, with a
// single updating progress line on stderr for the current step.
func (o *getOptions) watchObjects(ctx context.Context, streams Streams, args []string, objs []Object) error {
	last := map[string]string{}
	widths := columnWidths(tableRows(objs, o.output == "wide", time.Now()), objs)
	for _, obj := range objs {
		last[obj.Metadata.Name] = rowKey(obj)
	}
	prog := progress.New(streams.ErrOut)
	defer prog.Done()
	steps := map[string]string{}
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(500 * time.Millisecond):
		}
		objs, err := loadObjects(o.dir, args)
		if err != nil {
			return err
		}
		// The current step comes from the folder's controller, when one runs.
		c, _ := ctlclient.Find(o.dir)
		for _, obj := range objs {
			name := obj.Metadata.Name
			step := ""
			if c != nil && obj.Status != nil && !obj.Status.Phase.Terminal() {
				step = c.Progress(ctx, name)
			}
			key := rowKey(obj)
			if last[name] == key && steps[name] == step {
				continue
			}
			if last[name] != key {
				prog.Done()
				if err := o.printWatchRow(streams.Out, obj, widths); err != nil {
					return err
				}
			}
			last[name], steps[name] = key, step
			if obj.Status != nil && o.output != "name" {
				prog.Update(&status.Run{Metadata: status.Metadata{Name: name}, Status: *obj.Status}, step)
			}
		}
	}
}

// printWatchRow prints one run again: a table row aligned with the header
// printed first, or the object in the chosen format.
func (o *getOptions) printWatchRow(w io.Writer, obj Object, widths []int) error {
	if o.output != "" && o.output != "wide" {
		return printObjects(w, []Object{obj}, o.output, true, time.Now())
	}
	row := tableRows([]Object{obj}, o.output == "wide", time.Now())[1]
	for i, c := range row {
		widths[i] = max(widths[i], len(c)) // a longer cell widens the column from here on
	}
	return writeTable(w, [][]string{row}, widths)
}

// rowKey is what a watch compares: the state a row shows, without its age.
func rowKey(o Object) string {
	if o.Status == nil {
		return "pending"
	}
	st := o.Status
	return fmt.Sprintf("%s/%d/%d/%d/%s", st.Phase, st.Iteration, len(st.Gaps), st.ObservedGeneration, st.Reason)
}

// Object is a run as `get -o yaml|json` prints it: the manifest's spec with
// the controller's status.
type Object struct {
	APIVersion string         `json:"apiVersion"`
	Kind       string         `json:"kind"`
	Metadata   ObjectMeta     `json:"metadata"`
	Spec       map[string]any `json:"spec,omitempty"`
	Status     *status.Status `json:"status,omitempty"`
	// settings are the settings in force with their sources (describe).
	settings []spec.Setting
	// folder is the manifest's folder relative to the workspace ("." at its
	// root): `get -o wide`'s FOLDER, as kubectl's NAMESPACE.
	folder string
}

// ObjectMeta is the metadata `get` prints.
type ObjectMeta struct {
	Name              string            `json:"name"`
	UID               string            `json:"uid,omitempty"`
	Generation        int64             `json:"generation,omitempty"`
	CreationTimestamp *time.Time        `json:"creationTimestamp,omitempty"`
	Labels            map[string]string `json:"labels,omitempty"`
	Annotations       map[string]string `json:"annotations,omitempty"`
}

// loadObjects reads the runs of the workspace dir (all, or the one named).
func loadObjects(dir string, names []string) ([]Object, error) {
	reg := store.Registry{Dir: dir}
	var recs []store.Record
	if len(names) == 1 {
		rec, err := reg.Get(names[0])
		if errors.Is(err, store.ErrNotFound) {
			return nil, fmt.Errorf("smilerun %q not found", names[0])
		}
		if err != nil {
			return nil, err
		}
		recs = []store.Record{rec}
	} else {
		var err error
		if recs, err = reg.List(); err != nil {
			return nil, err
		}
	}
	objs := make([]Object, 0, len(recs))
	for _, rec := range recs {
		obj := objectOf(rec)
		obj.folder = "-"
		if rel, err := filepath.Rel(dir, filepath.Dir(rec.Manifest)); err == nil && filepath.IsLocal(rel) {
			obj.folder = filepath.ToSlash(rel)
		}
		objs = append(objs, obj)
	}
	return objs, nil
}

func objectOf(rec store.Record) Object {
	obj := Object{APIVersion: spec.APIVersion, Kind: spec.Kind, Metadata: ObjectMeta{Name: rec.Name}}
	if m, err := runfile.LoadNamed(rec.Manifest, rec.Name); err == nil {
		obj.Spec = m.Spec
		obj.Metadata.Labels, obj.Metadata.Annotations = m.Metadata.Labels, m.Metadata.Annotations
		obj.settings, _ = m.Settings(filepath.Dir(rec.Manifest))
	}
	if run, err := store.Load(rec.StateFile); err == nil && run.Metadata.Name == rec.Name {
		st := run.Status
		st.Token = "" // a credential, not status
		obj.Status = &st
		obj.Metadata.UID = run.Metadata.UID
		obj.Metadata.Generation = run.Metadata.Generation
		ct := run.Metadata.CreationTimestamp
		obj.Metadata.CreationTimestamp = &ct
	}
	return obj
}

func printObjects(w io.Writer, objs []Object, format string, noHeaders bool, now time.Time) error {
	switch format {
	case "name":
		for _, o := range objs {
			fmt.Fprintf(w, "%s/%s\n", spec.Resource, o.Metadata.Name)
		}
		return nil
	case "json":
		var v any = objs[0]
		if len(objs) > 1 {
			v = map[string]any{"apiVersion": "v1", "kind": "List", "items": objs}
		}
		data, err := json.MarshalIndent(v, "", "    ")
		if err != nil {
			return err
		}
		_, err = fmt.Fprintln(w, string(data))
		return err
	case "yaml":
		var v any = objs[0]
		if len(objs) > 1 {
			v = map[string]any{"apiVersion": "v1", "kind": "List", "items": objs}
		}
		js, err := json.Marshal(v)
		if err != nil {
			return err
		}
		data, err := runfile.JSONToYAML(js)
		if err != nil {
			return err
		}
		_, err = w.Write(data)
		return err
	}
	rows := tableRows(objs, format == "wide", now)
	if noHeaders {
		rows = rows[1:]
	}
	return writeTable(w, rows, columnWidths(rows, objs))
}

// tableRows are get's table: the header, then one row per run.
func tableRows(objs []Object, wide bool, now time.Time) [][]string {
	header := []string{"NAME", "PHASE", "RESULT", "ITERATION", "GAPS", "COVERAGE", "AGE"}
	if wide {
		header = append(header, "FOLDER", "PROVIDER", "TUTORIAL", "COST", "REASON", "REPORT")
	}
	rows := [][]string{header}
	for _, o := range objs {
		phase, result, iteration, gaps, coverage, age := "Pending", "-", "0", "0", "-", "<unknown>"
		reason, report, cost := "", "", ""
		if st := o.Status; st != nil {
			phase, iteration, gaps = cmp.Or(string(st.Phase), phase), strconv.Itoa(st.Iteration), strconv.Itoa(len(st.Gaps)) // no phase before the first transition: Pending
			reason = string(st.Reason)
			result = resultCell(st)
			coverage = st.RunCoverage().Cell() // "9/14": code blocks exercised of the page's; "-" unknown
			cost = costCell(st.Cost)
			if st.Report != nil {
				report = st.Report.Markdown
			}
		}
		if o.Metadata.CreationTimestamp != nil {
			age = kubectlfmt.Age(now.Sub(*o.Metadata.CreationTimestamp))
		}
		row := []string{o.Metadata.Name, phase, result, iteration, gaps, coverage, age}
		if wide {
			provider, tutorial := o.inForce("llmProvider"), o.inForce("tutorial")
			row = append(row, dash(o.folder), dash(provider), dash(tutorial), dash(cost), dash(reason), dash(report))
		}
		rows = append(rows, row)
	}
	return rows
}

// inForce is the value of a setting of the run as it is in force, from the
// manifest, smile.json or the default (not the manifest's spec alone: a
// provider set in smile.json is still the run's provider); "" when unknown.
func (o Object) inForce(path string) string {
	for _, s := range o.settings {
		if s.Path == path {
			var v string
			if json.Unmarshal([]byte(s.Value), &v) == nil {
				return v
			}
			return s.Value
		}
	}
	v, _ := o.Spec[path].(string)
	return v
}

// minWidths are the widths the narrow columns always get, whatever the rows
// hold, so that rows printed later by --watch line up with the header
// printed first: the longest phase, the longest result, and so on.
var minWidths = []int{len("NAME"), len(status.PhaseWaitingForStudent), len(status.PhaseMaxIterations), len("ITERATION"), len("GAPS"), len("COVERAGE"), len("10h10m")}

// columnWidths is each column's width: its longest cell, at least minWidths,
// and for NAME at least the longest run name known.
func columnWidths(rows [][]string, objs []Object) []int {
	widths := make([]int, len(rows[0]))
	copy(widths, minWidths)
	for _, o := range objs {
		widths[0] = max(widths[0], len(o.Metadata.Name))
	}
	for _, r := range rows {
		for i, c := range r {
			widths[i] = max(widths[i], len(c))
		}
	}
	return widths
}

// writeTable pads every cell but the last to its column's width, with three
// spaces between columns, as kubectl does.
func writeTable(w io.Writer, rows [][]string, widths []int) error {
	var b strings.Builder
	for _, r := range rows {
		for i, c := range r {
			if i == len(r)-1 {
				b.WriteString(c)
				break
			}
			b.WriteString(c)
			b.WriteString(strings.Repeat(" ", widths[i]-len(c)+3))
		}
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// resultCell is what a finished run means for its tutorial, read from the
// Succeeded condition: Passed, GapsFound, Inconclusive (it exercised too
// little of the page), or why the loop ended (Blocker, Timeout, Stopped...);
// "-" while the loop runs.
func resultCell(st *status.Status) string {
	c := st.Condition(status.ConditionSucceeded)
	switch {
	case !st.Phase.Terminal() || c == nil:
		return "-"
	case c.Status == status.ConditionTrue:
		return "Passed"
	}
	return dash(string(c.Reason))
}

// costCell is a run's LLM cost in one table cell: $0.1234, ~$0.1234 when
// estimated from prices, ? when no call had a price.
func costCell(c *status.Cost) string {
	switch {
	case c == nil || c.Calls == 0:
		return ""
	case c.Unpriced == c.Calls:
		return "?"
	case c.Estimated || c.Unpriced > 0:
		return fmt.Sprintf("~$%.4f", c.USD)
	}
	return fmt.Sprintf("$%.4f", c.USD)
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
