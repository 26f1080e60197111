// Package attempt builds an attempt's task and container spec from what the
// controller gathered for it, with no I/O: tests compare its output as
// structs.
package attempt

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/smile-loop/smile/runtime"
	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/status"
	"github.com/smile-loop/smile/status/wire"
	"github.com/smile-loop/smile/wrappers"
)

// Input is everything one attempt's task and container are made of:
// the executor gathers it (folders made, token issued, keys read, relay
// opened), Spec only puts it together.
type Input struct {
	Desired    *spec.Desired
	Role       status.Role
	Iteration  int
	RunStarted time.Time
	Now        time.Time
	// Name is the container's; Work and Logs its folders on the host.
	Name, Work, Logs string
	ReadOnlyWork     bool
	CallbackURL      string
	WrapperPath      string
	Instance         string
	StateKey         string
	// InProcess: the learner runs in the controller, the container is only
	// its hands (no token, no task, no key).
	InProcess bool
	// Token is the attempt's callback token (in-container learners only).
	Token string
	// KeyEnv is NAME=value of the provider's keys (vendor CLIs only).
	KeyEnv []string
	// HiddenDirs are the folders masked inside the tutorial mount.
	HiddenDirs []string
	// RelayDir holds the relay's socket of a container without a network
	// whose learner runs inside it ("" otherwise).
	RelayDir string
	// From is the checkpoint a Student attempt starts from (nil: the top).
	From *status.Checkpoint
	// Checkpoints: the Student keeps checkpoints as it goes.
	Checkpoints bool
}

// Network is the network of a role's container: the Student's is
// studentNetwork, the Mentor keeps the bridge (it researches).
func Network(cfg spec.Config, role status.Role) spec.Network {
	if role == status.RoleStudent {
		return cfg.StudentNetwork
	}
	return spec.NetworkBridge
}

// Confined is every attempt's confinement. A tutorial runs as root (for
// apt-get, which also needs SETUID and SETGID to drop to its sandbox user),
// but no exec gains privileges, and it may not make a device node (MKNOD),
// keep a setuid bit on a file it writes to (FSETID) or give a file
// capabilities (SETFCAP): a work folder is a host folder, and what is left
// there must not be a way to root on the host. No process traces another
// (NoTrace): one a page leaves running could otherwise trace the shell that
// runs the page's commands and change the exit code it reports.
var Confined = runtime.Confinement{NoNewPrivileges: true, CapDrop: []string{"MKNOD", "FSETID", "SETFCAP"}, NoTrace: true}

// Confinement is the attempt's confinement under cfg: Confined, with
// tracing allowed when container.allowPtrace asks (a page about gdb).
func Confinement(cfg spec.Config) runtime.Confinement {
	c := Confined
	c.CapDrop = append([]string(nil), Confined.CapDrop...)
	c.NoTrace = !cfg.Container.AllowPtrace
	return c
}

