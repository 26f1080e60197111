package spec

import (
	"strings"
	"testing"
)

// TestDefaultContainerLimits: Student and Mentor containers are capped
// without any setting.
func TestDefaultContainerLimits(t *testing.T) {
	c := DefaultConfig().Container
	mem, err := c.Memory.Bytes()
	if err != nil || mem != 2<<30 || c.Pids != 512 || c.CPUs != 2 {
		t.Fatalf("default limits = memory %d (%v), pids %d, cpus %v; want 2 GiB, 512, 2", mem, err, c.Pids, c.CPUs)
	}
}

// TestLoadConfigBounds: every integer setting has an upper bound checked at
// load, and the container limits are checked with messages naming the field.
func TestLoadConfigBounds(t *testing.T) {
	tests := []struct {
		name, json, want string
	}{
		{"huge timeout", `{"timeout": 9223372036}`, "timeout must be at most 604800 (7 days), got 9223372036"},
		{"huge step timeout", `{"studentBehavior": {"timeoutSeconds": 86401}}`, "studentBehavior.timeoutSeconds must be at most 86400 (24 hours), got 86401"},
		{"huge iterations", `{"maxIterations": 1001}`, "maxIterations must be at most 1000, got 1001"},
		{"huge retries", `{"studentBehavior": {"maxRetriesBeforeHelp": 5000}}`, "studentBehavior.maxRetriesBeforeHelp must be at most 1000, got 5000"},
		{"huge turns", `{"maxTurns": {"mentor": 10001}}`, "maxTurns.mentor must be at most 10000, got 10001"},
		{"huge invocation", `{"invocationTimeoutSeconds": {"student": 100000}}`, "invocationTimeoutSeconds.student must be at most 86400 (24 hours), got 100000"},
		{"zero pids", `{"container": {"pids": 0}}`, "container.pids must be a positive integer of at most 4194304, got 0"},
		{"huge pids", `{"container": {"pids": 5000000}}`, "container.pids must be a positive integer of at most 4194304, got 5000000"},
		{"bad memory", `{"container": {"memory": "lots"}}`, `container.memory "lots" is not a size like "512m" or "2g"`},
		{"tiny memory", `{"container": {"memory": "1m"}}`, `container.memory "1m" must be at least 6m (Docker's minimum)`},
		{"huge memory", `{"container": {"memory": "2t"}}`, `container.memory "2t" is more than 1t`},
		{"negative cpus", `{"container": {"cpus": -1}}`, "container.cpus must be a number of CPUs from 0.01 to 1024, got -1"},
		{"huge cpus", `{"container": {"cpus": 2000}}`, "container.cpus must be a number of CPUs from 0.01 to 1024, got 2000"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := loadConfigString(t, tt.json)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("LoadConfig(%s) error = %v, want it to contain %q", tt.json, err, tt.want)
			}
		})
	}
}

// TestByteSize reads the spellings Docker users write.
func TestByteSize(t *testing.T) {
	tests := []struct {
		in   ByteSize
		want int64
	}{
		{"2g", 2 << 30}, {"512m", 512 << 20}, {"512MiB", 512 << 20}, {"1.5g", 3 << 29},
		{"100000000", 100000000}, {"64k", 64 << 10}, {"1T", 1 << 40}, {"2GB", 2 << 30},
	}
	for _, tt := range tests {
		t.Run(string(tt.in), func(t *testing.T) {
			got, err := tt.in.Bytes()
			if err != nil || got != tt.want {
				t.Fatalf("Bytes(%q) = %d, %v; want %d", tt.in, got, err, tt.want)
			}
		})
	}
	for _, bad := range []ByteSize{"", "g", "-1g", "NaNm", "Infg", "1e400", " 2g", "0", "2x", "1ib"} {
		if got, err := bad.Bytes(); err == nil {
			t.Errorf("Bytes(%q) = %d, want an error", bad, got)
		}
	}
}
