package reconcile

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/smile-loop/smile/spec/markdown"

	"github.com/smile-loop/smile/internal/hostguard"
	"github.com/smile-loop/smile/internal/textutil"

	"github.com/smile-loop/smile/status/store"
	"github.com/smile-loop/smile/status/wire"

	"github.com/smile-loop/smile/status/report"

	"github.com/go-logr/logr"

	"github.com/smile-loop/smile/reconcile/attempt"
	"github.com/smile-loop/smile/reconcile/checkpoints"
	"github.com/smile-loop/smile/reconcile/events"
	"github.com/smile-loop/smile/reconcile/inbox"
	"github.com/smile-loop/smile/reconcile/planner"
	"github.com/smile-loop/smile/runtime"
	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/status"
)

// transition performs one planned action and writes the status.
type transition struct {
	r    *Reconciler
	d    *spec.Desired
	app  *Applied
	lay  layout
	run  *status.Run
	obs  planner.Observed
	plan planner.Plan
	now  time.Time
	// adopted is what adopt found, looked up once per transition.
	adopted *adoption
}

func (t *transition) perform(ctx context.Context) (Result, error) {
	switch t.plan.Action {
	case planner.ActNone:
		return Result{}, nil
	case planner.ActWait:
		return Result{RequeueAfter: t.plan.RequeueAfter}, nil
	case planner.ActNewGeneration:
		return t.newGeneration()
	case planner.ActQueue:
		st := &t.run.Status
		st.Phase, st.Reason, st.Message = t.plan.Phase, t.plan.Reason, t.plan.Message
		t.event(st.Iteration, string(planner.EvQueued), t.plan.Message) // until the generation starts afresh
		return t.save(planner.ActQueue)
	case planner.ActInit:
		return t.init(ctx)
	case planner.ActBegin:
		return t.begin()
	case planner.ActImageNotFound:
		return t.end(planner.ActImageNotFound)
	case planner.ActStartStudent:
		return t.startStudent(ctx)
	case planner.ActStartMentor:
		return t.startMentor(ctx)
	case planner.ActStudentResult:
		return t.studentResult(ctx, t.obs.Result.Student.StudentOutput, t.obs.Result)
	case planner.ActMentorResult:
		return t.mentorResult(ctx)
	case planner.ActStepTimeout:
		t.stopAttempt(ctx)
		if out := t.plan.TimedOut; out != nil {
			return t.studentResult(ctx, *out, nil)
		}
		return t.end(planner.ActStepTimeout)
	case planner.ActNoCallback, planner.ActContainerDied:
		msg := t.plan.Message // the plan's, told with what the attempt last said
		if logs := t.attemptLogs(ctx); logs != "" {
			msg += "; its last output: " + logs
		}
		t.stopAttempt(ctx)
		return t.endSaying(t.plan.Action, msg)
	case planner.ActGlobalTimeout:
		t.stopAttempt(ctx)
		return t.end(planner.EvTimeout)
	case planner.ActBudget:
		t.stopAttempt(ctx)
		return t.end(planner.ActBudget)
	case planner.ActStop:
		t.stopAttempt(ctx)
		if err := inbox.Inbox(t.lay.inbox()).ClearStop(); err != nil {
			return Result{}, err
		}
		return t.end(planner.EvStopped)
	case planner.ActFinish:
		return t.finish(ctx)
	}
	return Result{}, fmt.Errorf("unknown action %q", t.plan.Action)
}

func (t *transition) newGeneration() (Result, error) {
	if t.run == nil {
		t.run = status.NewRun(t.d.Name, newID(), t.app.Path, t.now)
	}
	md := &t.run.Metadata
	md.Generation++
	md.InputDigest = t.d.Digest
	md.Manifest = t.app.Path
	return t.save("NewGeneration")
}

