package docker

import (
	"context"
	"encoding/json"
	"io"
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/docker/docker/api/types/events"
	"github.com/docker/docker/api/types/network"
	"github.com/moby/profiles/seccomp"
	"github.com/opencontainers/runtime-spec/specs-go"

	"github.com/smile-loop/smile/runtime"
)

// TestGatewayIP covers the fallbacks engines need: 20.10 leaves the
// bridge's IPAM gateway empty.
func TestGatewayIP(t *testing.T) {
	bridge := func(gw, subnet, iface string) network.Inspect {
		n := network.Inspect{Name: "bridge", Options: map[string]string{}}
		if gw != "" || subnet != "" {
			n.IPAM.Config = []network.IPAMConfig{{Gateway: gw, Subnet: subnet}}
		}
		if iface != "" {
			n.Options[bridgeNameOption] = iface
		}
		return n
	}
	tests := []struct {
		name string
		in   network.Inspect
		want string
	}{
		{"IPAM gateway", bridge("172.18.0.1", "172.18.0.0/16", "lo"), "172.18.0.1"},
		{"interface address", bridge("", "127.0.0.0/8", "lo"), "127.0.0.1"},
		{"interface elsewhere: first of subnet", bridge("", "10.9.8.0/24", "smile-no-such-if"), "10.9.8.1"},
		{"unmasked subnet", bridge("", "10.9.8.7/24", ""), "10.9.8.1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := gatewayIP(tt.in)
			if err != nil || got != tt.want {
				t.Fatalf("gatewayIP = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
	if got, err := gatewayIP(bridge("", "", "")); err == nil {
		t.Fatalf("gatewayIP of an empty network = %q, want an error", got)
	}
}

func TestToEvent(t *testing.T) {
	attrs := map[string]string{"name": "c1", "image": "smile-base:latest", "exitCode": "3", "smile.dev/run": "r"}
	tests := []struct {
		msg    events.Message
		want   string
		wantOK bool
	}{
		{events.Message{Type: events.ContainerEventType, Action: events.ActionDie, Actor: events.Actor{Attributes: attrs}}, "die", true},
		{events.Message{Type: events.ContainerEventType, Action: "exec_start: sh -c true", Actor: events.Actor{Attributes: attrs}}, "exec_start", true},
		{events.Message{Type: events.NetworkEventType, Action: "connect"}, "", false},
	}
	for _, tt := range tests {
		e, ok := toEvent(tt.msg)
		if ok != tt.wantOK || e.Action != tt.want {
			t.Fatalf("toEvent(%s %s) = %+v, %v; want action %q, %v", tt.msg.Type, tt.msg.Action, e, ok, tt.want, tt.wantOK)
		}
		if ok && (e.Container != "c1" || !maps.Equal(e.Labels, map[string]string{"smile.dev/run": "r"})) {
			t.Fatalf("toEvent = %+v, want container c1 with only its labels", e)
		}
	}
}

// TestForward checks what a reconnect relies on: the stream's end is
// reported, and "since" moves just past the last event so none repeats.
func TestForward(t *testing.T) {
	r := &Runtime{}
	msgs := make(chan events.Message, 1)
	errs := make(chan error, 1)
	out := make(chan runtime.Event, 1)
	since := time.Unix(100, 0)
	msgs <- events.Message{Type: events.ContainerEventType, Action: events.ActionStart, TimeNano: 5_000_000_123,
		Actor: events.Actor{Attributes: map[string]string{"name": "c1"}}}
	go func() {
		time.Sleep(50 * time.Millisecond)
		errs <- io.ErrUnexpectedEOF
	}()
	if err := r.forward(context.Background(), msgs, errs, out, &since); err != nil {
		t.Fatalf("forward after delivering an event = %v, want nil (reconnect at once)", err)
	}
	if e := <-out; e.Container != "c1" || e.Action != "start" {
		t.Fatalf("forwarded %+v, want c1 start", e)
	}
	if got := timestamp(since); got != "5.000000124" {
		t.Fatalf("since = %s, want 5.000000124", got)
	}

	errs <- io.ErrUnexpectedEOF
	if err := r.forward(context.Background(), msgs, errs, out, &since); err == nil {
		t.Fatal("forward of a stream that failed at once = nil, want the error (back off)")
	}
}

// TestResources: the limits reach Docker's HostConfig, swap capped with
// memory, and zero means Docker's default (no cap).
func TestResources(t *testing.T) {
	tests := []struct {
		name                   string
		in                     runtime.Resources
		pids, mem, swap, nanos int64
	}{
		{"defaults", runtime.Resources{PidsLimit: 512, MemoryBytes: 2 << 30, NanoCPUs: 2e9}, 512, 2 << 30, 2 << 30, 2e9},
		{"none", runtime.Resources{}, 0, 0, 0, 0},
		{"fractional cpus", runtime.Resources{NanoCPUs: 1.5e9}, 0, 0, 0, 1.5e9},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, host, err := containerConfig(runtime.ContainerSpec{Image: "x", Resources: tt.in}, "net-id")
			if err != nil {
				t.Fatal(err)
			}
			var pids int64
			if host.PidsLimit != nil {
				pids = *host.PidsLimit
			}
			if pids != tt.pids || host.Memory != tt.mem || host.MemorySwap != tt.swap || host.NanoCPUs != tt.nanos {
				t.Fatalf("host resources = pids %d memory %d swap %d cpus %d; want %d %d %d %d",
					pids, host.Memory, host.MemorySwap, host.NanoCPUs, tt.pids, tt.mem, tt.swap, tt.nanos)
			}
		})
	}
}

// TestNoTraceProfile: NoTrace names a seccomp profile, the engine's default
// less the tracing calls, which it still allows everything else it did;
// without NoTrace the engine's own default stands (no seccomp option).
func TestNoTraceProfile(t *testing.T) {
	_, host, err := containerConfig(runtime.ContainerSpec{Image: "x", Confinement: runtime.Confinement{NoTrace: true}}, "net-id")
	if err != nil {
		t.Fatal(err)
	}
	var profile string
	for _, o := range host.SecurityOpt {
		if p, ok := strings.CutPrefix(o, "seccomp="); ok {
			profile = p
		}
	}
	if profile == "" {
		t.Fatalf("security options %q: no seccomp profile", host.SecurityOpt)
	}
	var p seccomp.Seccomp
	if err := json.Unmarshal([]byte(profile), &p); err != nil {
		t.Fatal(err)
	}
	allowed := map[string]bool{}
	for _, s := range p.Syscalls {
		if s.Action == specs.ActAllow {
			for _, n := range s.Names {
				allowed[n] = true
			}
		}
	}
	for _, n := range []string{"ptrace", "process_vm_readv", "process_vm_writev"} {
		if allowed[n] {
			t.Errorf("%s is still allowed", n)
		}
	}
	for _, n := range []string{"read", "clone", "execve", "wait4", "kill"} {
		if !allowed[n] {
			t.Errorf("%s is no longer allowed: the profile must be the default less tracing only", n)
		}
	}
	if p.DefaultAction != specs.ActErrno {
		t.Errorf("default action %s, want %s: a refused call must fail, not kill", p.DefaultAction, specs.ActErrno)
	}
	_, host, err = containerConfig(runtime.ContainerSpec{Image: "x"}, "net-id")
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range host.SecurityOpt {
		if strings.HasPrefix(o, "seccomp=") {
			t.Errorf("no NoTrace, yet a seccomp option: %.60s", o)
		}
	}
}
