package cli

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/smile-loop/smile/status/store"

	"github.com/smile-loop/smile/spec/runfile"

	"github.com/smile-loop/smile/status/report"

	"github.com/spf13/cobra"

	"github.com/smile-loop/smile/reconcile"
	"github.com/smile-loop/smile/status"
)

func newLogsCommand(streams Streams) *cobra.Command {
	var dir string
	var follow bool
	cmd := &cobra.Command{
		Use:   "logs NAME",
		Short: "Print a run's audit log: every command, file and model call, and every event",
		Example: `  smile logs quickstart
  smile logs quickstart -f`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			if ctx == nil {
				ctx = context.Background()
			}
			rec, err := store.Registry{Dir: dir}.Get(args[0])
			if err != nil {
				return fmt.Errorf("smilerun %q not found", args[0])
			}
			return printLogs(ctx, streams.Out, rec, follow, 500*time.Millisecond)
		},
	}
	workspaceFlag(cmd, &dir)
	cmd.Flags().BoolVarP(&follow, "follow", "f", false, "keep printing new entries until the run ends")
	return cmd
}

// printLogs prints the audit log rendered from the run's current status;
// following, it prints the entries that appear until the run ends.
func printLogs(ctx context.Context, w io.Writer, rec store.Record, follow bool, every time.Duration) error {
	printed := -1 // body lines printed so far; -1: not even the header
	for {
		run, err := store.Load(rec.StateFile)
		if err != nil {
			return err
		}
		log := renderAuditLog(rec, run)
		header, body, end := splitAuditLog(log)
		if printed < 0 {
			fmt.Fprint(w, header)
			printed = 0
		}
		if len(body) < printed {
			printed = 0 // a new generation started over
		}
		for _, line := range body[printed:] {
			fmt.Fprintln(w, line)
		}
		printed = len(body)
		ended := run.Status.Phase.Terminal() && run.Status.Report != nil
		if !follow || ended {
			fmt.Fprint(w, end)
			return nil
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(every):
		}
	}
}

func renderAuditLog(rec store.Record, run *status.Run) string {
	tutorial := ""
	if m, err := runfile.LoadNamed(rec.Manifest, rec.Name); err == nil {
		if cfg, err := m.Resolve(filepath.Dir(rec.Manifest)); err == nil {
			tutorial = cfg.Tutorial
		}
	}
	rep := report.BuildReport(run, report.ReportInput{TutorialPath: tutorial, Audits: reconcile.Audits(run, rec.StateFile), Now: time.Now().UTC()})
	return string(report.RenderAuditLog(rep))
}

// splitAuditLog separates the log's header (up to the first blank line), its
// time-ordered records, and its closing totals.
func splitAuditLog(log string) (header string, body []string, end string) {
	head, rest, _ := strings.Cut(log, "\n\n")
	header = head + "\n\n"
	if i := strings.LastIndex("\n"+rest, "\n\nend:"); i >= 0 {
		end = rest[i:]
		rest = rest[:i]
	}
	rest = strings.TrimRight(rest, "\n")
	if rest != "" {
		body = strings.Split(rest, "\n")
	}
	return header, body, end
}