// init starts the current generation from scratch: the containers and files
// of earlier generations go, the status is reset, a new token is issued.
func (t *transition) init(ctx context.Context) (Result, error) {
	cs, err := t.r.Runtime.List(ctx, t.lay.selector())
	if err != nil {
		return Result{}, err
	}
	var names []string
	for _, c := range cs {
		names = append(names, c.Name)
	}
	if err := t.r.containers().RemoveNow(ctx, names...); err != nil {
		return Result{}, fmt.Errorf("remove the containers of an earlier generation: %w", err)
	}
	// The checkpoints of earlier generations stay as a cache (the deepest
	// whose steps are unchanged is where this one starts); the rest go.
	cache := checkpoints.Carried(t.run.Status, t.d.Config)
	if err := removeSnapshots(ctx, t.r.Runtime, t.lay, func(s runtime.Snapshot) bool {
		return slices.ContainsFunc(cache, func(c status.Checkpoint) bool { return c.Ref == s.Ref })
	}); err != nil {
		return Result{}, err
	}
	gen := t.run.Metadata.Generation
	if err := store.RemoveOwned(t.lay.root); err != nil {
		return Result{}, err
	}
	if err := store.MakeOwned(t.lay.root); err != nil {
		return Result{}, err
	}
	// Only the controller's user may enter a generation's folder: whatever a
	// tutorial leaves in its work folders is no one else's way in.
	if err := os.MkdirAll(t.lay.generation(gen), 0o700); err != nil {
		return Result{}, err
	}
	if err := os.Chmod(t.lay.generation(gen), 0o700); err != nil {
		return Result{}, err
	}
	old := t.run.Status
	t.run.Status = status.Status{
		Phase:              status.PhaseStarting,
		StartedAt:          t.now,
		ObservedGeneration: gen,
		InputDigest:        t.d.Digest,
		Conditions:         old.Conditions,
		Reason:             t.plan.Reason,
		Message:            t.plan.Message,
		Instance:           t.r.Instance,
		Token:              newID(),
		MentorNotes:        []status.MentorNote{},
		History:            []status.IterationRecord{},
		Gaps:               []status.Gap{},
		CheckpointCache:    cache,
	}
	if notes, gaps := checkpoints.Carry(old, t.d, cache); len(notes) > 0 {
		t.run.Status.MentorNotes, t.run.Status.Gaps = notes, gaps
		t.event(0, "ResultsCarried", fmt.Sprintf("%d Mentor notes and %d gaps about the unchanged start of the tutorial, from generation %d", len(notes), len(gaps), old.ObservedGeneration))
	}
	t.event(0, "RunStarted", fmt.Sprintf("generation %d of %s with provider %s", gen, t.d.Config.Tutorial, t.d.Config.LLMProvider))
	for _, w := range t.d.Config.Warnings() {
		t.event(0, "SettingIgnored", w)
	}
	return t.save("Init")
}

// begin starts iteration 1; the planner has seen the image (observe).
func (t *transition) begin() (Result, error) {
	st := &t.run.Status
	st.Phase, st.Iteration = status.PhaseRunningStudent, 1
	st.Reason, st.Message = t.plan.Reason, t.plan.Message
	return t.save("Begin")
}

func (t *transition) startStudent(ctx context.Context) (Result, error) {
	st := &t.run.Status
	task := wire.Task{
		Role:        status.RoleStudent,
		MentorNotes: append([]status.MentorNote{}, st.MentorNotes...),
	}
	// The Student's work folder is fresh every iteration: it replays the
	// tutorial from the top with the Mentor's notes, or gets the copy a
	// checkpoint kept (startAttempt); a prepared container already mounts it.
	work := t.lay.workDir(t.run.Metadata.Generation, st.Iteration)
	if !t.prepared(ctx, t.lay.container(t.run.Metadata.Generation, st.Iteration, status.RoleStudent)) {
		if err := os.RemoveAll(work); err != nil {
			return Result{}, err
		}
	}
	// The previous iteration's container is reset into this one.
	prev := ""
	if st.Iteration > 1 {
		prev = t.lay.container(t.run.Metadata.Generation, st.Iteration-1, status.RoleStudent)
	}
	return t.startAttempt(ctx, status.RoleStudent, task, work, false, prev)
}

