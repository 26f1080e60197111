package reconcile

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/smile-loop/smile/reconcile/attempt"
	"github.com/smile-loop/smile/reconcile/checkpoints"
	"github.com/smile-loop/smile/reconcile/internal/plantest"
	"github.com/smile-loop/smile/reconcile/planner"
	"github.com/smile-loop/smile/runtime"
	"github.com/smile-loop/smile/runtime/fake"
	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/spec/runfile"
	"github.com/smile-loop/smile/status"
	"github.com/smile-loop/smile/status/store"
	"github.com/smile-loop/smile/status/wire"
	"github.com/smile-loop/smile/wrappers"
)

const cpTutorial = "# T\n\n```bash\nstep 4\n```\n\n```bash\nstep 8\n```\n\nstep 11\nstep 12\n"

// checkpointAt is the checkpoint an iteration took before a line of
// cpTutorial, with the notes it had (those of earlier iterations), keyed as
// the Student keys it.
func checkpointAt(iteration, line int, image, content string, notes []status.MentorNote) status.Checkpoint {
	var had []status.MentorNote
	for _, n := range notes {
		if n.Iteration < iteration {
			had = append(had, n)
		}
	}
	return status.Checkpoint{Ref: fmt.Sprintf("snap-i%d-l%d", iteration, line), Iteration: iteration, Line: line, Image: image,
		Key: checkpoints.Key(image, status.StepsKey(content, line, had)), CreatedAt: t0.Add(time.Duration(iteration) * time.Minute)}
}

// The planner starts a Student attempt from the deepest checkpoint of the
// run's image whose steps are those the attempt would follow (no later note
// or edit above it); from the top otherwise, with resume fromStart, and for
// the verification replay.
func TestDecideStartsFromTheDeepestValidCheckpoint(t *testing.T) {
	workaround := func(iteration, line int) status.MentorNote {
		return status.MentorNote{Iteration: iteration, Line: line, Resolution: status.ResolutionWorkaround, Workaround: "true"}
	}
	edited := strings.Replace(cpTutorial, "step 4", "step four", 1)
	type cp struct{ iteration, line int }
	for _, tc := range []struct {
		name     string
		resume   spec.Resume
		provider spec.Provider
		iter     int
		cps      []cp
		cache    []cp // taken by an earlier generation, on takenOn
		takenOn  string
		image    string // the checkpoints' ("" the run's)
		notes    []status.MentorNote
		verify   bool
		want     string // the checkpoint's ref, "" for the top
	}{
		{name: "the deepest", resume: spec.ResumeAuto, provider: spec.ProviderLiteral, iter: 2,
			cps: []cp{{1, 4}, {1, 8}}, notes: []status.MentorNote{workaround(1, 8)}, want: "snap-i1-l8"},
		{name: "a note above the deepest falls back to one before it", resume: spec.ResumeCheckpoint, provider: spec.ProviderLiteral, iter: 2,
			cps: []cp{{1, 4}, {1, 11}}, notes: []status.MentorNote{workaround(1, 8)}, want: "snap-i1-l4"},
		{name: "an older checkpoint stays good when later notes are below it", resume: spec.ResumeCheckpoint, provider: spec.ProviderLiteral, iter: 3,
			cps: []cp{{1, 4}}, notes: []status.MentorNote{workaround(1, 8), workaround(2, 11)}, want: "snap-i1-l4"},
		{name: "a note from before the checkpoint's iteration is already in it", resume: spec.ResumeCheckpoint, provider: spec.ProviderLiteral, iter: 3,
			cps: []cp{{2, 11}}, notes: []status.MentorNote{workaround(1, 4), workaround(2, 11)}, want: "snap-i2-l11"},
		{name: "another image's checkpoint is never used", resume: spec.ResumeCheckpoint, provider: spec.ProviderLiteral, iter: 2,
			cps: []cp{{1, 4}}, image: "other:1", notes: []status.MentorNote{workaround(1, 8)}},
		{name: "fromStart", resume: spec.ResumeFromStart, provider: spec.ProviderLiteral, iter: 2,
			cps: []cp{{1, 4}}, notes: []status.MentorNote{workaround(1, 8)}},
		{name: "auto for a model-backed provider", resume: spec.ResumeAuto, provider: spec.ProviderClaude, iter: 2,
			cps: []cp{{1, 4}}, notes: []status.MentorNote{workaround(1, 8)}},
		{name: "the verification replay", resume: spec.ResumeCheckpoint, provider: spec.ProviderLiteral, iter: 3, verify: true,
			cps: []cp{{1, 4}}, notes: []status.MentorNote{workaround(1, 8)}},
		{name: "an earlier generation's, on the unchanged start of the tutorial", resume: spec.ResumeCheckpoint, provider: spec.ProviderLiteral, iter: 1,
			cache: []cp{{1, 8}, {1, 11}}, takenOn: strings.Replace(cpTutorial, "step 12", "step twelve", 1), want: "snap-i1-l11"},
		{name: "not one after an edit above it", resume: spec.ResumeCheckpoint, provider: spec.ProviderLiteral, iter: 1,
			cache: []cp{{1, 8}}, takenOn: edited},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := plantest.Desired()
			d.Config.Resume, d.Config.LLMProvider = tc.resume, tc.provider
			d.Tutorial = &spec.Tutorial{Content: cpTutorial}
			image := cmp.Or(tc.image, d.Config.ContainerImage)
			run := plantest.RunIn(status.PhaseRunningStudent, tc.iter)
			run.Status.MentorNotes = tc.notes
			for _, c := range tc.cps {
				run.Status.Checkpoints = append(run.Status.Checkpoints, checkpointAt(c.iteration, c.line, image, cpTutorial, tc.notes))
			}
			for _, c := range tc.cache {
				run.Status.CheckpointCache = append(run.Status.CheckpointCache, checkpointAt(c.iteration, c.line, image, tc.takenOn, nil))
			}
			if tc.verify {
				run.Status.Verification = &status.Verification{Iteration: tc.iter}
			}
			plan := planner.Decide(planner.Input{Now: t0, Desired: d, Run: run})
			if plan.Action != planner.ActStartStudent {
				t.Fatalf("action %s", plan.Action)
			}
			got := ""
			if plan.From != nil {
				got = plan.From.Ref
			}
			if got != tc.want {
				t.Errorf("starts from %q, want %q", got, tc.want)
			}
		})
	}
}

