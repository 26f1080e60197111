package fake_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/smile-loop/smile/runtime"
	"github.com/smile-loop/smile/runtime/fake"
)

const image = "smile-base:latest"

func spec(name, run string) runtime.ContainerSpec {
	return runtime.ContainerSpec{
		Name:   name,
		Image:  image,
		Cmd:    []string{"sleep", "infinity"},
		Labels: map[string]string{runtime.LabelOwner: runtime.OwnerValue, runtime.LabelRun: run},
	}
}

func TestStartRecordsSpecAndReplacesLeftover(t *testing.T) {
	ctx := context.Background()
	rt := fake.New(image)
	want := spec("a", "r1")
	want.Mounts = []runtime.Mount{{Source: t.TempDir(), Target: "/workspace/work"}}
	first, err := rt.Start(ctx, want)
	if err != nil {
		t.Fatal(err)
	}
	if first.State != runtime.StateRunning || first.Name != "a" || first.ID == "" {
		t.Fatalf("Start = %+v, want a running container named a", first)
	}
	got, ok := rt.Spec("a")
	if !ok || got.Mounts[0].Target != "/workspace/work" || got.Labels[runtime.LabelRun] != "r1" {
		t.Fatalf("Spec(a) = %+v, %v; want the spec given to Start", got, ok)
	}

	second, err := rt.Start(ctx, spec("a", "r2"))
	if err != nil {
		t.Fatal(err)
	}
	if second.ID == first.ID {
		t.Fatalf("second Start kept ID %s; want a new container", first.ID)
	}
	if _, err := rt.Inspect(ctx, first.ID); !errors.Is(err, runtime.ErrNotFound) {
		t.Fatalf("Inspect(old ID) error = %v, want ErrNotFound", err)
	}
}

func TestStartRefusesWhatDockerRefuses(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name   string
		mutate func(*runtime.ContainerSpec)
		is     error
	}{
		{"missing image", func(s *runtime.ContainerSpec) { s.Image = "nope:1" }, runtime.ErrImageNotFound},
		{"missing mount source", func(s *runtime.ContainerSpec) {
			s.Mounts = []runtime.Mount{{Source: "/does/not/exist", Target: "/x"}}
		}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rt := fake.New(image)
			s := spec("a", "r")
			tt.mutate(&s)
			_, err := rt.Start(ctx, s)
			if err == nil {
				t.Fatal("Start succeeded, want an error")
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Fatalf("Start error = %v, want %v", err, tt.is)
			}
			if cs, _ := rt.List(ctx, nil); len(cs) != 0 {
				t.Fatalf("List after failed Start = %v, want nothing", cs)
			}
		})
	}
}