func (t *transition) startMentor(ctx context.Context) (Result, error) {
	st := &t.run.Status
	task := wire.Task{
		Role:        status.RoleMentor,
		MentorNotes: append([]status.MentorNote{}, st.MentorNotes...),
	}
	if n := len(st.History); n > 0 {
		last := st.History[n-1].StudentOutput
		task.Question = last.QuestionForMentor
		task.StudentOutput = &last
	}
	// The Mentor reads the Student's folder but cannot change it.
	work := t.lay.workDir(t.run.Metadata.Generation, st.Iteration)
	return t.startAttempt(ctx, status.RoleMentor, task, work, true, "")
}

// startAttempt writes the task, resets the container (the seed's algorithm)
// and records the attempt.
func (t *transition) startAttempt(ctx context.Context, role status.Role, task wire.Task, work string, readOnlyWork bool, prev string) (Result, error) {
	st := &t.run.Status
	name := t.lay.container(t.run.Metadata.Generation, st.Iteration, role)
	logs := t.lay.logsDir(t.run.Metadata.Generation, name)
	if err := os.RemoveAll(logs); err != nil {
		return Result{}, err
	}
	for _, dir := range []string{work, logs} {
		if err := os.MkdirAll(dir, 0o777); err != nil {
			return Result{}, err
		}
	}
	in, err := t.attemptInput(ctx, role, name, work, logs, readOnlyWork)
	if err != nil {
		return Result{}, err
	}
	task, cs := attempt.Spec(in, task)
	// Written again when the attempt restarts after a crash.
	if err := inbox.ReplaceJSON(filepath.Join(logs, wire.TaskFileName), task); err != nil {
		return Result{}, fmt.Errorf("write task of %s: %w", name, err)
	}
	if role == status.RoleMentor && in.InProcess {
		return t.startOnDemand(ctx, in, task, cs)
	}
	if _, ok := planner.FindContainer(t.obs.Containers, prev); !ok {
		prev = ""
	}
	pool := t.r.containers()
	var later *laterPrep
	prepared := false // the next roles' containers
	c, ok := t.adopt(ctx, cs)
	if ok && prev != "" {
		// Off the critical path: the new container is there already.
		pool.Remove(prev, func(ctx context.Context) { _ = runtime.Retire(ctx, t.r.Runtime, prev) })
	}
	if !ok {
		if s := pool.Stream(name); s != nil {
			_ = s.Close() // a prepared container's, which this start replaces
		}
		if err := pool.AwaitRemoval(ctx, name); err != nil {
			return Result{}, err
		}
		if in.InProcess {
			// A cold start: the next roles' containers start beside it (on 2
			// cores, a few tens of ms sooner in all than after it).
			later, prepared = t.prepareNext(in), true
		}
		if c, err = runtime.Reset(ctx, t.r.Runtime, prev, cs); err != nil {
			if in.From != nil {
				return t.forgetCheckpoint(ctx, in.From.Ref, err)
			}
			return Result{}, fmt.Errorf("start %s container for run %s: %w", role, t.d.Name, err)
		}
	}
	if in.From != nil {
		if err := checkpoints.Restore(ctx, t.r.Runtime, name); err != nil {
			return t.forgetCheckpoint(ctx, in.From.Ref, err)
		}
	}
	res, err := t.attemptStarted(ctx, role, name, c.ID, false)
	if err == nil && in.InProcess {
		// Only once the attempt is recorded: its result must find it.
		if !prepared {
			later = t.prepareNext(in)
		}
		t.startBrain(ctx, task, name, logs, brainOpts{later: later})
	}
	return res, err
}

