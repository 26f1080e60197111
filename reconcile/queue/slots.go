package queue

import (
	"bufio"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Slots bound how many runs of a controller are active at once (its
// --parallel limit). A run takes a slot when its generation starts and keeps
// it until its loop ends; runs beyond the limit wait, in the order they first
// asked, in phase Queued.
type Slots struct {
	mu      sync.Mutex
	limit   int
	held    map[string]bool
	waiting []string
	// freed is called (outside the lock) when a slot frees up or the limit
	// grows, so queued runs are looked at again.
	freed func()
}

// NewSlots makes a limit of n active runs (DefaultParallel when n < 1).
func NewSlots(n int, freed func()) *Slots {
	if n < 1 {
		n = DefaultParallel()
	}
	return &Slots{limit: n, held: map[string]bool{}, freed: freed}
}

// Limit is the number of runs that may be active at once.
func (s *Slots) Limit() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.limit
}

// SetLimit changes the limit (n < 1 leaves it). Runs already active keep
// their slots; a larger limit lets queued runs start.
func (s *Slots) SetLimit(n int) {
	if n < 1 {
		return
	}
	s.mu.Lock()
	grew := n > s.limit
	s.limit = n
	s.mu.Unlock()
	if grew && s.freed != nil {
		s.freed()
	}
}

// TryAcquire gives name a slot if it holds one already, or if one is free
// and no run that asked earlier still waits for it.
func (s *Slots) TryAcquire(name string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.held[name] {
		return true
	}
	if !slices.Contains(s.waiting, name) {
		s.waiting = append(s.waiting, name)
	}
	free := s.limit - len(s.held)
	if i := slices.Index(s.waiting, name); i < free {
		s.waiting = slices.Delete(s.waiting, i, i+1)
		s.held[name] = true
		return true
	}
	return false
}

// Hold gives name a slot whatever the limit: a run found active (after a
// controller restart) goes on.
func (s *Slots) Hold(name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.held[name] = true
	s.waiting = slices.DeleteFunc(s.waiting, func(n string) bool { return n == name })
}

// Release frees name's slot, or its place in the queue.
func (s *Slots) Release(name string) {
	s.mu.Lock()
	had := s.held[name]
	delete(s.held, name)
	s.waiting = slices.DeleteFunc(s.waiting, func(n string) bool { return n == name })
	waiters := len(s.waiting)
	s.mu.Unlock()
	if had && waiters > 0 && s.freed != nil {
		s.freed()
	}
}

// Active is the number of slots held.
func (s *Slots) Active() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.held)
}

// DefaultParallel is the default limit of active runs on this machine: one
// per CPU, and no more than one per 2 GiB of memory (each run's containers
// may use 2g by default), at least one.
func DefaultParallel() int {
	n := runtime.NumCPU()
	if gib := memTotalGiB(); gib > 0 {
		n = min(n, gib/2)
	}
	return max(n, 1)
}

// memTotalGiB reads the machine's memory from /proc/meminfo (0 when it
// cannot: other systems are bounded by their CPUs only).
func memTotalGiB() int {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) >= 2 && fields[0] == "MemTotal:" {
			kb, err := strconv.Atoi(fields[1])
			if err != nil {
				return 0
			}
			return kb / (1 << 20)
		}
	}
	return 0
}
