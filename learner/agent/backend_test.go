package agent

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/go-logr/logr"
)

func TestBackoffWait(t *testing.T) {
	b := Backoff{Initial: 2 * time.Second, Max: 60 * time.Second, Tries: 8}
	var got []time.Duration
	for n := 1; n <= 7; n++ {
		got = append(got, b.Wait(n, 0))
	}
	want := []time.Duration{2, 4, 8, 16, 32, 60, 60}
	for i := range want {
		if got[i] != want[i]*time.Second {
			t.Errorf("waits = %v, want %v seconds", got, want)
			break
		}
	}
	if d := b.Wait(1, 10*time.Second); d != 10*time.Second {
		t.Errorf("Retry-After 10s: wait %v", d)
	}
	if d := b.Wait(1, 5*time.Minute); d != 60*time.Second {
		t.Errorf("Retry-After 5m: wait %v, want the cap", d)
	}
}

func TestRetry(t *testing.T) {
	var waits []time.Duration
	sleep := func(_ context.Context, d time.Duration) error { waits = append(waits, d); return nil }
	calls := 0
	_, n, err := Retry(context.Background(), DefaultBackoff, sleep, logr.Discard(), func() (int, error) {
		calls++
		return 0, &APIError{Kind: ErrAuth}
	})
	if !errors.Is(err, ErrAuth) || n != 1 || calls != 1 || len(waits) != 0 {
		t.Errorf("auth: n=%d calls=%d waits=%v err=%v, want one call", n, calls, waits, err)
	}
	calls = 0
	_, n, err = Retry(context.Background(), DefaultBackoff, sleep, logr.Discard(), func() (int, error) {
		calls++
		if calls < 3 {
			return 0, &APIError{Kind: ErrTransient}
		}
		return 7, nil
	})
	if err != nil || n != 3 || len(waits) != 2 {
		t.Errorf("transient: n=%d waits=%v err=%v", n, waits, err)
	}
	// A backend that retried the call itself is not retried again.
	calls = 0
	_, _, _ = Retry(context.Background(), DefaultBackoff, sleep, logr.Discard(), func() (int, error) {
		calls++
		return 0, &APIError{Kind: ErrTransient, Tries: 5}
	})
	if calls != 1 {
		t.Errorf("retried an exhausted error %d times", calls)
	}
	// No wait past the invocation's deadline.
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	calls = 0
	_, _, _ = Retry(ctx, DefaultBackoff, sleep, logr.Discard(), func() (int, error) {
		calls++
		return 0, &APIError{Kind: ErrTransient}
	})
	if calls != 1 {
		t.Errorf("waited past the deadline: %d calls", calls)
	}
}

func TestClassify(t *testing.T) {
	tests := []struct {
		status int
		text   string
		want   error
	}{
		{401, "", ErrAuth},
		{429, "", ErrTransient},
		{529, "", ErrTransient},
		{0, "Invalid API key · Fix external API key", ErrAuth},
		{0, "Not logged in · Please run /login", ErrAuth},
		{0, "unexpected status 401 Unauthorized: Missing bearer or basic authentication in header", ErrAuth},
		{0, "When using Gemini API, you must specify the GEMINI_API_KEY environment variable.", ErrAuth},
		{0, `API Error: 429 {"type":"rate_limit_error"}`, ErrTransient},
		{0, "exceeded retry limit, last status: 429 Too Many Requests", ErrTransient},
		{0, "stream disconnected before completion: error sending request", ErrTransient},
		{0, `[API Error: {"error":{"code":429,"status":"RESOURCE_EXHAUSTED"}}]`, ErrTransient},
		{0, "API Error: Connection error.", ErrTransient},
		{0, "TypeError: Cannot read properties of undefined", ErrFailed},
	}
	for _, tt := range tests {
		if got := Classify(tt.status, tt.text); got != tt.want {
			t.Errorf("Classify(%d, %q) = %v, want %v", tt.status, tt.text, got, tt.want)
		}
	}
}

func TestEnvironments(t *testing.T) {
	env := []string{"PATH=/bin", "SMILE_TOKEN=t", "SMILE_CALLBACK_URL=u", "ANTHROPIC_API_KEY=k", "TEAM=x", "HTTPS_PROXY=old"}
	cli := CLIEnv(env, ProxyEnv("http://127.0.0.1:9")...)
	joined := ""
	for _, kv := range cli {
		joined += kv + ";"
	}
	for _, bad := range []string{"SMILE_TOKEN", "SMILE_CALLBACK_URL", "HTTPS_PROXY=old"} {
		if strings.Contains(joined, bad) {
			t.Errorf("CLI env %q holds %s", joined, bad)
		}
	}
	if !strings.Contains(joined, "ANTHROPIC_API_KEY=k") || !strings.Contains(joined, "HTTPS_PROXY=http://127.0.0.1:9") {
		t.Errorf("CLI env = %q", joined)
	}
	cmd := WithoutKeys(env, "TEAM")
	for _, kv := range cmd {
		if kv == "ANTHROPIC_API_KEY=k" || kv == "TEAM=x" {
			t.Errorf("command env holds %s", kv)
		}
	}
	if s := Secrets(func(k string) string {
		return map[string]string{"ANTHROPIC_API_KEY": "sk-secret", "TEAM": "team-secret", "GEMINI_API_KEY": "x"}[k]
	}, "TEAM"); len(s) != 2 {
		t.Errorf("secrets = %q (values shorter than 4 are not worth redacting)", s)
	}
}