// A Student that completes from a checkpoint is followed by one clean
// replay; its answer ends the loop as Completed with the verdict.
func TestDecideVerifiesAfterACompletionFromACheckpoint(t *testing.T) {
	d := plantest.Desired()
	d.Config.LLMProvider = spec.ProviderLiteral
	notes := []status.MentorNote{{Iteration: 1, Line: 5, Resolution: status.ResolutionWorkaround, Workaround: "apt-get install -y x"}}

	resumed := plantest.RunIn(status.PhaseWaitingForStudent, 2)
	resumed.Status.MentorNotes = notes
	resumed.Status.Attempt.ResumedFrom = &status.Resumed{Ref: "snap", Line: 5, From: 1}
	plan := planner.Decide(planner.Input{Now: t0, Desired: d, Run: resumed, Observed: planner.Observed{Result: plantest.StudentPosted(status.StudentCompleted)}})
	if plan.Action != planner.ActStudentResult || plan.Phase != status.PhaseRunningStudent || !plan.Verify || plan.Reason != status.ReasonVerifying {
		t.Fatalf("plan = %+v, want a verification replay", plan)
	}

	fromTop := plantest.RunIn(status.PhaseWaitingForStudent, 2)
	fromTop.Status.MentorNotes = notes
	plan = planner.Decide(planner.Input{Now: t0, Desired: d, Run: fromTop, Observed: planner.Observed{Result: plantest.StudentPosted(status.StudentCompleted)}})
	if plan.Phase != status.PhaseCompleted || plan.Verify {
		t.Fatalf("plan = %+v, want Completed: the last iteration ran from the top", plan)
	}

	for _, tc := range []struct {
		answer status.StudentStatus
		want   string
	}{
		{status.StudentCompleted, "Verified: with the 1 suggested fix the tutorial completes from a clean start."},
		{status.StudentAskMentor, "Not verified: with the 1 suggested fix, a clean start stops at line 3,"},
	} {
		replay := plantest.RunIn(status.PhaseWaitingForStudent, 3)
		replay.Status.MentorNotes = notes
		replay.Status.Verification = &status.Verification{Iteration: 3, Fixes: 1}
		posted := plantest.StudentPosted(tc.answer)
		posted.Student.StudentOutput.Line = 3
		plan := planner.Decide(planner.Input{Now: t0, Desired: d, Run: replay, Observed: planner.Observed{Result: posted}})
		if plan.Phase != status.PhaseCompleted || plan.Reason != status.ReasonCompleted {
			t.Errorf("%s: plan = %+v, want Completed", tc.answer, plan)
		}
		if !strings.Contains(plan.Message, tc.want) {
			t.Errorf("%s: message %q, want it to say %q", tc.answer, plan.Message, tc.want)
		}
	}
}

