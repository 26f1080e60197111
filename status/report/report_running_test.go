package report

import (
	"strings"
	"testing"
	"time"

	"github.com/smile-loop/smile/status"
)

// `smile logs` renders the audit log of a run that is still going: its
// header says so instead of calling it an error.
func TestAuditLogOfARunningRun(t *testing.T) {
	run := status.NewRun("demo", "uid", "run.yaml", time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC))
	run.Status.Phase, run.Status.Iteration = status.PhaseWaitingForStudent, 1
	log := string(RenderAuditLog(BuildReport(run, ReportInput{TutorialPath: "tutorial.md", Now: run.Metadata.CreationTimestamp})))
	if !strings.Contains(log, "status: running (the loop has not ended: it is in phase WaitingForStudent") {
		t.Errorf("header of a running run's log:\n%s", log)
	}
	if strings.Contains(log, "status: error") {
		t.Errorf("a running run is not an error:\n%s", log)
	}
}
