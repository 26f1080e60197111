package kube

// Permission is what the runtime does to one kind of object: the API group,
// the resource (a subresource as "pods/exec") and the verbs.
type Permission struct {
	Group    string
	Resource string
	Verbs    []string
	// Cluster is true for a cluster-scoped resource (a ClusterRole grants
	// it); the others are granted in the runtime's namespace by a Role.
	Cluster bool
}

// Permissions are every API call the runtime makes, as RBAC sees them.
// manifests/rbac/smile-runtime.yaml grants these and no more; a test reads
// it and one runs the runtime with nothing else.
var Permissions = []Permission{
	{Resource: "pods", Verbs: []string{"get", "list", "watch", "create", "delete"}},
	// The WebSocket exec is a GET, authorized as create (and so is SPDY's POST).
	{Resource: "pods/exec", Verbs: []string{"create"}},
	{Resource: "pods/log", Verbs: []string{"get"}},
	{Resource: "configmaps", Verbs: []string{"create", "deletecollection"}},
	// EnsureImage reads the nodes' image lists.
	{Resource: "nodes", Verbs: []string{"list"}, Cluster: true},
}