func TestListFiltersByLabels(t *testing.T) {
	ctx := context.Background()
	rt := fake.New(image)
	for _, s := range []runtime.ContainerSpec{spec("b", "r1"), spec("a", "r1"), spec("c", "r2")} {
		if _, err := rt.Start(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		selector map[string]string
		want     []string
	}{
		{nil, []string{"a", "b", "c"}},
		{map[string]string{runtime.LabelRun: "r1"}, []string{"a", "b"}},
		{map[string]string{runtime.LabelRun: "r1", runtime.LabelOwner: runtime.OwnerValue}, []string{"a", "b"}},
		{map[string]string{runtime.LabelRun: "r3"}, nil},
		{map[string]string{"other": ""}, nil},
	}
	for _, tt := range tests {
		cs, err := rt.List(ctx, tt.selector)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, c := range cs {
			names = append(names, c.Name)
		}
		if !slices.Equal(names, tt.want) {
			t.Errorf("List(%v) = %v, want %v", tt.selector, names, tt.want)
		}
	}
}

func TestExitStopRemoveVanish(t *testing.T) {
	ctx := context.Background()
	rt := fake.New(image)
	for _, n := range []string{"a", "b", "c"} {
		if _, err := rt.Start(ctx, spec(n, "r")); err != nil {
			t.Fatal(err)
		}
	}
	rt.Exit("a", 3)
	if c, _ := rt.Inspect(ctx, "a"); c.State != runtime.StateExited || c.ExitCode != 3 || c.FinishedAt.IsZero() {
		t.Fatalf("after Exit(a, 3): %+v, want exited with code 3", c)
	}
	if err := rt.Stop(ctx, "b", time.Second); err != nil {
		t.Fatal(err)
	}
	if c, _ := rt.Inspect(ctx, "b"); c.State != runtime.StateExited {
		t.Fatalf("after Stop(b): state %s, want exited", c.State)
	}
	rt.Vanish("c")
	if _, err := rt.Inspect(ctx, "c"); !errors.Is(err, runtime.ErrNotFound) {
		t.Fatalf("Inspect(vanished) error = %v, want ErrNotFound", err)
	}
	if err := rt.Remove(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	if err := rt.Remove(ctx, "never-existed"); err != nil {
		t.Fatalf("Remove(missing) = %v, want nil", err)
	}
	if err := rt.Stop(ctx, "never-existed", 0); !errors.Is(err, runtime.ErrNotFound) {
		t.Fatalf("Stop(missing) = %v, want ErrNotFound", err)
	}
}

func TestExec(t *testing.T) {
	ctx := context.Background()
	rt := fake.New(image)
	if _, err := rt.Start(ctx, spec("a", "r")); err != nil {
		t.Fatal(err)
	}
	if code, out, err := rt.Exec(ctx, "a", []string{"true"}, time.Second); code != 0 || out != "" || err != nil {
		t.Fatalf("default Exec = %d, %q, %v; want 0, \"\", nil", code, out, err)
	}
	rt.SetExec(func(name string, cmd []string) (int, string, error) {
		return 7, name + ":" + strings.Join(cmd, " "), nil
	})
	if code, out, _ := rt.Exec(ctx, "a", []string{"echo", "hi"}, time.Second); code != 7 || out != "a:echo hi" {
		t.Fatalf("scripted Exec = %d, %q; want 7, \"a:echo hi\"", code, out)
	}
	boom := errors.New("boom")
	rt.FailNextExec(boom)
	if _, _, err := rt.Exec(ctx, "a", []string{"x"}, time.Second); !errors.Is(err, boom) {
		t.Fatalf("Exec after FailNextExec = %v, want boom", err)
	}
	if _, _, err := rt.Exec(ctx, "a", []string{"y"}, time.Second); err != nil {
		t.Fatalf("FailNextExec failed a second Exec: %v", err)
	}
	want := [][]string{{"true"}, {"echo", "hi"}, {"x"}, {"y"}}
	if got := rt.Execs("a"); !slices.EqualFunc(got, want, slices.Equal) {
		t.Fatalf("Execs = %v, want %v", got, want)
	}
	rt.Exit("a", 0)
	if _, _, err := rt.Exec(ctx, "a", []string{"z"}, time.Second); err == nil {
		t.Fatal("Exec in an exited container succeeded, want an error")
	}
}

func TestFailuresAndAvailability(t *testing.T) {
	ctx := context.Background()
	rt := fake.New()
	if err := rt.EnsureImage(ctx, image); !errors.Is(err, runtime.ErrImageNotFound) || !strings.Contains(err.Error(), "docker pull") {
		t.Fatalf("EnsureImage(absent) = %v, want ErrImageNotFound saying how to pull", err)
	}
	rt.AddImage(image)
	if err := rt.EnsureImage(ctx, image); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	rt.FailNextStart(boom)
	if _, err := rt.Start(ctx, spec("a", "r")); !errors.Is(err, boom) {
		t.Fatalf("Start after FailNextStart = %v, want boom", err)
	}
	if _, err := rt.Start(ctx, spec("a", "r")); err != nil {
		t.Fatalf("FailNextStart failed a second Start: %v", err)
	}
	rt.SetUnavailable(true)
	if _, err := rt.Info(ctx); !errors.Is(err, runtime.ErrUnavailable) ||
		!strings.HasPrefix(err.Error(), "Docker is required but not available") {
		t.Fatalf("Info while unavailable = %v, want ErrUnavailable", err)
	}
	if _, err := rt.List(ctx, nil); !errors.Is(err, runtime.ErrUnavailable) {
		t.Fatalf("List while unavailable = %v, want ErrUnavailable", err)
	}
	rt.SetUnavailable(false)
	info, err := rt.Info(ctx)
	if err != nil || info.GatewayIP != fake.DefaultGateway {
		t.Fatalf("Info = %+v, %v; want gateway %s", info, err, fake.DefaultGateway)
	}
}

func TestWatch(t *testing.T) {
	rt := fake.New(image)
	ctx, cancel := context.WithCancel(context.Background())
	events, err := rt.Watch(ctx, map[string]string{runtime.LabelRun: "mine"})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []runtime.ContainerSpec{spec("other", "theirs"), spec("a", "mine")} {
		if _, err := rt.Start(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	rt.Exit("other", 1)
	rt.Exit("a", 2)
	if err := rt.Remove(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	var got []string
	for range 4 {
		select {
		case e := <-events:
			got = append(got, e.Container+":"+e.Action)
		case <-time.After(time.Second):
			t.Fatalf("got events %v, then nothing for a second", got)
		}
	}
	want := []string{"a:create", "a:start", "a:die", "a:destroy"}
	if !slices.Equal(got, want) {
		t.Fatalf("events = %v, want %v", got, want)
	}
	cancel()
	select {
	case _, open := <-events:
		if open {
			t.Fatal("an event arrived after the last one")
		}
	case <-time.After(time.Second):
		t.Fatal("Watch channel still open a second after ctx ended")
	}
}

func TestReset(t *testing.T) {
	ctx := context.Background()
	rt := fake.New(image)
	old, err := rt.Start(ctx, spec("it1", "r"))
	if err != nil {
		t.Fatal(err)
	}
	var ran []string
	rt.SetExec(func(name string, cmd []string) (int, string, error) {
		ran = append(ran, name+": "+strings.Join(cmd, " "))
		return 1, "", nil // a failed cleanup: Reset must still replace the container
	})
	next, err := runtime.Reset(ctx, rt, "it1", spec("it2", "r"))
	if err != nil {
		t.Fatal(err)
	}
	if len(ran) != 1 || !strings.HasPrefix(ran[0], "it1: ") || !strings.Contains(ran[0], runtime.CleanupScript) {
		t.Fatalf("Reset ran %q, want the cleanup script in it1", ran)
	}
	if _, err := rt.Inspect(ctx, old.ID); !errors.Is(err, runtime.ErrNotFound) {
		t.Fatalf("Inspect(old) = %v, want ErrNotFound", err)
	}
	if next.Name != "it2" || next.State != runtime.StateRunning {
		t.Fatalf("Reset = %+v, want it2 running", next)
	}
}
