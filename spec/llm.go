package spec

import (
	"fmt"
	"math"
	"net/url"
	"regexp"
	"slices"
	"strings"
)

// Models names the model each role uses. Empty means the provider's own
// default (the CLI's, or the endpoint's for openai, which then needs one).
type Models struct {
	Student string `json:"student"`
	Mentor  string `json:"mentor"`
}

// For returns the model of a role ("student" or "mentor").
func (m Models) For(role string) string {
	if role == "mentor" {
		return m.Mentor
	}
	return m.Student
}

// RoleLimits is one limit per role.
type RoleLimits struct {
	Student int `json:"student"`
	Mentor  int `json:"mentor"`
}

// For returns the limit of a role ("student" or "mentor").
func (l RoleLimits) For(role string) int {
	if role == "mentor" {
		return l.Mentor
	}
	return l.Student
}

// OpenAIConfig is where the openai provider finds its endpoint.
type OpenAIConfig struct {
	// BaseURL is the chat-completions API root: requests go to
	// BaseURL + "/chat/completions".
	BaseURL string `json:"baseUrl"`
	// APIKeyEnv names the controller's environment variable holding the
	// key. Only the name is ever written down; the value goes straight
	// into the container's environment.
	APIKeyEnv string `json:"apiKeyEnv"`
}

// Price is what a model costs, in USD per million tokens.
type Price struct {
	InputPerMillion  float64 `json:"inputPerMillion"`
	OutputPerMillion float64 `json:"outputPerMillion"`
}

// Network is the network the Student's container gets.
type Network string

// The Student's networks.
const (
	// NetworkBridge: the Docker bridge; the Student can reach anything the
	// host can.
	NetworkBridge Network = "bridge"
	// NetworkNone: no network. The wrapper reaches the controller (and the
	// provider's API, through the controller) over a Unix socket.
	NetworkNone Network = "none"
)

var networkNames = []string{"bridge", "none"}

func (n Network) valid() bool { return slices.Contains(networkNames, string(n)) }

// UnmarshalJSON accepts any letter case; null leaves the value as it was.
func (n *Network) UnmarshalJSON(b []byte) error {
	v, err := decodeEnum(b, "studentNetwork", networkNames)
	if err == nil && v != "" {
		*n = Network(v)
	}
	return err
}

// The defaults of the LLM settings.
const (
	DefaultOpenAIBaseURL   = "http://host.docker.internal:11434/v1"
	DefaultOpenAIAPIKeyEnv = "OPENAI_API_KEY"
)

// envName is what an environment variable name may look like.
var envName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// modelName is a model name or "": no white space (the schemas use the same
// pattern).
var modelName = regexp.MustCompile(`^\S*$`)

// baseURL is an http(s) URL with a host and no white space.
var baseURL = regexp.MustCompile(`^https?://[^\s/?#]+\S*$`)

// PriceFor finds a model's price: an exact entry first, else the longest
// entry the model name starts with ("gpt-5" prices "gpt-5-2026-08-07").
func (c Config) PriceFor(model string) (Price, bool) {
	if p, ok := c.Prices[model]; ok {
		return p, true
	}
	best, found := "", false
	for name := range c.Prices {
		if name != "" && strings.HasPrefix(model, name) && len(name) > len(best) {
			best, found = name, true
		}
	}
	return c.Prices[best], found
}

// validateLLM checks the settings beyond the seed.
func (c Config) validateLLM(prefix string) []error {
	var errs []error
	positive := func(field string, v int) {
		if v <= 0 {
			errs = append(errs, fmt.Errorf("%s%s must be a positive integer, got %d", prefix, field, v))
		}
	}
	positive("maxTurns.student", c.MaxTurns.Student)
	positive("maxTurns.mentor", c.MaxTurns.Mentor)
	positive("invocationTimeoutSeconds.student", c.InvocationTimeoutSeconds.Student)
	positive("invocationTimeoutSeconds.mentor", c.InvocationTimeoutSeconds.Mentor)
	if u, err := url.Parse(c.OpenAI.BaseURL); err != nil || u.Host == "" || !baseURL.MatchString(c.OpenAI.BaseURL) {
		errs = append(errs, fmt.Errorf("%sopenai.baseUrl %q must be an http:// or https:// URL", prefix, c.OpenAI.BaseURL))
	}
	if !envName.MatchString(c.OpenAI.APIKeyEnv) {
		errs = append(errs, fmt.Errorf("%sopenai.apiKeyEnv %q must be the name of an environment variable (letters, digits and _)", prefix, c.OpenAI.APIKeyEnv))
	}
	if !c.StudentNetwork.valid() {
		errs = append(errs, enumError(prefix+"studentNetwork", string(c.StudentNetwork), networkNames))
	}
	if !c.Resume.valid() {
		errs = append(errs, enumError(prefix+"resume", string(c.Resume), resumeNames))
	}
	if c.BudgetUSD < 0 || math.IsNaN(c.BudgetUSD) || math.IsInf(c.BudgetUSD, 0) {
		errs = append(errs, fmt.Errorf("%sbudgetUsd must be 0 (no budget) or a positive number of dollars, got %v", prefix, c.BudgetUSD))
	}
	for _, name := range mapKeys(c.Prices) {
		p := c.Prices[name]
		if strings.TrimSpace(name) == "" {
			errs = append(errs, fmt.Errorf("%sprices: a model name must not be empty", prefix))
		}
		if p.InputPerMillion < 0 || p.OutputPerMillion < 0 {
			errs = append(errs, fmt.Errorf("%sprices.%s: prices must not be negative", prefix, name))
		}
	}
	for _, m := range []struct{ field, v string }{{"models.student", c.Models.Student}, {"models.mentor", c.Models.Mentor}} {
		if !modelName.MatchString(m.v) {
			errs = append(errs, fmt.Errorf("%s%s %q must be a model name without spaces", prefix, m.field, m.v))
		}
	}
	return errs
}
