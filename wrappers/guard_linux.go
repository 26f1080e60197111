package wrappers

import "golang.org/x/sys/unix"

// guardSelf puts the process that runs a tutorial's commands out of their
// reach. Not dumpable, its /proc entries (open files, environment, memory)
// can be opened, and it can be traced, only with CAP_SYS_PTRACE, which no
// container of SMILE's has: a process the tutorial left running cannot open
// the server's request and answer pipes through /proc/PID/fd to read a
// request's ID and answer in the server's place. Commands the server starts
// are dumpable again once they exec, as any program is.
func guardSelf() error { return unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0) }
