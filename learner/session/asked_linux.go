package session

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"
)

// A tutorial's command has no terminal: its standard input is empty. A
// program that asks its reader something (bash's read and select, Python's
// input(), Ruby's gets, passwd, an installer's question) then reads the end
// of its input and fails, or goes on with an empty answer, where a reader
// would have typed one. The Student must know it was asked, or it blames
// the page for the answer the page leaves to its reader.
//
// So a command's standard input is a pipe whose writing end the hands keep
// open while they watch: a process of the command's group blocked reading
// that pipe was asked for input. The hands then close the pipe, and the
// program reads the end of its input exactly as it would from /dev/null. A
// process that waits on the pipe through poll, select or epoll (Node's
// readline) cannot be told from a server waiting for clients; after
// pollGrace it gets the end of its input too, unrecorded.

// readCalls are the system calls, by number on this machine's architecture,
// that read from a file descriptor given as their first argument.
var readCalls = map[string][]string{
	"amd64": {"0", "17", "19", "295"}, // read, pread64, readv, preadv
	"arm64": {"63", "65", "67", "69"}, // read, readv, pread64, preadv
}

// pollCalls are the waits on several descriptors at once.
var pollCalls = map[string][]string{
	"amd64": {"7", "23", "232", "270", "271", "281"}, // poll, select, epoll_wait, pselect6, ppoll, epoll_pwait
	"arm64": {"22", "72", "73"},                      // epoll_pwait, pselect6, ppoll
}

// pollGrace is how long a process may wait on the input pipe among other
// descriptors before the pipe is closed.
const pollGrace = 500 * time.Millisecond

// askWatch watches one command's process group for a read on its input.
type askWatch struct {
	pgid   int
	pipe   string   // the pipe's identity, as /proc shows it: pipe:[inode]
	w      *os.File // the writing end, closed once a process is seen reading
	done   chan struct{}
	result chan []string
}

// newAskInput makes the pipe a command reads: the reading end for the
// command, the writing end for the watch.
func newAskInput() (r, w *os.File, id string, err error) {
	r, w, err = os.Pipe()
	if err != nil {
		return nil, nil, "", fmt.Errorf("make the command's input: %w", err)
	}
	id, err = os.Readlink(fmt.Sprintf("/proc/self/fd/%d", r.Fd()))
	if err != nil {
		// No /proc: the command still gets an input that ends, unwatched.
		w.Close()
		return r, nil, "", nil
	}
	return r, w, id, nil
}

// watchAsks starts watching the group pgid; stop returns the names of the
// programs seen reading the pipe (none when w is nil).
func watchAsks(pgid int, w *os.File, id string) *askWatch {
	a := &askWatch{pgid: pgid, pipe: id, w: w, done: make(chan struct{}), result: make(chan []string, 1)}
	go a.run()
	return a
}

func (a *askWatch) run() {
	var asked []string
	defer func() { a.result <- asked }()
	if a.w == nil {
		<-a.done
		return
	}
	defer a.w.Close()
	var polling time.Time
	tick := 5 * time.Millisecond
	for {
		select {
		case <-a.done:
			return
		case <-time.After(tick):
		}
		tick = min(tick*2, 80*time.Millisecond)
		reading, waiting := a.scan()
		if len(reading) > 0 {
			asked = reading
			return
		}
		switch {
		case !waiting:
			polling = time.Time{}
		case polling.IsZero():
			polling = time.Now()
		case time.Since(polling) > pollGrace:
			return
		}
	}
}

// stop ends the watch (the command has exited) and returns what it saw.
func (a *askWatch) stop() []string {
	close(a.done)
	return <-a.result
}

// scan looks at every process of the group once: the programs blocked
// reading the pipe, and whether one waits on it among other descriptors.
func (a *askWatch) scan() (reading []string, waiting bool) {
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || processGroup(pid) != a.pgid {
			continue
		}
		call, fd, ok := blockedCall(pid)
		if !ok {
			continue
		}
		switch {
		case slices.Contains(readCalls[runtime.GOARCH], call) && a.isPipe(pid, fd):
			reading = append(reading, programName(pid))
		case slices.Contains(pollCalls[runtime.GOARCH], call) && a.isPipe(pid, "0"):
			waiting = true
		}
	}
	return reading, waiting
}

func (a *askWatch) isPipe(pid int, fd string) bool {
	link, err := os.Readlink(filepath.Join("/proc", strconv.Itoa(pid), "fd", fd))
	return err == nil && link == a.pipe
}

// processGroup reads a process's group from /proc/PID/stat (-1 when gone).
func processGroup(pid int) int {
	data, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return -1
	}
	// pid (comm) state ppid pgrp ...: comm may hold spaces and parentheses.
	rest := string(data)
	if i := strings.LastIndexByte(rest, ')'); i >= 0 {
		rest = rest[i+1:]
	}
	f := strings.Fields(rest)
	if len(f) < 3 {
		return -1
	}
	g, err := strconv.Atoi(f[2])
	if err != nil {
		return -1
	}
	return g
}

// blockedCall reads the system call a process is blocked in and its first
// argument as a decimal descriptor number; ok is false for a running
// process or one the hands may not inspect (another user's).
func blockedCall(pid int) (call, fd string, ok bool) {
	data, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "syscall"))
	if err != nil {
		return "", "", false
	}
	f := strings.Fields(string(data))
	if len(f) < 2 || f[0] == "running" || f[0] == "-1" {
		return "", "", false
	}
	n, err := strconv.ParseUint(strings.TrimPrefix(f[1], "0x"), 16, 32)
	if err != nil {
		return "", "", false
	}
	return f[0], strconv.FormatUint(n, 10), true
}

// programName is the program a process runs, as ps shows it.
func programName(pid int) string {
	data, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "comm"))
	if err != nil {
		return "?"
	}
	return strings.TrimSpace(string(data))
}