// An attempt from a checkpoint starts its container from the snapshot and
// tells the Student the line, the shell state and what it had learned.
func TestAttemptSpecFromACheckpoint(t *testing.T) {
	d := plantest.Desired()
	d.Config.LLMProvider = spec.ProviderLiteral
	d.Paths.Tutorial = "/home/u/tut/tutorial.md"
	d.Digest = "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	shell := status.ShellState{Cwd: "/workspace/work/app", Vars: []string{"A"}, Script: "declare -x A=\"1\"\n"}
	learned := &status.Learned{Steps: 4, FilesCreated: []string{"app/main.go"}}
	in := attempt.Input{Desired: d, Role: status.RoleStudent, Iteration: 2, Name: "c", Work: "/w", Logs: "/l", WrapperPath: "/bin/w",
		Instance: "inst", StateKey: "key", InProcess: true, Checkpoints: true,
		From: &status.Checkpoint{Ref: "smile-checkpoint:demo-key-g1-i1-l9", Iteration: 1, Line: 9, Shell: shell, Learned: learned}}
	task, cs := attempt.Spec(in, wire.Task{Role: status.RoleStudent})
	wantTask := wire.Task{Run: "demo", Role: status.RoleStudent, Provider: spec.ProviderLiteral, Iteration: 2, Attempt: "c",
		Tutorial: "/workspace/tutorial/tutorial.md", Behavior: d.Config.StudentBehavior, Checkpoints: true,
		Resume: &wire.Resume{Line: 9, Shell: shell, Learned: learned}}
	if !reflect.DeepEqual(task, wantTask) {
		t.Errorf("task =\n  %+v\nwant\n  %+v", task, wantTask)
	}
	wantSpec := runtime.ContainerSpec{Name: "c", Image: "smile-checkpoint:demo-key-g1-i1-l9", Cmd: []string{wire.ContainerWrapperPath, wrappers.CmdIdle},
		Labels: map[string]string{runtime.LabelOwner: runtime.OwnerValue, runtime.LabelRun: "demo", runtime.LabelRole: "student",
			runtime.LabelIteration: "2", runtime.LabelInstance: "inst", runtime.LabelInputs: "0123456789ab", runtime.LabelStateKey: "key"},
		Mounts: []runtime.Mount{{Source: "/home/u/tut", Target: wire.ContainerTutorialDir, ReadOnly: true}, {Source: "/w", Target: wire.ContainerWorkDir},
			{Source: "/bin/w", Target: wire.ContainerWrapperPath, ReadOnly: true}},
		WorkingDir: wire.ContainerWorkDir, Network: "bridge", Resources: d.Config.Container.Resources(), Confinement: attempt.Confined}
	if !reflect.DeepEqual(cs, wantSpec) {
		t.Errorf("container spec =\n  %+v\nwant\n  %+v", cs, wantSpec)
	}
}

// Only checkpoints this controller took for the attempt are recorded: a
// result posted from a container cannot name what a later iteration
// starts from.
func TestAcceptedCheckpoints(t *testing.T) {
	tgt := checkpointTarget{lay: newLayout("demo", "/p/.smile/state.json"), gen: 1, iteration: 2, image: "img:1"}
	good := status.Checkpoint{Ref: tgt.ref(5), Iteration: 2, Line: 5, Image: "img:1"}
	forged := status.Checkpoint{Ref: "evil:latest", Iteration: 2, Line: 5, Image: "img:1"}
	otherImage := status.Checkpoint{Ref: tgt.ref(6), Iteration: 2, Line: 6, Image: "img:2"}
	got := acceptedCheckpoints([]status.Checkpoint{good, forged, otherImage}, tgt, true)
	if !reflect.DeepEqual(got, []status.Checkpoint{good}) {
		t.Errorf("accepted %+v, want only the one named for the attempt", got)
	}
	if got := acceptedCheckpoints([]status.Checkpoint{good}, tgt, false); got != nil {
		t.Errorf("a posted result's checkpoints were accepted: %+v", got)
	}
}

