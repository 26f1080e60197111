// Package provider defines how the wrapper plays a role: the Provider
// interface every Student/Mentor implementation satisfies, the environment it
// runs in, and the stand-in for providers this build does not implement yet.
package provider