// attemptInput gathers what the attempt's spec is made from: the token, the
// keys and the relay of an attempt in a container, the checkpoint a Student
// starts from.
func (t *transition) attemptInput(ctx context.Context, role status.Role, name, work, logs string, readOnlyWork bool) (attempt.Input, error) {
	st := &t.run.Status
	cfg := t.d.Config
	in := attempt.Input{Desired: t.d, Role: role, Iteration: st.Iteration, RunStarted: st.StartedAt, Now: t.now,
		Name: name, Work: work, Logs: logs, ReadOnlyWork: readOnlyWork, CallbackURL: t.r.CallbackURL,
		WrapperPath: t.r.WrapperPath, Instance: t.r.Instance, StateKey: t.lay.key,
		InProcess: t.r.inProcess(cfg.LLMProvider), HiddenDirs: attempt.HiddenDirs(t.d)}
	if !in.InProcess {
		in.Token = t.r.issueToken(t.d.Name, name, role)
		if cfg.LLMProvider != spec.ProviderLiteral {
			in.KeyEnv = t.r.keyEnv(cfg)
		}
		if attempt.Network(cfg, role) == spec.NetworkNone {
			dir, err := t.startRelay(ctx, name)
			if err != nil {
				return in, err
			}
			in.RelayDir = dir
		}
	}
	if role == status.RoleStudent {
		in.From = t.plan.From
		in.Checkpoints = in.InProcess && cfg.ResumeMode() == spec.ResumeCheckpoint
	}
	return in, nil
}

// attemptStarted records a started attempt in the status and saves it.
func (t *transition) attemptStarted(ctx context.Context, role status.Role, name, id string, onDemand bool) (Result, error) {
	st := &t.run.Status
	if st.Phase == status.PhaseWaitingForStudent || st.Phase == status.PhaseWaitingForMentor {
		t.event(st.Iteration, "AttemptRestarted", t.plan.Message)
	}
	st.Phase, st.Instance = waitingPhase(role), t.r.Instance
	st.Reason, st.Message = t.plan.Reason, t.plan.Message
	st.Attempt = &status.Attempt{Role: role, Iteration: st.Iteration, Container: name, ContainerID: id,
		Instance: t.r.Instance, StartedAt: t.now, ResumedFrom: checkpoints.ResumedFrom(t.plan.From, role), OnDemand: onDemand}
	if t.plan.From != nil && role == status.RoleStudent {
		checkpoints.Touch(st, t.plan.From.Ref, t.now)
	}
	event := planner.EvStudentStarted
	if role == status.RoleMentor {
		event = planner.EvMentorStarted
	}
	t.event(st.Iteration, string(event), "container "+name)
	logr.FromContextOrDiscard(ctx).Info("Started container", "container", name, "role", string(role), "iteration", st.Iteration)
	return t.save(event)
}

// startRelay opens the relay of a container without a network: its wrapper
// reaches the controller, and its CLI the API, through the relay's socket
// (reconcile/relay). It returns the folder holding the socket.
func (t *transition) startRelay(ctx context.Context, name string) (string, error) {
	cb, err := t.relayCallback(ctx)
	if err != nil {
		return "", fmt.Errorf("start the relay of %s: %w", name, err)
	}
	if t.r.Relays == nil {
		return "", fmt.Errorf("start the relay of %s: this controller has no relays", name)
	}
	host, _ := t.r.Runtime.Info(ctx) // an unknown host name only stops the redirect
	dir, err := t.r.Relays.Start(ctx, name, cb, t.d.Config.APIHosts(), host.HostName, host.GatewayIP)
	if err != nil {
		return "", fmt.Errorf("start the relay of %s: %w", name, err)
	}
	return dir, nil
}

