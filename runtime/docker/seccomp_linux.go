package docker

import (
	"encoding/json"
	"slices"
	"sync"

	"github.com/moby/profiles/seccomp"
)

// traceCalls are the system calls by which one process traces another or
// reads and writes its memory.
var traceCalls = []string{"ptrace", "process_vm_readv", "process_vm_writev"}

// noTraceProfile is the engine's default seccomp profile (the one it applies
// when none is named) less traceCalls, as the JSON a "seccomp=" security
// option carries. The calls it no longer allows fall to the profile's
// default action, an EPERM error, for every process of the container,
// whatever its capabilities.
var noTraceProfile = sync.OnceValues(func() (string, error) {
	p := seccomp.DefaultProfile()
	for i := range p.Syscalls {
		p.Syscalls[i].Names = slices.DeleteFunc(p.Syscalls[i].Names, func(n string) bool {
			return slices.Contains(traceCalls, n)
		})
	}
	// The default profile names its calls in Names only: an entry left with
	// none would match nothing, so it goes.
	p.Syscalls = slices.DeleteFunc(p.Syscalls, func(s *seccomp.Syscall) bool { return len(s.Names) == 0 })
	data, err := json.Marshal(p)
	return string(data), err
})
