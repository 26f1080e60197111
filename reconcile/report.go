package reconcile

import (
	"os"
	"time"

	"github.com/smile-loop/smile/status/baseline"
	"github.com/smile-loop/smile/status/report"

	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/status"
)

// ReportFor builds the report of a run from its status, the audits its
// attempts posted, and its inputs. The controller writes it when a loop ends;
// `smile report` re-renders it in other formats later.
func ReportFor(run *status.Run, d *spec.Desired, version string) *report.Report {
	now := time.Now().UTC()
	if f := run.Status.FinishedAt; f != nil {
		now = *f // re-rendering a finished run gives the same report
	}
	// A baseline that cannot be read is apply's error to report; the report
	// is written without it.
	workspace := spec.FindWorkspace(d.Dir)
	accepted, _ := baseline.Load(workspace)
	return report.BuildReport(run, report.ReportInput{
		Baseline:         accepted,
		BaselineTutorial: baseline.TutorialKey(workspace, d.Paths.Tutorial),
		TutorialPath:     relPath(d.Dir, d.Paths.Tutorial),
		TutorialFile:     d.Paths.Tutorial,
		TutorialTitle:    tutorialTitle(d.Tutorial),
		Audits:           Audits(run, d.Paths.StateFile),
		Now:              now,
		SourcePath:       report.RepoRelativePath(d.Paths.Tutorial),
		TutorialContent:  d.Tutorial.Content,
		BlobURL:          report.GitHubBlobURL(os.Getenv),
		ToolVersion:      version,
	})
}