// A checkpoint is kept only once its snapshot is complete: a failed
// snapshot leaves nothing to record, and the copy of the work folder is
// removed from the container either way.
func TestCheckpointIsKeptOnlyWhenComplete(t *testing.T) {
	ctx := context.Background()
	rt := fake.New("smile-base:latest")
	if _, err := rt.Start(ctx, runtime.ContainerSpec{Name: "c", Image: "smile-base:latest"}); err != nil {
		t.Fatal(err)
	}
	r := &Reconciler{Runtime: rt}
	tgt := checkpointTarget{lay: newLayout("demo", "/p/.smile/state.json"), gen: 1, iteration: 1, image: "smile-base:latest", instance: "i"}
	kept := &checkpoints.Kept{}
	take := r.checkpointFunc("c", tgt, kept)
	rt.FailNextSnapshot(errors.New("killed"))
	learned := &status.Learned{Steps: 3, CommandsRun: []string{"make"}}
	if err := take(ctx, 7, "steps", status.ShellState{Cwd: "/workspace/work"}, learned); err == nil {
		t.Fatal("a failed snapshot was not an error")
	}
	if got := kept.All(); len(got) != 0 {
		t.Fatalf("a failed snapshot was kept: %+v", got)
	}
	if err := take(ctx, 7, "steps", status.ShellState{Cwd: "/workspace/work"}, learned); err != nil {
		t.Fatal(err)
	}
	got := kept.All()
	if len(got) != 1 || got[0].Ref != tgt.ref(7) || got[0].Line != 7 || got[0].Shell.Cwd != "/workspace/work" || got[0].Key != checkpoints.Key("smile-base:latest", "steps") ||
		got[0].Learned != learned {
		t.Fatalf("kept %+v", got)
	}
	execs := rt.Execs("c")
	if n := len(execs); n != 4 || !strings.Contains(strings.Join(execs[n-1], " "), "rm -rf "+checkpoints.WorkCopy) {
		t.Fatalf("execs %q: want copy in, remove, twice", execs)
	}
}

// Snapshots another controller took and never recorded are orphans; those
// the status records stay; smile delete removes them all.
func TestOrphanSnapshotsAndDelete(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	rt := fake.New("smile-base:latest")
	state := filepath.Join(dir, ".smile", "state.json")
	lay := newLayout("demo", state)
	if _, err := rt.Start(ctx, runtime.ContainerSpec{Name: "c", Image: "smile-base:latest"}); err != nil {
		t.Fatal(err)
	}
	snap := func(ref, instance string) {
		labels := lay.selector()
		labels[runtime.LabelKind], labels[runtime.LabelInstance] = runtime.KindSnapshot, instance
		if _, err := rt.Snapshot(ctx, runtime.SnapshotSpec{Container: "c", Ref: ref, Labels: labels}); err != nil {
			t.Fatal(err)
		}
	}
	snap("recorded", "dead")
	snap("half-taken", "dead")
	snap("mine", "alive")
	run := status.NewRun("demo", "uid", filepath.Join(dir, "run.yaml"), t0)
	run.Status.CheckpointCache = []status.Checkpoint{{Ref: "recorded"}}
	if err := store.Save(state, run); err != nil {
		t.Fatal(err)
	}
	if err := removeOrphanSnapshots(ctx, rt, lay, "alive"); err != nil {
		t.Fatal(err)
	}
	refs := func() []string {
		list, _ := rt.ListSnapshots(ctx, lay.selector())
		var out []string
		for _, s := range list {
			out = append(out, s.Ref)
		}
		slices.Sort(out)
		return out
	}
	if got := refs(); !slices.Equal(got, []string{"mine", "recorded"}) {
		t.Fatalf("after the orphan sweep: %v, want the recorded one and this controller's", got)
	}
	if err := DeleteRun(ctx, rt, store.Record{Name: "demo", Manifest: filepath.Join(dir, "run.yaml"), StateFile: state}); err != nil {
		t.Fatal(err)
	}
	if got := refs(); len(got) != 0 {
		t.Fatalf("after smile delete: %v", got)
	}
}

