package kube

import (
	"context"
	"encoding/json"
	"testing"

	authv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"

	"github.com/smile-loop/smile/runtime"
)

// The runtime does its whole job with the grants of the RBAC manifest
// alone: its objects are made in a namespace of the test's own, and the
// runtime runs with the ServiceAccount's token.
func TestRuntimeNeedsNoMoreThanTheRBACManifest(t *testing.T) {
	admin := clusterRuntime(t)
	ctx := testContext(t)
	ns := uniqueName("smile-rbac")
	suffix := "-" + ns
	cs := admin.cs
	if _, err := cs.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		bg := context.Background()
		_ = cs.RbacV1().ClusterRoleBindings().Delete(bg, "smile-runtime-nodes"+suffix, metav1.DeleteOptions{})
		_ = cs.RbacV1().ClusterRoles().Delete(bg, "smile-runtime-nodes"+suffix, metav1.DeleteOptions{})
		_ = cs.CoreV1().Namespaces().Delete(bg, ns, metav1.DeleteOptions{})
	})
	// With no controller-manager (the test cluster), nothing makes a new
	// namespace's default ServiceAccount, which every Pod needs.
	_, err := cs.CoreV1().ServiceAccounts(ns).Create(ctx, &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: "default"}}, metav1.CreateOptions{})
	if err != nil && !apierrors.IsAlreadyExists(err) {
		t.Fatal(err)
	}
	_, _, docs := rbacObjects(t)
	for _, doc := range docs {
		if err := createRBAC(ctx, admin, doc, ns, suffix); err != nil {
			t.Fatal(err)
		}
	}
	tok, err := cs.CoreV1().ServiceAccounts(ns).CreateToken(ctx, "smile-runtime", &authv1.TokenRequest{}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cfg := rest.AnonymousClientConfig(admin.cfg)
	cfg.BearerToken = tok.Status.Token
	r, err := New(cfg, Options{Namespace: ns})
	if err != nil {
		t.Fatal(err)
	}

	if err := r.EnsureImage(ctx, testImage()); err != nil {
		t.Errorf("EnsureImage: %v", err)
	}
	tut := t.TempDir()
	sel := map[string]string{runtime.LabelRun: ns}
	events, err := r.Watch(ctx, sel)
	if err != nil {
		t.Fatalf("Watch: %v", err)
	}
	c := startSleeper(t, r, runtime.ContainerSpec{Name: "rbac", Labels: sel,
		Mounts: []runtime.Mount{{Source: tut, Target: "/t", ReadOnly: true}}})
	<-events
	if res, err := r.ExecIO(ctx, c.Name, runtime.ExecRequest{Cmd: []string{"cat"}, Stdin: []byte("x")}); err != nil || string(res.Stdout) != "x" {
		t.Errorf("ExecIO = %+v, %v", res, err)
	}
	conn, err := r.ExecStream(ctx, c.Name, runtime.ExecRequest{Cmd: []string{"cat"}})
	if err != nil {
		t.Errorf("ExecStream: %v", err)
	} else {
		_ = conn.Close()
	}
	if _, err := r.Logs(ctx, c.Name); err != nil {
		t.Errorf("Logs: %v", err)
	}
	if l, err := r.List(ctx, sel); err != nil || len(l) != 1 {
		t.Errorf("List = %v, %v", l, err)
	}
	if err := r.Remove(ctx, c.Name); err != nil {
		t.Errorf("Remove: %v", err)
	}
	// And no more: it may not read Secrets.
	if _, err := r.cs.CoreV1().Secrets(ns).List(ctx, metav1.ListOptions{}); !apierrors.IsForbidden(err) {
		t.Errorf("listing Secrets with the runtime's grants: %v, want Forbidden", err)
	}
}

// createRBAC creates one object of the RBAC manifest in namespace ns,
// cluster-scoped ones renamed with suffix (they are shared by the cluster).
func createRBAC(ctx context.Context, admin *Runtime, doc []byte, ns, suffix string) error {
	var meta struct {
		Kind string `json:"kind"`
	}
	if err := json.Unmarshal(doc, &meta); err != nil {
		return err
	}
	rbac := admin.cs.RbacV1()
	var err error
	switch meta.Kind {
	case "ServiceAccount":
		var o corev1.ServiceAccount
		if err = json.Unmarshal(doc, &o); err == nil {
			o.Namespace = ns
			_, err = admin.cs.CoreV1().ServiceAccounts(ns).Create(ctx, &o, metav1.CreateOptions{})
		}
	case "Role":
		var o rbacv1.Role
		if err = json.Unmarshal(doc, &o); err == nil {
			o.Namespace = ns
			_, err = rbac.Roles(ns).Create(ctx, &o, metav1.CreateOptions{})
		}
	case "RoleBinding":
		var o rbacv1.RoleBinding
		if err = json.Unmarshal(doc, &o); err == nil {
			o.Namespace = ns
			o.Subjects[0].Namespace = ns
			_, err = rbac.RoleBindings(ns).Create(ctx, &o, metav1.CreateOptions{})
		}
	case "ClusterRole":
		var o rbacv1.ClusterRole
		if err = json.Unmarshal(doc, &o); err == nil {
			o.Name += suffix
			_, err = rbac.ClusterRoles().Create(ctx, &o, metav1.CreateOptions{})
		}
	case "ClusterRoleBinding":
		var o rbacv1.ClusterRoleBinding
		if err = json.Unmarshal(doc, &o); err == nil {
			o.Name += suffix
			o.RoleRef.Name += suffix
			o.Subjects[0].Namespace = ns
			_, err = rbac.ClusterRoleBindings().Create(ctx, &o, metav1.CreateOptions{})
		}
	}
	return err
}
