// Package docker implements runtime.Runtime against a Docker Engine.
//
// It is the only package in SMILE that imports the Docker client, so moving to
// the client's successor (github.com/moby/moby/client) or to another engine is
// one package's change. The engine may be old (20.10, API 1.41): the client
// negotiates the API version on first use and uses nothing newer.
//
// Errors callers must tell apart wrap the runtime package's sentinels:
// runtime.ErrUnavailable when the daemon cannot be reached (seed E08; the
// message starts with the seed's "Docker is required but not available"),
// runtime.ErrImageNotFound when an image is missing (seed E09; the message says
// how to get it), and runtime.ErrNotFound when a container is gone.
//
// Watch reports the engine's own action names for the lifecycle of a
// container: "create", "start", "restart", "die", "oom", "stop", "pause",
// "unpause" and "destroy".
package docker