// A checkpoint whose snapshot is gone is dropped, and the attempt starts
// from the top instead of failing again and again.
func TestMissingSnapshotFallsBackToTheTop(t *testing.T) {
	h := newHarness(t, "")
	h.settle()
	h.postStudent(askChmod)
	h.settle()
	run := h.state()
	run.Status.Checkpoints = []status.Checkpoint{{Ref: "smile-checkpoint:gone", Iteration: 1, Line: 6, Image: "smile-base:latest",
		Key: checkpoints.Key("smile-base:latest", status.StepsKey(tutorialMD, 6, nil))}}
	if err := store.Save(h.stateFile(), run); err != nil {
		t.Fatal(err)
	}
	h.postMentor("make it executable", &wire.MentorAdvice{Resolution: status.ResolutionWorkaround, Line: 6, Workaround: "chmod +x run.sh"})
	run = h.settle()
	if run.Status.Phase != status.PhaseWaitingForStudent || run.Status.Iteration != 2 {
		t.Fatalf("phase %s iteration %d, want the second Student at work", run.Status.Phase, run.Status.Iteration)
	}
	if a := run.Status.Attempt; a.ResumedFrom != nil || len(run.Status.Checkpoints) != 0 {
		t.Fatalf("attempt %+v, checkpoints %+v: want the top, and the checkpoint forgotten", a, run.Status.Checkpoints)
	}
	dropped := slices.ContainsFunc(run.Status.Timeline, func(e status.TimelineEntry) bool {
		return e.Event == "CheckpointDropped" && strings.Contains(e.Details, "smile-checkpoint:gone")
	})
	if !dropped {
		t.Errorf("timeline %+v lacks CheckpointDropped", run.Status.Timeline)
	}
	if cs, _ := h.rt.Spec(run.Status.Attempt.Container); cs.Image != "smile-base:latest" {
		t.Errorf("the attempt's image is %q, want the run's", cs.Image)
	}
}

// A clean replay's checkpoint is a clean start: a completion from it needs
// no replay of its own, and a verification replay starts from one.
func TestCleanCheckpoints(t *testing.T) {
	d := plantest.Desired()
	d.Config.LLMProvider = spec.ProviderLiteral
	d.Tutorial = &spec.Tutorial{Content: cpTutorial}
	fromClean := plantest.RunIn(status.PhaseWaitingForStudent, 2)
	fromClean.Status.Attempt.ResumedFrom = &status.Resumed{Ref: "snap", Line: 4, Clean: true}
	plan := planner.Decide(planner.Input{Now: t0, Desired: d, Run: fromClean, Observed: planner.Observed{Result: plantest.StudentPosted(status.StudentCompleted)}})
	if plan.Phase != status.PhaseCompleted || plan.Verify {
		t.Fatalf("plan %+v, want Completed without a replay", plan)
	}

	replay := plantest.RunIn(status.PhaseRunningStudent, 3)
	replay.Status.Verification = &status.Verification{Iteration: 3}
	dirty := checkpointAt(1, 8, d.Config.ContainerImage, cpTutorial, nil)
	clean := checkpointAt(2, 4, d.Config.ContainerImage, cpTutorial, nil)
	clean.Clean = true
	replay.Status.Checkpoints = []status.Checkpoint{dirty, clean}
	plan = planner.Decide(planner.Input{Now: t0, Desired: d, Run: replay})
	if plan.From == nil || plan.From.Ref != clean.Ref {
		t.Fatalf("the verification replay starts from %+v, want the clean checkpoint only", plan.From)
	}
	next := plantest.RunIn(status.PhaseRunningStudent, 2)
	next.Status.Checkpoints = []status.Checkpoint{dirty, clean}
	if plan = planner.Decide(planner.Input{Now: t0, Desired: d, Run: next}); plan.From == nil || plan.From.Ref != clean.Ref {
		t.Fatalf("an attempt starts from %+v, want the clean checkpoint before a deeper one (which a replay would follow)", plan.From)
	}
}

// resume: checkpoint with a provider whose Student keeps no checkpoints is
// said on the run, once per generation: every iteration starts from the top.
func TestResumeCheckpointIgnoredIsAnEvent(t *testing.T) {
	h := newHarness(t, "")
	manifest := filepath.Join(h.dir, "run.yaml")
	write(t, manifest, "apiVersion: smile.dev/v1alpha1\nkind: SmileRun\nmetadata: {name: demo}\nspec:\n  llmProvider: claude\n  resume: checkpoint\n  maxIterations: 3\n")
	m, err := runfile.Load(manifest)
	if err != nil {
		t.Fatal(err)
	}
	h.rec.Runs = mapSource{"demo": {Manifest: m, Dir: h.dir, Path: manifest}}
	run := h.settle()
	var said []string
	for _, e := range run.Status.Timeline {
		if e.Event == "SettingIgnored" {
			said = append(said, e.Details)
		}
	}
	if len(said) != 1 || !strings.HasPrefix(said[0], "resume: checkpoint is ignored with llmProvider claude: only literal keeps checkpoints") {
		t.Fatalf("SettingIgnored events %q, want one about resume", said)
	}
	if a := run.Status.Attempt; a == nil || a.ResumedFrom != nil {
		t.Fatalf("attempt %+v, want the Student started from the top", a)
	}
}
