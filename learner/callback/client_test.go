package callback

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/smile-loop/smile/status/wire"

	"github.com/go-logr/logr"

	"github.com/smile-loop/smile/status"
)

func fastClient(url string) *Client {
	c := New(url, "secret-token", "quickstart-student-1", logr.Discard())
	c.Backoff = Backoff{Initial: time.Millisecond, Max: 4 * time.Millisecond, Total: 500 * time.Millisecond}
	return c
}

func TestPostResult(t *testing.T) {
	tests := []struct {
		name      string
		codes     []int // answers, in order; the last one repeats
		wantCalls int32
		wantErr   error
		wantOK    bool
	}{
		{"accepted at once", []int{200}, 1, nil, true},
		{"5xx then accepted", []int{503, 500, 200}, 3, nil, true},
		{"4xx is not retried", []int{409}, 1, ErrRejected, false},
		{"5xx until giving up", []int{502}, 0, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var calls atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				n := int(calls.Add(1))
				if got := r.Header.Get("Authorization"); got != "Bearer secret-token" {
					t.Errorf("Authorization = %q", got)
				}
				if got := r.Header.Get(wire.HeaderAttempt); got != "quickstart-student-1" {
					t.Errorf("%s = %q", wire.HeaderAttempt, got)
				}
				if r.URL.Path != wire.PathStudentResult {
					t.Errorf("path = %q", r.URL.Path)
				}
				var body wire.StudentResultRequest
				if err := json.NewDecoder(r.Body).Decode(&body); err != nil || body.StudentOutput.Status != status.StudentCompleted {
					t.Errorf("body not decoded: %v %+v", err, body)
				}
				code := tt.codes[min(n, len(tt.codes))-1]
				w.WriteHeader(code)
				if code == 200 {
					_ = json.NewEncoder(w).Encode(wire.ResultResponse{Acknowledged: true, NextAction: "continue"})
				} else {
					_, _ = w.Write([]byte(`{"error":"attempt is not current"}`))
				}
			}))
			defer srv.Close()
			body := wire.StudentResultRequest{StudentOutput: status.StudentOutput{Status: status.StudentCompleted}}
			resp, err := fastClient(srv.URL).PostResult(context.Background(), wire.PathStudentResult, body)
			if tt.wantOK != (err == nil) {
				t.Fatalf("err = %v, want ok=%v", err, tt.wantOK)
			}
			if tt.wantOK && !resp.Acknowledged {
				t.Errorf("response not decoded: %+v", resp)
			}
			if tt.wantErr != nil && !errors.Is(err, tt.wantErr) {
				t.Errorf("err = %v, want %v", err, tt.wantErr)
			}
			if tt.wantErr != nil && !strings.Contains(err.Error(), "attempt is not current") {
				t.Errorf("err %q does not carry the controller's message", err)
			}
			if tt.wantCalls > 0 && calls.Load() != tt.wantCalls {
				t.Errorf("calls = %d, want %d", calls.Load(), tt.wantCalls)
			}
			if tt.wantCalls == 0 && calls.Load() < 3 {
				t.Errorf("calls = %d, want several retries", calls.Load())
			}
		})
	}
}

func TestPostResultRetriesConnectionErrors(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close() // nothing listens there any more
	start := time.Now()
	_, err := fastClient(url).PostResult(context.Background(), wire.PathMentorResult, wire.MentorResultRequest{})
	if err == nil || !strings.Contains(err.Error(), "gave up after") {
		t.Fatalf("err = %v, want a give-up error", err)
	}
	if time.Since(start) > 5*time.Second {
		t.Errorf("took %v, backoff total not respected", time.Since(start))
	}
}

func TestProgressIgnoresFailures(t *testing.T) {
	var got wire.ProgressRequest
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != wire.PathProgress || r.Header.Get("Authorization") != "Bearer secret-token" {
			t.Errorf("unexpected request %s %v", r.URL.Path, r.Header)
		}
		_ = json.NewDecoder(r.Body).Decode(&got)
		w.WriteHeader(http.StatusInternalServerError)
	}))
	defer srv.Close()
	fastClient(srv.URL).Progress(context.Background(), "line 12: jq .name data.json", 12)
	if got.Step != "line 12: jq .name data.json" || got.Line != 12 || got.Timestamp.IsZero() {
		t.Errorf("progress body = %+v", got)
	}
	fastClient("http://127.0.0.1:1").Progress(context.Background(), "starting", 0) // must not panic or block
}
