package agent

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Classify says what kind of failure an API error is, from its HTTP status
// (0 when unknown) and the words the provider used.
func Classify(httpStatus int, texts ...string) error {
	switch {
	case httpStatus == 401 || httpStatus == 403:
		return ErrAuth
	case httpStatus == 408 || httpStatus == 409 || httpStatus == 429 || httpStatus == 529 || (httpStatus >= 500 && httpStatus < 600):
		return ErrTransient
	}
	t := strings.ToLower(strings.Join(texts, "\n"))
	has := func(words ...string) bool {
		for _, w := range words {
			if strings.Contains(t, w) {
				return true
			}
		}
		return false
	}
	switch {
	case has("invalid api key", "invalid x-api-key", "invalid_api_key", "incorrect api key", "api key not valid", "api_key_invalid",
		"not logged in", "please run /login", "authentication_error", "authentication failed", "unauthorized", "unauthenticated",
		"missing bearer", "no api key", "api key not found", "environment variable not found", "must specify the gemini_api_key",
		"401", "403 forbidden"):
		return ErrAuth
	case has("rate limit", "rate_limit", "ratelimit", "too many requests", "429", "overloaded", "529", "resource_exhausted",
		"quota", "503", "502", "500 internal", "service unavailable", "temporarily unavailable", "try again later",
		"econnreset", "econnrefused", "etimedout", "enotfound", "eai_again", "fetch failed", "network error", "connection error",
		"connection refused", "connection reset", "stream disconnected", "error sending request", "reconnecting", "socket hang up",
		"request timed out", "deadline exceeded", "dns error", "could not resolve"):
		return ErrTransient
	}
	return ErrFailed
}

// MaxArg is the longest prompt passed as one command-line argument: Linux
// refuses an argument over 128 KiB (MAX_ARG_STRLEN).
const MaxArg = 100 << 10

// PromptArg is the prompt as a command-line argument. A prompt too long for
// one argument (Linux allows 128 KiB) goes to a file the argument points at;
// the returned function removes it.
func PromptArg(prompt string) (string, func(), error) {
	if len(prompt) <= MaxArg {
		return prompt, func() {}, nil
	}
	dir, err := os.MkdirTemp("", "smile-prompt-")
	if err != nil {
		return "", nil, err
	}
	path := filepath.Join(dir, "instructions.md")
	if err := os.WriteFile(path, []byte(prompt), 0o644); err != nil {
		os.RemoveAll(dir)
		return "", nil, err
	}
	arg := fmt.Sprintf("Your instructions are too long for the command line: read the whole file %s first, then follow it exactly. Its last part is the tutorial.", path)
	return arg, func() { os.RemoveAll(dir) }, nil
}