// studentResult records the Student's answer: history, gaps, next phase.
func (t *transition) studentResult(ctx context.Context, out status.StudentOutput, res *planner.Posted) (Result, error) {
	st := &t.run.Status
	rec := status.IterationRecord{Iteration: st.Iteration, StudentOutput: out, EndedAt: t.now}
	if st.Attempt != nil {
		rec.StartedAt = st.Attempt.StartedAt
	}
	if res != nil {
		rec.EndedAt = res.ReceivedAt
	}
	st.AddCost(res.LLMCalls())
	t.r.revokeTokens(t.d.Name)
	t.recordResume(ctx, &rec, res)
	t.dropPrepared(res)
	st.History = append(st.History, rec)
	if !checkpoints.Verifying(st) {
		st.MergeFindings(t.d.Tutorial, out.Findings, st.Iteration)
		for _, c := range st.DropConsequences(out, st.Iteration) {
			t.event(st.Iteration, "GapDropped", fmt.Sprintf("line %d (%s) passed in iteration %d, after the workaround for line %d: it was that failure's consequence, not a gap of its own",
				c.Gap.Location.LineNumber, c.Gap.Category, c.Iteration, c.CauseLine))
		}
	}
	st.Attempt = nil
	details := fmt.Sprintf("%s at %q", out.Status, out.CurrentStep)
	if out.Status == status.StudentCompleted {
		details = fmt.Sprintf("completed: %s", out.Summary)
	}
	t.event(st.Iteration, "StudentReported", details)
	if t.plan.Phase.Terminal() {
		return t.end(planner.EvStudentReported)
	}
	st.Phase, st.Reason, st.Message = t.plan.Phase, t.plan.Reason, t.plan.Message
	if t.plan.Verify {
		st.Iteration++
		st.Verification = &status.Verification{Iteration: st.Iteration, Fixes: checkpoints.Fixes(st.MentorNotes)}
		t.event(st.Iteration, "VerificationStarted", t.plan.Message)
	}
	return t.save(planner.ActStudentResult)
}

// mentorResult records the Mentor's notes, which every later iteration gets.
func (t *transition) mentorResult(ctx context.Context) (Result, error) {
	st := &t.run.Status
	res := t.obs.Result
	m := res.Mentor
	note := status.MentorNote{Iteration: st.Iteration, Answer: m.MentorOutput, Timestamp: m.Timestamp}
	if note.Timestamp.IsZero() {
		note.Timestamp = res.ReceivedAt
	}
	if n := len(st.History); n > 0 {
		last := &st.History[n-1]
		note.Question = last.StudentOutput.QuestionForMentor
		note.Line = last.StudentOutput.Line
		answer := m.MentorOutput
		last.MentorOutput = &answer
	}
	if a := m.Advice; a != nil {
		if a.Line > 0 {
			note.Line = a.Line
		}
		note.Category, note.Resolution, note.Workaround, note.SuggestedFix = a.Category, a.Resolution, a.Workaround, a.SuggestedFix
	}
	t.r.revokeTokens(t.d.Name)
	if note.Line > 0 && t.d.Tutorial != nil {
		note.Key = status.StepsKey(t.d.Tutorial.Content, note.Line+1, st.MentorNotes)
	}
	st.MentorNotes = append(st.MentorNotes, note)
	st.ApplyAdvice(note)
	st.AddCost(res.LLMCalls())
	st.Attempt = nil
	// The Mentor's container has done its work; it goes now (in the
	// background) rather than at the next reset.
	t.r.containers().Remove(t.lay.container(t.run.Metadata.Generation, st.Iteration, status.RoleMentor), nil)
	t.event(st.Iteration, "MentorAnswered", textutil.Shorten(textutil.FirstLine(m.MentorOutput), 200))
	if t.plan.Phase.Terminal() {
		return t.end(planner.EvMentorAnswered)
	}
	st.Phase, st.Reason, st.Message = t.plan.Phase, t.plan.Reason, t.plan.Message
	st.Iteration++
	return t.save(planner.ActMentorResult)
}

// end moves the run to the terminal phase the plan chose.
func (t *transition) end(event planner.Action) (Result, error) {
	return t.endSaying(event, t.plan.Message)
}

// endSaying is end with the status message given.
func (t *transition) endSaying(event planner.Action, msg string) (Result, error) {
	st := &t.run.Status
	st.Phase, st.Reason, st.Message = t.plan.Phase, t.plan.Reason, msg
	st.Attempt = nil
	t.r.revokeTokens(t.d.Name)
	now := t.now
	st.FinishedAt = &now
	st.MarkBlocking()
	t.event(st.Iteration, "LoopEnded", fmt.Sprintf("%s: %s", st.Phase.LoopStatus(), st.Message))
	return t.save(event)
}

// worked reports whether a container of the run did an attempt's work, for
// keepOnFailure / keepOnSuccess to keep: not one already going (a Mentor's
// that answered) nor one prepared for an iteration that never came.
func (t *transition) worked(c runtime.Container) bool {
	it, err := strconv.Atoi(c.Labels[runtime.LabelIteration])
	return !t.r.containers().Removing(c.Name) && (err != nil || it <= t.run.Status.Iteration)
}

