// Package session runs a tutorial's commands as one shell session: each
// command is its own shell process, in its own process group, that first
// restores what the previous command left behind (working directory,
// variables, exported variables, functions, aliases, shell options) and saves
// it again when it exits. A learner's terminal carries that state from one
// command to the next; so does a session.
//
// Its commands only ever run inside the container, through Hands; View
// answers reads of a folder the container mounts from the host's copy.
package session
