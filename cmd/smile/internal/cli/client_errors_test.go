package cli

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/smile-loop/smile/cmd/smile/internal/ctlclient"
	"github.com/smile-loop/smile/status"
	"github.com/smile-loop/smile/status/store"
	"github.com/smile-loop/smile/status/wire"
)

// The controller's refusals come back as the sentinels they were made from,
// so apply --wait and stop never match error text.
func TestControllerErrorsMapBackToSentinels(t *testing.T) {
	for _, tc := range []struct {
		name        string
		code        int
		body        wire.ErrorResponse
		unknown     bool
		noStatusYet bool
	}{
		{"unknown run", http.StatusNotFound, wire.ErrorResponse{Error: `smilerun "x" not found`, Reason: status.ReasonNotFound}, true, false},
		{"a 404 without a reason", http.StatusNotFound, wire.ErrorResponse{Error: "no runs applied"}, true, false},
		{"status not written yet", http.StatusServiceUnavailable, wire.ErrorResponse{Error: "no state: x", Reason: status.ReasonNoStatusYet}, false, true},
		{"a failed reconcile", http.StatusServiceUnavailable, wire.ErrorResponse{Error: "read smile.json: broken"}, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(tc.code)
				_ = json.NewEncoder(w).Encode(tc.body)
			}))
			defer srv.Close()
			c := &ctlclient.Client{Info: store.ControllerInfo{APIAddr: srv.Listener.Addr().String()}, HTTP: srv.Client()}
			_, err := c.Run(context.Background(), "x")
			if err == nil || err.Error() != tc.body.Error {
				t.Fatalf("run = %v, want the controller's message %q", err, tc.body.Error)
			}
			if got := errors.Is(err, status.ErrUnknownRun); got != tc.unknown {
				t.Errorf("errors.Is(err, ErrUnknownRun) = %v, want %v", got, tc.unknown)
			}
			if got := isNotFound(err); got != tc.unknown {
				t.Errorf("isNotFound = %v, want %v", got, tc.unknown)
			}
			if got := errors.Is(err, status.ErrNoStatusYet); got != tc.noStatusYet {
				t.Errorf("errors.Is(err, ErrNoStatusYet) = %v, want %v", got, tc.noStatusYet)
			}
		})
	}
}
