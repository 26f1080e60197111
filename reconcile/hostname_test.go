package reconcile

import (
	"context"
	"strings"
	"testing"

	"github.com/go-logr/logr"

	"github.com/smile-loop/smile/runtime"
	"github.com/smile-loop/smile/runtime/fake"
)

// Containers reach the controller by the name the runtime gives the host;
// reconcile knows no engine's spelling of it.
func TestCallbackURLUsesTheRuntimesHostName(t *testing.T) {
	for _, tc := range []struct{ hostName, want string }{
		{fake.DefaultHostName, "http://host.docker.internal:"},
		{"host.containers.internal", "http://host.containers.internal:"},
	} {
		t.Run(tc.hostName, func(t *testing.T) {
			rt := fake.New()
			rt.SetInfo(runtime.Info{ServerVersion: "20.10", APIVersion: "1.41", GatewayIP: "127.0.0.1", HostName: tc.hostName})
			m := NewManager(Options{Runtime: rt, Log: logr.Discard()})
			ctx, cancel := context.WithCancel(context.Background())
			defer func() { cancel(); m.Wait() }()
			if err := m.Start(ctx); err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(m.rec.CallbackURL, tc.want) {
				t.Errorf("callback URL %q, want it to start with %q", m.rec.CallbackURL, tc.want)
			}
		})
	}
}
