// Package kube implements the runtime interface (package runtime) on
// Kubernetes Pods with client-go: one Pod per container, in one namespace.
//
// A ContainerSpec becomes a Pod with one container named "main": its image
// with imagePullPolicy Never (images are loaded into the nodes, there is no
// registry), its command, environment, working folder and labels, its
// resources as limits, its confinement as a security context, and no
// service-account token (tutorial code gets no API credentials). A
// read-only mount of a host folder or file becomes a ConfigMap built from
// its regular files, mounted read-only (1 MiB at most: a larger one is an
// error, and a binary such as smile-wrapper belongs in the image); a
// writable mount becomes an emptyDir, which starts empty: nothing of the
// host folder is copied in or out. EmptyDirs are memory-backed read-only
// emptyDirs.
//
// Exec runs through the Pod's exec subresource (client-go's remotecommand:
// WebSocket, falling back to SPDY); the exec subresource has no environment
// or working folder, so a request that names them runs through the image's
// /bin/sh and env. Logs come from pods/log. Stop and Remove delete the Pod
// (a Pod is not kept stopped). Snapshots are not supported
// (runtime.ErrUnsupported): Pods have no commit, so runs start from the top.
// What a Pod cannot do is said in docs/kubernetes.md.
package kube