// finish removes or keeps the containers (keepOnSuccess / keepOnFailure) and
// writes the report.
func (t *transition) finish(ctx context.Context) (Result, error) {
	st := &t.run.Status
	cfg := t.d.Config.Container
	keep := cfg.KeepOnFailure
	switch st.Phase {
	case status.PhaseCompleted:
		keep = cfg.KeepOnSuccess
	case status.PhaseStopped:
		keep = false // a user's stop is not a failure to debug
	}
	if err := t.wrapUp(ctx, keep); err != nil {
		return Result{}, err
	}
	return t.save("Finish")
}

// wrapUp removes the run's containers (but those that worked, when keep),
// makes harmless what its tutorial left on the host, and writes its report,
// to the report fallback when it cannot be written (E16).
func (t *transition) wrapUp(ctx context.Context, keep bool) error {
	st := &t.run.Status
	var kept, gone []string
	for _, c := range t.obs.Containers {
		if keep && t.worked(c) {
			if c.State == runtime.StateRunning {
				_ = t.r.Runtime.Stop(ctx, c.Name, 2*time.Second)
			}
			kept = append(kept, c.Name)
			continue
		}
		gone = append(gone, c.Name)
	}
	// A container still being prepared is not listed yet.
	for _, name := range t.r.containers().Preparing(t.lay.containerPrefix()) {
		if !slices.Contains(gone, name) {
			gone = append(gone, name)
		}
	}
	// Side by side, and with the removals under way: when the report is
	// there, the run's containers are gone.
	if err := t.r.containers().RemoveNow(ctx, gone...); err != nil {
		return fmt.Errorf("remove the containers of run %s: %w", t.d.Name, err)
	}
	if len(kept) > 0 {
		t.event(st.Iteration, "ContainersKept", strings.Join(kept, ", "))
	}
	t.defuse()
	rep := ReportFor(t.run, t.d, t.r.Version)
	ref, err := report.WriteReports(t.d.Paths.OutputDir, rep, t.r.ReportFallback)
	if ref == nil {
		ref = &status.ReportRef{WrittenAt: t.now}
	}
	if err != nil {
		// E16: what could not be written went to the fallback (stdout).
		t.event(st.Iteration, "ReportWriteFailed", err.Error())
	} else {
		t.event(st.Iteration, "ReportWritten", ref.Markdown)
	}
	st.Report = ref
	return nil
}

// giveUp ends a run whose files cannot be written (reconcile/unwritable):
// its attempt stopped, every container of it removed, its report built from
// the status in memory and, as it cannot be written either, printed on the
// report fallback (stdout, E16). The state file keeps its last content; readers and apply --wait get
// the ended run from memory, and it is not reconciled again for these inputs.
func (t *transition) giveUp(ctx context.Context, cause error) (Result, error) {
	logr.FromContextOrDiscard(ctx).Error(cause, "Run ended: its files cannot be written")
	if t.run == nil {
		t.run = status.NewRun(t.d.Name, newID(), t.app.Path, t.now)
		t.run.Metadata.Generation, t.run.Metadata.InputDigest = 1, t.d.Digest
	}
	t.stopAttempt(ctx)
	if cs, err := t.r.Runtime.List(ctx, t.lay.selector()); err == nil {
		t.obs.Containers = cs // as they are now: a prepared one too
	}
	st, md := &t.run.Status, t.run.Metadata
	st.ObservedGeneration, st.InputDigest = md.Generation, md.InputDigest
	st.Phase, st.Reason, st.Attempt = status.PhaseError, status.ReasonUnwritable, nil
	st.Message = "the run's files cannot be written (free space or give write access, then apply again): " + cause.Error()
	now := t.now
	st.FinishedAt = &now
	st.MarkBlocking()
	t.event(st.Iteration, "LoopEnded", fmt.Sprintf("%s: %s", st.Phase.LoopStatus(), st.Message))
	if err := t.wrapUp(ctx, false); err != nil {
		return Result{}, err
	}
	t.r.unwritable.End(t.d.Name, md.InputDigest)
	if err := t.r.save(t.d.Paths.StateFile, t.run, planner.EvUnwritable); err != nil {
		t.r.keep(t.run)
		t.r.Events.Publish(events.Event{Run: t.run.Copy(), Action: string(planner.EvUnwritable), At: t.now})
	}
	return Result{}, nil
}

