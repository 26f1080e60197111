package relay

import (
	"context"
	"net/url"
	"os"
	"testing"
	"time"

	"github.com/smile-loop/smile/runtime"
	"github.com/smile-loop/smile/runtime/fake"
)

// The relay opens before its container exists (the container mounts its
// folder): it waits for the container, and closes once that has exited.
func TestRelayWaitsForItsContainerThenClosesWithIt(t *testing.T) {
	rt := fake.New("img")
	s := NewSet(rt, 5*time.Millisecond)
	t.Cleanup(s.Close)
	cb, _ := url.Parse("http://127.0.0.1:1")
	dir, err := s.Start(context.Background(), "c1", cb, nil, "", "")
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond) // twenty polls with no container yet
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("the relay closed before its container was created: %v", err)
	}
	if _, err := rt.Start(context.Background(), runtime.ContainerSpec{Name: "c1", Image: "img",
		Mounts: []runtime.Mount{{Source: dir, Target: "/relay"}}}); err != nil {
		t.Fatalf("create the container with the relay's folder: %v", err)
	}
	rt.Exit("c1", 0)
	deadline := time.Now().Add(10 * time.Second)
	for {
		if _, err := os.Stat(dir); os.IsNotExist(err) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the relay outlived its exited container")
		}
		time.Sleep(5 * time.Millisecond)
	}
}
