package cli

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/smile-loop/smile/cmd/smile/internal/kubectlfmt"
	"github.com/smile-loop/smile/internal/textutil"
	"github.com/smile-loop/smile/reconcile/checkpoints"
	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/status"
)

func newDescribeCommand(streams Streams) *cobra.Command {
	var dir string
	cmd := &cobra.Command{
		Use:     "describe NAME",
		Short:   "Show a run in detail: spec, status, conditions, gaps and events",
		Example: "  smile describe quickstart",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			objs, err := loadObjects(dir, args)
			if err != nil {
				return err
			}
			describe(streams.Out, objs[0], time.Now())
			return nil
		},
	}
	workspaceFlag(cmd, &dir)
	return cmd
}

// describe prints a run the way kubectl describe does: Title Case keys,
// two-space nesting, a conditions table, then events.
func describe(w io.Writer, o Object, now time.Time) {
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	defer tw.Flush()
	kv := func(indent int, key string, value any) {
		fmt.Fprintf(tw, "%s%s:\t%v\n", strings.Repeat("  ", indent), key, value)
	}
	kv(0, "Name", o.Metadata.Name)
	kv(0, "API Version", o.APIVersion)
	kv(0, "Kind", o.Kind)
	if o.Metadata.CreationTimestamp != nil {
		kv(0, "Created", fmt.Sprintf("%s (%s ago)", o.Metadata.CreationTimestamp.Local().Format(time.RFC3339), kubectlfmt.Age(now.Sub(*o.Metadata.CreationTimestamp))))
	}
	kv(0, "Generation", o.Metadata.Generation)
	fmt.Fprintln(tw, "Spec:")
	kubectlfmt.Map(tw, 1, o.Spec)

	st := o.Status
	if st == nil {
		fmt.Fprintln(tw, "Status:\t<none yet>")
		return
	}
	describeStatus(tw, st)
	tw.Flush()

	fmt.Fprintln(w, "Conditions:")
	ct := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	fmt.Fprintln(ct, "  Type\tStatus\tReason\tLast Transition\tMessage")
	fmt.Fprintln(ct, "  ----\t------\t------\t---------------\t-------")
	for _, c := range st.Conditions {
		fmt.Fprintf(ct, "  %s\t%s\t%s\t%s ago\t%s\n", c.Type, c.Status, c.Reason, kubectlfmt.Age(now.Sub(c.LastTransitionTime)), c.Message)
	}
	ct.Flush()

	describeSettings(w, o.settings)
	describeFindings(w, st, now)
}

// describeStatus prints the status fields, one per line, into tw.
func describeStatus(tw io.Writer, st *status.Status) {
	kv := func(indent int, key string, value any) {
		fmt.Fprintf(tw, "%s%s:\t%v\n", strings.Repeat("  ", indent), key, value)
	}
	fmt.Fprintln(tw, "Status:")
	kv(1, "Phase", st.Phase)
	kv(1, "Iteration", st.Iteration)
	kv(1, "Observed Generation", st.ObservedGeneration)
	if st.Reason != "" {
		kv(1, "Reason", st.Reason)
	}
	if st.Message != "" {
		kv(1, "Message", st.Message)
	}
	if !st.StartedAt.IsZero() {
		kv(1, "Started", st.StartedAt.Local().Format(time.RFC3339))
	}
	if st.FinishedAt != nil {
		kv(1, "Finished", fmt.Sprintf("%s (took %s)", st.FinishedAt.Local().Format(time.RFC3339), st.FinishedAt.Sub(st.StartedAt).Round(time.Second)))
	}
	if st.Attempt != nil {
		kv(1, "Container", fmt.Sprintf("%s (%s, iteration %d)", st.Attempt.Container, st.Attempt.Role, st.Attempt.Iteration))
	}
	if st.Cost != nil {
		kv(1, "Cost", st.Cost.String())
	}
	if c := st.RunCoverage(); c != nil {
		kv(1, "Coverage", c.Sentence())
	}
	if n, size := checkpoints.Use(st); n > 0 {
		kv(1, "Checkpoints", fmt.Sprintf("%d kept, %.1f MB (checkpointDisk caps the workspace's: the least recently used go first; `smile prune` removes those no run needs)", n, float64(size)/1e6))
	}
	if v := st.Verification; v != nil && v.Done {
		kv(1, "Fixes", v.Sentence())
	}
	if st.Report != nil && st.Report.Markdown != "" {
		kv(1, "Report", st.Report.Markdown)
	}
}

// describeFindings prints the gaps, the Mentor's notes and the events.
func describeFindings(w io.Writer, st *status.Status, now time.Time) {
	fmt.Fprintf(w, "Gaps:\t%d\n", len(st.Gaps))
	if len(st.Gaps) > 0 {
		gt := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
		fmt.Fprintln(gt, "  Line\tSeverity\tCategory\tTitle")
		fmt.Fprintln(gt, "  ----\t--------\t--------\t-----")
		for _, g := range st.Gaps {
			fmt.Fprintf(gt, "  %d\t%s\t%s\t%s\n", g.Location.LineNumber, g.Severity, g.Category, g.Title)
		}
		gt.Flush()
	}
	if len(st.MentorNotes) > 0 {
		fmt.Fprintln(w, "Mentor Notes:")
		for _, n := range st.MentorNotes {
			fmt.Fprintf(w, "  Iteration %d (line %d, %s): %s\n", n.Iteration, n.Line, n.Resolution, firstLine(n.Answer))
		}
	}
	fmt.Fprintln(w, "Events:")
	if len(st.Timeline) == 0 {
		fmt.Fprintln(w, "  <none>")
		return
	}
	et := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	fmt.Fprintln(et, "  Age\tIteration\tEvent\tDetails")
	fmt.Fprintln(et, "  ---\t---------\t-----\t-------")
	for _, e := range st.Timeline {
		fmt.Fprintf(et, "  %s\t%d\t%s\t%s\n", kubectlfmt.Age(now.Sub(e.Timestamp)), e.Iteration, e.Event, firstLine(e.Details))
	}
	et.Flush()
}

// firstLine is one line of a note or an event for describe's tables.
func firstLine(s string) string { return textutil.Shorten(textutil.FirstLine(s), 160) }

// describeSettings prints the settings in force, each with where it came
// from (the manifest, smile.json or the default), and why when it is
// ignored.
func describeSettings(w io.Writer, settings []spec.Setting) {
	if len(settings) == 0 {
		return
	}
	fmt.Fprintln(w, "Settings:")
	st := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	fmt.Fprintln(st, "  Setting\tValue\tFrom")
	fmt.Fprintln(st, "  -------\t-----\t----")
	for _, s := range settings {
		value := s.Value
		if s.Ignored != "" {
			value += " (ignored: " + s.Ignored + ")"
		}
		fmt.Fprintf(st, "  %s\t%s\t%s\n", s.Path, value, s.Source)
	}
	st.Flush()
}
