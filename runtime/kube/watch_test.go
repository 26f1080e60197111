package kube

import (
	"context"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
)

// The API server ends watches (its timeout, a dropped connection): Watch
// opens a new one, from the last version it saw, and the caller's channel
// goes on; before, it closed with nothing in it (a flaky cluster test).
func TestWatchOutlivesTheServersEnd(t *testing.T) {
	cs := fake.NewSimpleClientset()
	var mu sync.Mutex
	var watchers []*watch.FakeWatcher
	var versions []string
	cs.PrependWatchReactor("pods", func(a k8stesting.Action) (bool, watch.Interface, error) {
		mu.Lock()
		defer mu.Unlock()
		w := watch.NewFakeWithChanSize(4, false)
		watchers = append(watchers, w)
		versions = append(versions, a.(k8stesting.WatchActionImpl).GetWatchRestrictions().ResourceVersion)
		return true, w, nil
	})
	r := &Runtime{cs: cs, opts: Options{Namespace: "default"}}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	events, err := r.Watch(ctx, map[string]string{"smile.dev/run": "w"})
	if err != nil {
		t.Fatal(err)
	}
	pod := func(phase corev1.PodPhase, version string) *corev1.Pod {
		return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", ResourceVersion: version}, Status: corev1.PodStatus{Phase: phase}}
	}
	watcher := func(i int) *watch.FakeWatcher {
		for {
			mu.Lock()
			if len(watchers) > i {
				w := watchers[i]
				mu.Unlock()
				return w
			}
			mu.Unlock()
			if ctx.Err() != nil {
				t.Fatalf("watch %d was never opened: the first one's end ended Watch", i+1)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	watcher(0).Add(pod(corev1.PodRunning, "7"))
	first := <-events
	watcher(0).Stop() // the server ends the watch
	watcher(1).Delete(pod(corev1.PodRunning, "9"))
	var second struct {
		action string
		open   bool
	}
	select {
	case ev, ok := <-events:
		second.action, second.open = ev.Action, ok
	case <-ctx.Done():
		t.Fatal("no event after the server ended the first watch")
	}
	if first.Action == "" || !second.open || second.action != "destroy" {
		t.Errorf("events %q then %q (open %v), want one then destroy", first.Action, second.action, second.open)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(versions) != 2 || versions[1] != "7" {
		t.Errorf("watches opened from versions %q, want the second from 7, the last seen", versions)
	}
}
