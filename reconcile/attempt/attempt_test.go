package attempt

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/smile-loop/smile/reconcile/internal/plantest"
	"github.com/smile-loop/smile/runtime"
	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/status"
	"github.com/smile-loop/smile/status/wire"
	"github.com/smile-loop/smile/wrappers"
)

// attemptSpec is the whole of an attempt's task and container: compared as
// structs, so a changed mount, label or variable shows here.
func TestAttemptSpec(t *testing.T) {
	base := func(provider spec.Provider, network spec.Network) *spec.Desired {
		d := plantest.Desired()
		d.Config.LLMProvider, d.Config.StudentNetwork = provider, network
		d.Config.Models = spec.Models{Student: "s-model", Mentor: "m-model"}
		d.Paths.Tutorial = "/home/u/tut/tutorial.md"
		d.Digest = "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
		return d
	}
	in := func(d *spec.Desired, role status.Role, inProcess bool) Input {
		return Input{Desired: d, Role: role, Iteration: 2, RunStarted: plantest.T0, Now: plantest.T0.Add(100 * time.Second),
			Name: "smile-demo-x", Work: "/w", Logs: "/l", CallbackURL: "http://host.docker.internal:9", WrapperPath: "/bin/smile-wrapper",
			Instance: "inst", StateKey: "key", InProcess: inProcess, HiddenDirs: []string{"/workspace/tutorial/.smile"}}
	}
	labels := func(role status.Role) map[string]string {
		return map[string]string{runtime.LabelOwner: runtime.OwnerValue, runtime.LabelRun: "demo", runtime.LabelRole: string(role),
			runtime.LabelIteration: "2", runtime.LabelInstance: "inst", runtime.LabelInputs: "0123456789ab", runtime.LabelStateKey: "key"}
	}
	mounts := []runtime.Mount{
		{Source: "/home/u/tut", Target: wire.ContainerTutorialDir, ReadOnly: true},
		{Source: "/w", Target: wire.ContainerWorkDir},
		{Source: "/l", Target: wire.ContainerLogsDir},
		{Source: "/bin/smile-wrapper", Target: wire.ContainerWrapperPath, ReadOnly: true},
	}
	resources := spec.DefaultConfig().Container.Resources()
	// Every attempt, whatever its learner, is confined alike.
	confined := runtime.Confinement{NoNewPrivileges: true, CapDrop: []string{"MKNOD", "FSETID", "SETFCAP"}, NoTrace: true}

	claudeNone := in(base(spec.ProviderClaude, spec.NetworkNone), status.RoleStudent, false)
	claudeNone.Token, claudeNone.KeyEnv, claudeNone.RelayDir = "tok", []string{"ANTHROPIC_API_KEY=k"}, "/tmp/relay"
	literal := in(base(spec.ProviderLiteral, spec.NetworkBridge), status.RoleStudent, true)
	// A page about gdb asks for tracing: only NoTrace changes.
	tracing := in(base(spec.ProviderLiteral, spec.NetworkBridge), status.RoleStudent, true)
	tracing.Desired.Config.Container.AllowPtrace = true
	literalSpec := runtime.ContainerSpec{
		Name: "smile-demo-x", Image: spec.DefaultConfig().ContainerImage, Cmd: []string{wire.ContainerWrapperPath, wrappers.CmdIdle},
		Labels:     labels(status.RoleStudent),
		Mounts:     []runtime.Mount{mounts[0], mounts[1], mounts[3]},
		WorkingDir: wire.ContainerWorkDir, Network: "bridge", Resources: resources, Confinement: confined,
		EmptyDirs: []string{"/workspace/tutorial/.smile"},
	}
	tracingSpec := literalSpec
	tracingSpec.Confinement.NoTrace = false

	for _, tc := range []struct {
		name     string
		in       Input
		wantLLM  *wire.TaskLLM
		wantSpec runtime.ContainerSpec
	}{
		{
			name: "a vendor CLI without a network: token, key and the relay",
			in:   claudeNone,
			wantLLM: &wire.TaskLLM{Model: "s-model", MaxTurns: spec.DefaultConfig().MaxTurns.Student,
				TimeoutSeconds: min(spec.DefaultConfig().InvocationTimeoutSeconds.Student, 600-100-5), Network: spec.NetworkNone},
			wantSpec: runtime.ContainerSpec{
				Name: "smile-demo-x", Image: spec.DefaultConfig().ContainerImage, Cmd: []string{wire.ContainerWrapperPath},
				Env: []string{wire.EnvTask + "=/workspace/logs/task.json", wire.EnvCallbackURL + "=http://host.docker.internal:9",
					wire.EnvToken + "=tok", "ANTHROPIC_API_KEY=k", wire.EnvRelaySocket + "=/opt/smile/relay/smile.sock"},
				Labels:     labels(status.RoleStudent),
				Mounts:     append(append([]runtime.Mount{}, mounts...), runtime.Mount{Source: "/tmp/relay", Target: wire.ContainerRelayDir, ReadOnly: true}),
				WorkingDir: wire.ContainerWorkDir, Network: "none", Resources: resources, Confinement: confined,
				EmptyDirs: []string{"/workspace/tutorial/.smile"},
			},
		},
		{
			name:     "the literal learner: hands only, no token, no task mount",
			in:       literal,
			wantSpec: literalSpec,
		},
		{
			name:     "container.allowPtrace: the same, tracing allowed",
			in:       tracing,
			wantSpec: tracingSpec,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			task, cs := Spec(tc.in, wire.Task{Role: tc.in.Role})
			wantTask := wire.Task{Run: "demo", Role: tc.in.Role, Provider: tc.in.Desired.Config.LLMProvider, Iteration: 2,
				Attempt: "smile-demo-x", Tutorial: "/workspace/tutorial/tutorial.md", Behavior: tc.in.Desired.Config.StudentBehavior, LLM: tc.wantLLM}
			if tc.wantLLM != nil {
				wantTask.LLM.Prices = tc.in.Desired.Config.Prices
			}
			if !reflect.DeepEqual(task, wantTask) {
				t.Errorf("task =\n  %+v\nwant\n  %+v", task, wantTask)
			}
			if !reflect.DeepEqual(cs, tc.wantSpec) {
				t.Errorf("container spec =\n  %+v\nwant\n  %+v", cs, tc.wantSpec)
			}
		})
	}
}

