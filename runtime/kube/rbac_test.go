package kube

import (
	"encoding/json"
	"errors"
	"io"
	"os"
	"slices"
	"testing"

	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/util/yaml"
)

const rbacManifest = "../../manifests/rbac/smile-runtime.yaml"

// rbacObjects reads the RBAC manifest's documents by kind.
func rbacObjects(t *testing.T) (roles, clusterRoles []rbacv1.ClusterRole, docs [][]byte) {
	t.Helper()
	f, err := os.Open(rbacManifest)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	dec := yaml.NewYAMLOrJSONDecoder(f, 4096)
	for {
		var raw struct {
			Kind  string              `json:"kind"`
			Rules []rbacv1.PolicyRule `json:"rules"`
		}
		var doc map[string]any
		if err := dec.Decode(&doc); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("%s: %v", rbacManifest, err)
		}
		b, err := json.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, b)
		if err := json.Unmarshal(b, &raw); err != nil {
			t.Fatal(err)
		}
		switch raw.Kind {
		case "Role":
			roles = append(roles, rbacv1.ClusterRole{Rules: raw.Rules})
		case "ClusterRole":
			clusterRoles = append(clusterRoles, rbacv1.ClusterRole{Rules: raw.Rules})
		}
	}
	return roles, clusterRoles, docs
}

// grants says whether a rule of the roles allows verb on resource.
func grants(roles []rbacv1.ClusterRole, group, resource, verb string) bool {
	for _, role := range roles {
		for _, r := range role.Rules {
			if slices.Contains(r.APIGroups, group) && slices.Contains(r.Resources, resource) && slices.Contains(r.Verbs, verb) {
				return true
			}
		}
	}
	return false
}

// The manifest grants every call the runtime makes (Permissions), in the
// right kind of role, and nothing the runtime does not make.
func TestRBACManifestGrantsWhatTheRuntimeUses(t *testing.T) {
	roles, clusterRoles, _ := rbacObjects(t)
	if len(roles) == 0 || len(clusterRoles) == 0 {
		t.Fatalf("%s: %d Roles and %d ClusterRoles, want both", rbacManifest, len(roles), len(clusterRoles))
	}
	used := map[string]bool{}
	for _, p := range Permissions {
		where := roles
		if p.Cluster {
			where = clusterRoles
		}
		for _, v := range p.Verbs {
			used[p.Group+"/"+p.Resource+"/"+v] = true
			if !grants(where, p.Group, p.Resource, v) {
				t.Errorf("%s does not grant %s on %q %s (cluster-scoped: %v)", rbacManifest, v, p.Group, p.Resource, p.Cluster)
			}
		}
	}
	for _, role := range append(roles, clusterRoles...) {
		for _, r := range role.Rules {
			for _, g := range r.APIGroups {
				for _, res := range r.Resources {
					for _, v := range r.Verbs {
						if !used[g+"/"+res+"/"+v] {
							t.Errorf("%s grants %s on %q %s, which the runtime never uses", rbacManifest, v, g, res)
						}
					}
				}
			}
		}
	}
}