// defuse makes harmless what the run's tutorial left in its host folders
// (setuid and setgid bits, device nodes), once every container is stopped
// or gone, and says what it changed.
func (t *transition) defuse() {
	found, err := hostguard.Defuse(t.lay.generation(t.run.Metadata.Generation))
	var said []string
	for _, f := range found {
		said = append(said, f.String())
	}
	if err != nil {
		said = append(said, "could not: "+err.Error())
	}
	if len(said) > 0 {
		t.event(t.run.Status.Iteration, "HostFilesDefused", strings.Join(said, "; "))
	}
}

// Audits reads back every attempt's posted audit, oldest first. The files
// follow from the run's layout: one result per Student attempt recorded in the
// history, and one per Mentor answer.
func Audits(run *status.Run, stateFile string) []status.Audit {
	var out []status.Audit
	lay := newLayout(run.Metadata.Name, stateFile)
	box := inbox.Inbox(lay.inbox())
	for _, h := range run.Status.History {
		files := []string{box.ResultFile(lay.container(run.Metadata.Generation, h.Iteration, status.RoleStudent))}
		if h.MentorOutput != nil {
			files = append(files, box.ResultFile(lay.container(run.Metadata.Generation, h.Iteration, status.RoleMentor)))
		}
		for _, f := range files {
			var res planner.Posted
			if ok, err := inbox.ReadJSON(f, &res); !ok || err != nil {
				continue
			}
			switch {
			case res.Student != nil && res.Student.Audit != nil:
				out = append(out, *res.Student.Audit)
			case res.Mentor != nil && res.Mentor.Audit != nil:
				out = append(out, *res.Mentor.Audit)
			}
		}
	}
	return out
}

func (t *transition) stopAttempt(ctx context.Context) {
	t.r.revokeTokens(t.d.Name)
	if a := t.run.Status.Attempt; a != nil {
		if t.r.Brains != nil {
			t.r.Brains.Stop(a.Container)
		}
		if err := t.r.Runtime.Stop(ctx, a.Container, 2*time.Second); err != nil && !errors.Is(err, runtime.ErrNotFound) {
			logr.FromContextOrDiscard(ctx).Info("Could not stop container", "container", a.Container, "error", err.Error())
		}
	}
}

// attemptLogs returns the last lines the attempt's container printed.
func (t *transition) attemptLogs(ctx context.Context) string {
	if a := t.run.Status.Attempt; a != nil {
		return runtime.LastLogLines(ctx, t.r.Runtime, a.Container, 5)
	}
	return ""
}

func (t *transition) event(iteration int, event, details string) {
	t.run.Status.Timeline = append(t.run.Status.Timeline, status.TimelineEntry{
		Timestamp: t.now, Iteration: iteration, Event: event, Details: details,
	})
}

func (t *transition) save(action planner.Action) (Result, error) {
	if err := t.r.save(t.d.Paths.StateFile, t.run, action); err != nil {
		return Result{}, err
	}
	return Result{Requeue: true}, nil
}

func waitingPhase(role status.Role) status.Phase {
	if role == status.RoleMentor {
		return status.PhaseWaitingForMentor
	}
	return status.PhaseWaitingForStudent
}

func relPath(dir, p string) string {
	if rel, err := filepath.Rel(dir, p); err == nil && !strings.HasPrefix(rel, "..") {
		return rel
	}
	return p
}

func tutorialTitle(t *spec.Tutorial) string {
	for _, b := range t.Blocks {
		if b.Kind == markdown.BlockHeading && strings.HasPrefix(strings.TrimSpace(spec.LineText(t.Content, b.Line)), "# ") {
			return strings.TrimSpace(b.Text)
		}
	}
	return ""
}