// TestTaskCarriesRunnersAndSetup: smile.json's runners and setup reach the
// task; unset, the task has none.
func TestTaskCarriesRunnersAndSetup(t *testing.T) {
	d := plantest.Desired()
	d.Digest = "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	in := Input{Desired: d, Role: status.RoleStudent, Iteration: 1, RunStarted: plantest.T0, Now: plantest.T0}
	if task, _ := Spec(in, wire.Task{}); task.Runners != nil || task.Setup != nil {
		t.Errorf("unset: runners %v, setup %v; want none", task.Runners, task.Setup)
	}
	d.Config.Runners, d.Config.Setup = map[string]string{"sql": "sqlite3 x.db"}, []string{"mkdir data"}
	task, _ := Spec(in, wire.Task{})
	if task.Runners["sql"] != "sqlite3 x.db" || len(task.Setup) != 1 || task.Setup[0] != "mkdir data" {
		t.Errorf("task runners %v, setup %v", task.Runners, task.Setup)
	}
}

// TestTaskCarriesThePagesFrontMatter: the page's own `smile:` settings,
// read by the controller, travel in the task (the wrapper reads no YAML);
// a page without them sends none.
func TestTaskCarriesThePagesFrontMatter(t *testing.T) {
	d := plantest.Desired()
	d.Digest = "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	in := Input{Desired: d, Role: status.RoleStudent, Iteration: 1, RunStarted: plantest.T0, Now: plantest.T0}
	if d.Tutorial == nil {
		d.Tutorial = &spec.Tutorial{}
	}
	if task, _ := Spec(in, wire.Task{}); task.Page != nil {
		t.Errorf("a page without front matter settings sent %+v", task.Page)
	}
	d.Tutorial.Steering = spec.PageSteering{Runners: map[string]string{"sql": "sqlite3 p.db"}, Setup: []string{"touch a"}, Line: 3}
	task, _ := Spec(in, wire.Task{})
	if task.Page == nil || task.Page.Runners["sql"] != "sqlite3 p.db" || task.Page.Line != 3 || len(task.Page.Setup) != 1 {
		t.Errorf("task page settings %+v", task.Page)
	}
}

// A page at a repository's root is mounted with the checkout, whose .git
// holds the CI job's token; version control's folders are hidden like
// SMILE's own, a .git that is a file (a worktree's) holds only a path.
func TestHiddenDirsCoverVersionControl(t *testing.T) {
	repo := t.TempDir()
	for _, dir := range []string{".git", ".hg", ".smile/runs/docs", "src/.git"} {
		if err := os.MkdirAll(filepath.Join(repo, dir), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	d := &spec.Desired{Name: "docs", Workspace: repo, Dir: repo, Paths: spec.Paths{
		Tutorial: filepath.Join(repo, "README.md"), StateFile: filepath.Join(repo, ".smile", "runs", "docs", "state.json")}}
	got := HiddenDirs(d)
	want := []string{"/workspace/tutorial/.smile/runs/docs", "/workspace/tutorial/.smile", "/workspace/tutorial/.git", "/workspace/tutorial/.hg"}
	if !slices.Equal(got, want) {
		t.Errorf("HiddenDirs = %q, want %q", got, want)
	}

	worktree := t.TempDir()
	if err := os.WriteFile(filepath.Join(worktree, ".git"), []byte("gitdir: /elsewhere\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	d = &spec.Desired{Name: "docs", Workspace: worktree, Dir: worktree, Paths: spec.Paths{
		Tutorial: filepath.Join(worktree, "README.md"), StateFile: filepath.Join(worktree, ".smile", "runs", "docs", "state.json")}}
	if got := HiddenDirs(d); len(got) != 0 {
		t.Errorf("HiddenDirs with a .git file and no state folders yet = %q, want none", got)
	}
}

// TestSpecUser: container.user reaches the learner as the account the
// page's commands run as; unset, they run as the hands' own user.
func TestSpecUser(t *testing.T) {
	d := plantest.Desired()
	d.Config.LLMProvider = spec.ProviderLiteral
	d.Paths.Tutorial = "/home/u/tut/tutorial.md"
	d.Digest = "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	as := Input{Desired: d, Role: status.RoleStudent, Iteration: 1, RunStarted: plantest.T0, Now: plantest.T0,
		Name: "smile-demo-x", Work: "/w", Logs: "/l", WrapperPath: "/bin/smile-wrapper", InProcess: true}
	if task, _ := Spec(as, wire.Task{Role: status.RoleStudent}); task.User != "" {
		t.Errorf("unset: task.User = %q", task.User)
	}
	as.Desired.Config.Container.User = "nobody"
	if task, _ := Spec(as, wire.Task{Role: status.RoleStudent}); task.User != "nobody" {
		t.Errorf("container.user nobody: task.User = %q", task.User)
	}
}
