package wrappers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/smile-loop/smile/learner"
	"github.com/smile-loop/smile/status/wire"

	"github.com/go-logr/logr"

	"github.com/smile-loop/smile/learner/agent"
	"github.com/smile-loop/smile/learner/callback"
	"github.com/smile-loop/smile/learner/provider"
	"github.com/smile-loop/smile/status"
)

// Exit codes of the wrapper.
const (
	// ExitPosted: the result was posted (or, without a callback URL, written).
	ExitPosted = 0
	// ExitNotPosted: the result is in result.json but the controller did not
	// take it.
	ExitNotPosted = 1
	// ExitBadTask: the task could not be read; there is no result.
	ExitBadTask = 2
	// ExitProviderUnavailable: the provider could not run (E10: its CLI is
	// missing, or this build does not support it). A result saying so was
	// still written and posted.
	ExitProviderUnavailable = 3
)

// ResultFileName is the file in the logs folder that keeps the result body,
// so it survives a failed callback.
const ResultFileName = "result.json"

// Main runs the wrapper and returns its exit code. A panic outside a
// provider (those become results: safePlay) is logged and ends the wrapper
// with ExitNotPosted rather than a crash without a word.
func Main() (code int) {
	log := logr.FromSlogHandler(slog.NewTextHandler(os.Stderr, nil)).WithName("smile-wrapper")
	defer func() {
		if r := recover(); r != nil {
			log.Error(fmt.Errorf("panic: %v", r), "The wrapper failed")
			code = ExitNotPosted
		}
	}()
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	if code, ok := subcommand(ctx, os.Args[1:]); ok {
		return code
	}
	return run(ctx, log, os.Getenv, containerLayout)
}

// layout is where the container's folders are mounted.
type layout struct {
	work, tutorial, logs string
}

var containerLayout = layout{work: wire.ContainerWorkDir, tutorial: wire.ContainerTutorialDir, logs: wire.ContainerLogsDir}

func run(ctx context.Context, log logr.Logger, getenv func(string) string, dirs layout) int {
	taskPath := getenv(wire.EnvTask)
	if taskPath == "" {
		taskPath = filepath.Join(dirs.logs, wire.TaskFileName)
	}
	task, err := readTask(taskPath)
	if err != nil {
		log.Error(err, "Cannot read task", "path", taskPath)
		return ExitBadTask
	}
	log = log.WithValues("run", task.Run, "role", string(task.Role), "iteration", task.Iteration, "provider", string(task.Provider))
	log.Info("Starting")

	var client *callback.Client
	if url := getenv(wire.EnvCallbackURL); url != "" {
		client = callback.New(url, getenv(wire.EnvToken), task.Attempt, log)
		if sock := getenv(wire.EnvRelaySocket); sock != "" {
			client.OverSocket(sock)
		}
	} else {
		log.Info("No callback URL: the result is only written to the logs folder")
	}
	env := provider.Env{
		WorkDir:     dirs.work,
		TutorialDir: dirs.tutorial,
		LogsDir:     dirs.logs,
		Progress:    provider.NoProgress,
		Log:         log,
	}
	if client != nil {
		env.Progress = client.Progress
	}
	env.Progress(ctx, "starting", 0)

	path, body, provErr := learner.SafePlay(ctx, task, learner.For(task.Provider), env)
	keyEnv := ""
	if task.LLM != nil {
		keyEnv = task.LLM.APIKeyEnv
	}
	secrets := agent.Secrets(getenv, keyEnv)
	body = fit(redact(body, secrets), MaxResultBytes)
	code := ExitPosted
	if provErr != nil {
		log.Error(errors.New(status.Redact(provErr.Error(), secrets...)), "Provider cannot run")
		code = ExitProviderUnavailable
	}
	resultPath := filepath.Join(env.LogsDir, ResultFileName)
	if err := writeResult(resultPath, body); err != nil {
		log.Error(err, "Cannot write result file", "path", resultPath)
	}
	if client == nil {
		return code
	}
	postCtx := ctx
	if ctx.Err() != nil {
		// Stopped (docker stop): still try to deliver what was done, within
		// the grace period.
		var cancel context.CancelFunc
		postCtx, cancel = context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
	}
	resp, err := client.PostResult(postCtx, path, body)
	if err != nil {
		log.Error(err, "Result not delivered", "path", path)
		return ExitNotPosted
	}
	log.Info("Result delivered", "path", path, "nextAction", resp.NextAction)
	return code
}

// redact replaces every API key the container holds in the result body: a
// tutorial command that prints its environment must not carry a key into
// the controller's files.
func redact(body any, secrets []string) any {
	status.RedactAll(body) // credentials a tutorial printed (a CI job's token)
	if len(secrets) == 0 {
		return body
	}
	data, err := json.Marshal(body)
	if err != nil {
		return body
	}
	clean := string(data)
	for _, s := range secrets {
		clean = strings.ReplaceAll(clean, s, status.Redacted)
	}
	if clean == string(data) {
		return body
	}
	var out any
	switch body.(type) {
	case *wire.StudentResultRequest:
		out = &wire.StudentResultRequest{}
	case *wire.MentorResultRequest:
		out = &wire.MentorResultRequest{}
	default:
		return json.RawMessage(clean)
	}
	if err := json.Unmarshal([]byte(clean), out); err != nil {
		return json.RawMessage(clean)
	}
	return out
}

func readTask(path string) (*wire.Task, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read task: %w", err)
	}
	var task wire.Task
	if err := json.Unmarshal(data, &task); err != nil {
		return nil, fmt.Errorf("read task %s: %w", path, err)
	}
	switch task.Role {
	case status.RoleStudent, status.RoleMentor:
	default:
		return nil, fmt.Errorf("read task %s: %w: role %q", path, errBadRole, task.Role)
	}
	return &task, nil
}

var errBadRole = errors.New("role must be student or mentor")

// writeResult writes the body atomically: a reader sees the old file or the
// whole new one.
func writeResult(path string, body any) error {
	data, err := json.MarshalIndent(body, "", "  ")
	if err != nil {
		return fmt.Errorf("encode result: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("write result: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(append(data, '\n')); err != nil {
		tmp.Close()
		return fmt.Errorf("write result: %w", err)
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return fmt.Errorf("write result: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write result: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("write result: %w", err)
	}
	return nil
}
