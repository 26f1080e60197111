package server_test

import (
	"github.com/smile-loop/smile/reconcile/internal/apitest"
	. "github.com/smile-loop/smile/reconcile/server"

	"encoding/json"
	"errors"
	"net/http"
	"path/filepath"
	"testing"

	"github.com/smile-loop/smile/status"
	"github.com/smile-loop/smile/status/wire"
)

// The control API changes what runs: only the controller's token may call
// it. Reads pass their own guard, so this check is the only one on writes.
func TestControlAPIRefusesAnyOtherToken(t *testing.T) {
	m, dir := startManager(t)
	api := "http://" + m.APIAddr()
	write(t, filepath.Join(dir, "other.yaml"), "apiVersion: smile.dev/v1alpha1\nkind: SmileRun\nmetadata: {name: other}\nspec: {llmProvider: claude}\n")
	applyBody, _ := json.Marshal(ApplyRequest{Manifest: filepath.Join(dir, "other.yaml")})
	deleteBody, _ := json.Marshal(DeleteRequest{Name: "demo"})
	run, err := m.Run("demo")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, token string }{
		{"no token", ""},
		{"a wrong token", "nope"},
		{"the controller's token with a byte more", testControlToken + "x"},
		{"a run's token", run.Status.Token},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if code, _ := apitest.Post(t, api+PathApply, tc.token, "", applyBody); code != http.StatusUnauthorized {
				t.Errorf("apply: %d, want 401", code)
			}
			if _, ok := m.Applied("other"); ok {
				t.Error("the refused apply applied the run")
			}
			if code, _ := apitest.Post(t, api+PathDelete, tc.token, "", deleteBody); code != http.StatusUnauthorized {
				t.Errorf("delete: %d, want 401", code)
			}
			if _, ok := m.Applied("demo"); !ok {
				t.Error("the refused delete deleted the run")
			}
		})
	}
	t.Run("the controller's token", func(t *testing.T) {
		if code, out := apitest.Post(t, api+PathDelete, testControlToken, "", deleteBody); code != http.StatusOK {
			t.Errorf("delete: %d %v, want 200", code, out)
		}
		if _, ok := m.Applied("demo"); ok {
			t.Error("the delete did not delete the run")
		}
	})
}

// An unknown run is status.ErrUnknownRun in the manager and 404 with reason
// NotFound on every API that names a run, so the CLI never matches text.
func TestUnknownRunIsNotFound(t *testing.T) {
	m, _ := startManager(t)
	api := "http://" + m.APIAddr()
	if _, err := m.Run("nope"); !errors.Is(err, status.ErrUnknownRun) {
		t.Errorf("Run(nope) = %v, want ErrUnknownRun", err)
	}
	if err := m.RequestStop("nope", "x"); !errors.Is(err, status.ErrUnknownRun) {
		t.Errorf("RequestStop(nope) = %v, want ErrUnknownRun", err)
	}
	deleteBody, _ := json.Marshal(DeleteRequest{Name: "nope"})
	for _, tc := range []struct {
		name, method, path string
		body               []byte
	}{
		{"status", http.MethodGet, wire.PathStatus + "?name=nope", nil},
		{"progress", http.MethodGet, wire.PathProgress + "?name=nope", nil},
		{"delete", http.MethodPost, PathDelete, deleteBody},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var code int
			var out map[string]any
			if tc.method == http.MethodPost {
				code, out = apitest.Post(t, api+tc.path, testControlToken, "", tc.body)
			} else {
				code, out = getJSON(t, api+tc.path)
			}
			if code != http.StatusNotFound || out["reason"] != string(status.ReasonNotFound) || out["error"] != `smilerun "nope" not found` {
				t.Errorf("%s: %d %v, want 404 with reason NotFound", tc.path, code, out)
			}
		})
	}
}

func getJSON(t *testing.T, url string) (int, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	req.Header.Set("Authorization", "Bearer "+testControlToken)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out
}