// Spec builds an attempt's task and container spec from what the
// executor gathered, with no I/O: tests compare its output as structs.
func Spec(in Input, task wire.Task) (wire.Task, runtime.ContainerSpec) {
	cfg := in.Desired.Config
	network := Network(cfg, in.Role)
	task.Run, task.Provider, task.Iteration, task.Attempt = in.Desired.Name, cfg.LLMProvider, in.Iteration, in.Name
	task.Tutorial = wire.ContainerTutorialDir + "/" + filepath.Base(in.Desired.Paths.Tutorial)
	task.Behavior = cfg.StudentBehavior
	task.Runners, task.Setup, task.Page = steering(cfg, in.Desired.Tutorial)
	task.User = cfg.Container.User
	if cfg.LLMProvider != spec.ProviderLiteral {
		// Each invocation ends before the run's own timeout does.
		left := int(in.RunStarted.Add(time.Duration(cfg.Timeout)*time.Second).Sub(in.Now) / time.Second)
		role := string(in.Role)
		task.LLM = &wire.TaskLLM{
			Model:          cfg.Models.For(role),
			MaxTurns:       cfg.MaxTurns.For(role),
			TimeoutSeconds: max(1, min(cfg.InvocationTimeoutSeconds.For(role), left-5)),
			Prices:         cfg.Prices,
			Network:        network,
		}
		if cfg.LLMProvider == spec.ProviderOpenAI {
			task.LLM.BaseURL, task.LLM.APIKeyEnv = cfg.OpenAI.BaseURL, cfg.OpenAI.APIKeyEnv
		}
	}
	cs := runtime.ContainerSpec{
		Name:  in.Name,
		Image: cfg.ContainerImage,
		Cmd:   []string{wire.ContainerWrapperPath},
		Env: []string{
			wire.EnvTask + "=" + wire.ContainerLogsDir + "/" + wire.TaskFileName,
			wire.EnvCallbackURL + "=" + in.CallbackURL,
			wire.EnvToken + "=" + in.Token,
		},
		Labels: map[string]string{
			runtime.LabelOwner:     runtime.OwnerValue,
			runtime.LabelRun:       in.Desired.Name,
			runtime.LabelRole:      string(in.Role),
			runtime.LabelIteration: strconv.Itoa(in.Iteration),
			runtime.LabelInstance:  in.Instance,
			runtime.LabelInputs:    strings.TrimPrefix(in.Desired.Digest, "sha256:")[:12],
			runtime.LabelStateKey:  in.StateKey,
		},
		Mounts: []runtime.Mount{
			{Source: filepath.Dir(in.Desired.Paths.Tutorial), Target: wire.ContainerTutorialDir, ReadOnly: true},
			{Source: in.Work, Target: wire.ContainerWorkDir, ReadOnly: in.ReadOnlyWork},
			{Source: in.Logs, Target: wire.ContainerLogsDir},
			{Source: in.WrapperPath, Target: wire.ContainerWrapperPath, ReadOnly: true},
		},
		WorkingDir:  wire.ContainerWorkDir,
		HostGateway: true,
		Network:     string(spec.NetworkBridge),
		Resources:   cfg.Container.Resources(),
		EmptyDirs:   in.HiddenDirs,
		Confinement: Confinement(cfg),
	}
	switch {
	case in.InProcess:
		// The learner runs in the controller; the container is only its hands.
		handsOnly(&cs)
	default:
		// The provider's API key, from the controller's environment, goes
		// into the container's environment only.
		cs.Env = append(cs.Env, in.KeyEnv...)
	}
	task.Checkpoints = in.Checkpoints
	if in.From != nil {
		// The container starts from the snapshot; the Student from its step.
		cs.Image = in.From.Ref
		task.Resume = &wire.Resume{Line: in.From.Line, Shell: in.From.Shell, Learned: in.From.Learned}
	}
	if network == spec.NetworkNone {
		cs.Network, cs.HostGateway = string(spec.NetworkNone), false
		if in.RelayDir != "" {
			cs.Env = append(cs.Env, wire.EnvRelaySocket+"="+wire.ContainerRelayDir+"/"+wire.RelaySocketName)
			cs.Mounts = append(cs.Mounts, runtime.Mount{Source: in.RelayDir, Target: wire.ContainerRelayDir, ReadOnly: true})
		}
	}
	return task, cs
}

// handsOnly turns the container of an in-process attempt into its hands
// only: an idle PID 1, no token, no callback address, no task file, no key.
func handsOnly(cs *runtime.ContainerSpec) {
	cs.Cmd = []string{wire.ContainerWrapperPath, wrappers.CmdIdle}
	cs.Env = nil
	cs.HostGateway = false
	var mounts []runtime.Mount
	for _, m := range cs.Mounts {
		if m.Target != wire.ContainerLogsDir { // the task stays on the host
			mounts = append(mounts, m)
		}
	}
	cs.Mounts = mounts
}

// vcsDirs are version control's metadata folders. A page at a repository's
// root would otherwise show the container its history and the checkout's
// credentials (actions/checkout keeps the job's token in .git/config as an
// http.extraheader); no page needs them to be followed.
var vcsDirs = []string{".git", ".hg", ".svn", ".bzr", ".jj", "_darcs", ".fossil-settings"}

// HiddenDirs are the folders inside the tutorial's folder that no container
// may read, as the container sees them: SMILE's state folders (tokens, other
// attempts' and runs' files, the workspace's controller files) and version
// control's metadata. Each is covered by an empty read-only folder.
func HiddenDirs(d *spec.Desired) []string {
	tutDir := filepath.Dir(d.Paths.Tutorial)
	var out []string
	dirs := []string{filepath.Dir(d.Paths.StateFile), filepath.Join(d.Workspace, ".smile"), filepath.Join(d.Dir, ".smile"), filepath.Join(tutDir, ".smile")}
	for _, vcs := range vcsDirs {
		dirs = append(dirs, filepath.Join(tutDir, vcs))
	}
	for _, dir := range dirs {
		rel, err := filepath.Rel(tutDir, dir)
		if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, "../") {
			continue // outside the mount, or the mount itself
		}
		if info, err := os.Stat(dir); err != nil || !info.IsDir() {
			continue // a mount point must exist in the read-only folder
		}
		target := wire.ContainerTutorialDir + "/" + filepath.ToSlash(rel)
		if !slices.Contains(out, target) {
			out = append(out, target)
		}
	}
	return out
}

// steering is smile.json's runners and setup, and the page's own from its
// front matter (read here: the wrapper reads no YAML), as a task carries
// them: nil when unset, so a task without them is the one it always was.
func steering(cfg spec.Config, t *spec.Tutorial) (map[string]string, []string, *spec.PageSteering) {
	var runners map[string]string
	if len(cfg.Runners) > 0 {
		runners = cfg.Runners
	}
	var setup []string
	if len(cfg.Setup) > 0 {
		setup = cfg.Setup
	}
	var page *spec.PageSteering
	if t != nil && t.Steering.Line > 0 {
		p := t.Steering
		page = &p
	}
	return runners, setup, page
}
