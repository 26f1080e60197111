package cli

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/smile-loop/smile/cmd/smile/internal/ctlclient"
	"github.com/smile-loop/smile/status/store"
)

// A run the controller does not know (404) is deleted locally instead; any
// other refusal is an error, even when its text says "not found".
func TestIsNotFoundFollowsTheStatusCode(t *testing.T) {
	for code, want := range map[int]bool{http.StatusNotFound: true, http.StatusInternalServerError: false, http.StatusUnauthorized: false} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(code)
			_, _ = w.Write([]byte(`{"error":"smilerun \"x\" not found"}`))
		}))
		c := &ctlclient.Client{Info: store.ControllerInfo{APIAddr: strings.TrimPrefix(srv.URL, "http://")}, HTTP: &http.Client{Timeout: 5 * time.Second}}
		err := c.Delete(context.Background(), "x")
		srv.Close()
		if err == nil || err.Error() != `smilerun "x" not found` {
			t.Fatalf("HTTP %d: err = %v, want the controller's message", code, err)
		}
		if got := isNotFound(err); got != want {
			t.Errorf("HTTP %d: isNotFound = %v, want %v", code, got, want)
		}
	}
}
