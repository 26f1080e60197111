package spec

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// writeFile writes content to dir/name and returns the path.
func writeFile(t testing.TB, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// loadConfigString writes content as smile.json in a fresh folder and loads it.
func loadConfigString(t *testing.T, content string) (Config, string, error) {
	t.Helper()
	p := writeFile(t, t.TempDir(), ConfigFileName, content)
	cfg, err := LoadConfig(p)
	return cfg, p, err
}

func TestDefaultConfigMatchesSeed(t *testing.T) {
	cfg := DefaultConfig()
	tests := []struct {
		field string
		got   any
		want  any
	}{
		{"tutorial", cfg.Tutorial, "tutorial.md"},
		{"llmProvider", cfg.LLMProvider, ProviderClaude},
		{"maxIterations", cfg.MaxIterations, 10},
		{"timeout", cfg.Timeout, 1800},
		{"containerImage", cfg.ContainerImage, "smile-base:latest"},
		{"studentBehavior.maxRetriesBeforeHelp", cfg.StudentBehavior.MaxRetriesBeforeHelp, 3},
		{"studentBehavior.askOnMissingDependency", cfg.StudentBehavior.AskOnMissingDependency, true},
		{"studentBehavior.askOnAmbiguousInstruction", cfg.StudentBehavior.AskOnAmbiguousInstruction, true},
		{"studentBehavior.askOnCommandFailure", cfg.StudentBehavior.AskOnCommandFailure, true},
		{"studentBehavior.askOnTimeout", cfg.StudentBehavior.AskOnTimeout, true},
		{"studentBehavior.timeoutSeconds", cfg.StudentBehavior.TimeoutSeconds, 60},
		{"studentBehavior.patienceLevel", cfg.StudentBehavior.PatienceLevel, PatienceLow},
		{"container.keepOnFailure", cfg.Container.KeepOnFailure, true},
		{"container.keepOnSuccess", cfg.Container.KeepOnSuccess, false},
		{"stateFile", cfg.StateFile, ""}, // the run's own folder (DefaultRunDir)
		{"outputDir", cfg.OutputDir, ""},
	}
	for _, tt := range tests {
		t.Run(tt.field, func(t *testing.T) {
			if tt.got != tt.want {
				t.Errorf("%s = %#v, want %#v", tt.field, tt.got, tt.want)
			}
		})
	}
	if err := cfg.Validate(); err != nil {
		t.Errorf("DefaultConfig().Validate() = %v, want nil", err)
	}
}

// E01: no smile.json means exactly the defaults.
func TestLoadConfigMissingFileIsDefaults(t *testing.T) {
	cfg, err := LoadConfig(filepath.Join(t.TempDir(), ConfigFileName))
	if err != nil {
		t.Fatalf("LoadConfig(missing) error = %v, want nil", err)
	}
	if !reflect.DeepEqual(cfg, DefaultConfig()) {
		t.Errorf("LoadConfig(missing) = %+v, want DefaultConfig() %+v", cfg, DefaultConfig())
	}
}

func TestLoadConfigReadError(t *testing.T) {
	dir := t.TempDir() // a folder where a file is expected cannot be read
	_, err := LoadConfig(dir)
	if err == nil {
		t.Fatal("LoadConfig(folder) error = nil, want a read error")
	}
	if want := "read config " + dir + ": "; !strings.HasPrefix(err.Error(), want) {
		t.Errorf("LoadConfig(folder) error = %q, want prefix %q", err, want)
	}
}

// E02: invalid JSON names the file, the line and the column.
func TestLoadConfigInvalidJSON(t *testing.T) {
	tests := []struct {
		name    string
		content string
		want    string // after "<path>:"
	}{
		{
			name:    "trailing comma",
			content: "{\n  \"maxIterations\": 5,\n}\n",
			want:    "3:1: invalid JSON: invalid character '}' looking for beginning of object key string",
		},
		{
			name:    "missing closing quote",
			content: "{\n  \"tutorial\": \"a.md,\n  \"timeout\": 3\n}\n",
			want:    "2:21: invalid JSON: invalid character '\\n' in string literal",
		},
		{
			name:    "missing opening quote of a key",
			content: "{\n  \"tutorial\": \"a.md\",\n  timeout\": 3\n}\n",
			want:    "3:3: invalid JSON: invalid character 't' looking for beginning of object key string",
		},
		{
			name:    "missing comma",
			content: "{\n  \"tutorial\": \"a.md\"\n  \"timeout\": 3\n}\n",
			want:    "3:3: invalid JSON: invalid character '\"' after object key:value pair",
		},
		{
			name:    "truncated after a key",
			content: "{\n  \"maxIterations\": 5,\n  \"timeout\": ",
			want:    "3:14: invalid JSON: unexpected end of input",
		},
		{
			name:    "truncated after a value",
			content: "{\n  \"maxIterations\": 5",
			want:    "2:21: invalid JSON: unexpected end of input",
		},
		{
			name:    "truncated inside a string",
			content: "{\"tutorial\": \"doc",
			want:    "1:18: invalid JSON: unexpected end of input",
		},
		{
			name:    "empty file",
			content: "",
			want:    "1:1: invalid JSON: unexpected end of input",
		},
		{
			name:    "only whitespace",
			content: "  \n\n",
			want:    "3:1: invalid JSON: unexpected end of input",
		},
		{
			name:    "single quotes",
			content: "{'timeout': 3}",
			want:    "1:2: invalid JSON: invalid character '\\'' looking for beginning of object key string",
		},
		{
			name:    "comment",
			content: "{\n  // no comments in JSON\n}",
			want:    "2:3: invalid JSON: invalid character '/' looking for beginning of object key string",
		},
		{
			name:    "column counts characters not bytes",
			content: "{\"tutorial\": \"été.md\" x}",
			want:    "1:23: invalid JSON: invalid character 'x' after object key:value pair",
		},
		{
			name:    "second object",
			content: "{}\n{}",
			want:    "2:1: invalid JSON: unexpected content after the top-level object",
		},
		{
			name:    "extra closing brace",
			content: "{\"timeout\": 3}}",
			want:    "1:15: invalid JSON: unexpected content after the top-level object",
		},
		{
			name:    "bare word",
			content: "maxIterations: 3",
			want:    "1:1: invalid JSON: invalid character 'm' looking for beginning of value",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, path, err := loadConfigString(t, tt.content)
			if err == nil {
				t.Fatalf("LoadConfig(%q) error = nil, want %q", tt.content, tt.want)
			}
			if want := path + ":" + tt.want; err.Error() != want {
				t.Errorf("LoadConfig(%q) error =\n  %q\nwant\n  %q", tt.content, err, want)
			}
		})
	}
}

// A value of the wrong type names its field path and where the value starts.
func TestLoadConfigTypeErrors(t *testing.T) {
	tests := []struct {
		name    string
		content string
		want    string // after "<path>:"
	}{
		{
			name:    "string for an integer",
			content: "{\n  \"maxIterations\": \"5\"\n}",
			want:    "2:20: maxIterations must be an integer, got string",
		},
		{
			name:    "nested string for an integer",
			content: "{\n  \"studentBehavior\": {\n    \"timeoutSeconds\": \"60\"\n  }\n}",
			want:    "3:23: studentBehavior.timeoutSeconds must be an integer, got string",
		},
		{
			name:    "string with escaped quotes for an integer",
			content: "{\"timeout\": \"a\\\"b\"}",
			want:    "1:13: timeout must be an integer, got string",
		},
		{
			name:    "fraction for an integer",
			content: "{\n  \"maxIterations\": 5.5\n}",
			want:    "2:20: maxIterations must be an integer, got number 5.5",
		},
		{
			name:    "integer too large",
			content: "{\"timeout\": 99999999999999999999}",
			want:    "1:13: timeout must be an integer, got number 99999999999999999999",
		},
		{
			name:    "string for a boolean",
			content: "{\n  \"container\": {\"keepOnSuccess\": \"yes\"}\n}",
			want:    "2:34: container.keepOnSuccess must be true or false, got string",
		},
		{
			name:    "number for a string",
			content: "{\"tutorial\": 42}",
			want:    "1:14: tutorial must be a string, got number",
		},
		{
			name:    "boolean for a string",
			content: "{\"outputDir\": true}",
			want:    "1:15: outputDir must be a string, got bool",
		},
		{
			name:    "object for an integer",
			content: "{\"maxIterations\": {\"value\": 3}}",
			want:    "1:19: maxIterations must be an integer, got object",
		},
		{
			name:    "array for an object",
			content: "{\"studentBehavior\": [1, 2]}",
			want:    "1:21: studentBehavior must be an object, got array",
		},
		{
			name:    "number for an object",
			content: "{\"container\": 1}",
			want:    "1:15: container must be an object, got number",
		},
		{
			name:    "array at the root",
			content: "[]",
			want:    "1:1: the configuration must be an object, got array",
		},
		{
			name:    "string at the root",
			content: "\n  \"smile\"",
			want:    "2:3: the configuration must be an object, got string",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, path, err := loadConfigString(t, tt.content)
			if err == nil {
				t.Fatalf("LoadConfig(%q) error = nil, want %q", tt.content, tt.want)
			}
			if want := path + ":" + tt.want; err.Error() != want {
				t.Errorf("LoadConfig(%q) error =\n  %q\nwant\n  %q", tt.content, err, want)
			}
		})
	}
}

// E03: unknown fields are ignored, at the root and inside the objects.
func TestLoadConfigIgnoresUnknownFields(t *testing.T) {
	tests := []struct {
		name    string
		content string
		want    func(*Config)
	}{
		{
			name:    "root",
			content: `{"futureField": {"deep": [1, 2, {"x": null}]}, "maxIterations": 4, "anotherOne": "x"}`,
			want:    func(c *Config) { c.MaxIterations = 4 },
		},
		{
			name:    "studentBehavior",
			content: `{"studentBehavior": {"mood": "curious", "timeoutSeconds": 30, "tools": ["git"]}}`,
			want:    func(c *Config) { c.StudentBehavior.TimeoutSeconds = 30 },
		},
		{
			name:    "container",
			content: `{"container": {"memory": "2g", "keepOnSuccess": true, "cpus": 2}}`,
			want:    func(c *Config) { c.Container.KeepOnSuccess = true },
		},
		{
			name:    "only unknown fields",
			content: `{"$schema": "https://smile.dev/schema.json", "version": 2}`,
			want:    func(*Config) {},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _, err := loadConfigString(t, tt.content)
			if err != nil {
				t.Fatalf("LoadConfig(%s) error = %v, want nil", tt.content, err)
			}
			want := DefaultConfig()
			tt.want(&want)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("LoadConfig(%s) =\n  %+v\nwant\n  %+v", tt.content, got, want)
			}
		})
	}
}

func TestLoadConfigEveryField(t *testing.T) {
	content := `{
  "tutorial": "docs/quickstart.md",
  "llmProvider": "gemini",
  "maxIterations": 7,
  "timeout": 900,
  "containerImage": "ghcr.io/acme/tutorial-env:1.2",
  "studentBehavior": {
    "maxRetriesBeforeHelp": 5,
    "askOnMissingDependency": false,
    "askOnAmbiguousInstruction": false,
    "askOnCommandFailure": false,
    "askOnTimeout": false,
    "timeoutSeconds": 120,
    "patienceLevel": "medium"
  },
  "container": {"keepOnFailure": false, "keepOnSuccess": true, "memory": "512m", "pids": 128, "cpus": 1.5},
  "stateFile": "state/loop.json",
  "outputDir": "reports",
  "models": {"student": "claude-sonnet-4-5", "mentor": "claude-opus-4-1"},
  "maxTurns": {"student": 40, "mentor": 8},
  "invocationTimeoutSeconds": {"student": 900, "mentor": 300},
  "openai": {"baseUrl": "https://llm.example.com/v1", "apiKeyEnv": "TEAM_LLM_KEY"},
  "studentNetwork": "None",
  "budgetUsd": 2.5,
  "prices": {"gpt-5": {"inputPerMillion": 1.25, "outputPerMillion": 10}},
  "resume": "checkpoint",
  "checkpointDisk": "500m",
  "runners": {"sql": "sqlite3 shop.db"},
  "setup": ["mkdir -p data"],
  "minCoverage": 0.8
}`
	want := Config{
		Tutorial:       "docs/quickstart.md",
		LLMProvider:    ProviderGemini,
		MaxIterations:  7,
		Timeout:        900,
		ContainerImage: "ghcr.io/acme/tutorial-env:1.2",
		StudentBehavior: StudentBehavior{
			MaxRetriesBeforeHelp: 5,
			TimeoutSeconds:       120,
			PatienceLevel:        PatienceMedium,
		},
		Container: ContainerConfig{KeepOnSuccess: true, Memory: "512m", Pids: 128, CPUs: 1.5},
		StateFile: "state/loop.json",
		OutputDir: "reports",

		Models:                   Models{Student: "claude-sonnet-4-5", Mentor: "claude-opus-4-1"},
		MaxTurns:                 RoleLimits{Student: 40, Mentor: 8},
		InvocationTimeoutSeconds: RoleLimits{Student: 900, Mentor: 300},
		OpenAI:                   OpenAIConfig{BaseURL: "https://llm.example.com/v1", APIKeyEnv: "TEAM_LLM_KEY"},
		StudentNetwork:           NetworkNone,
		BudgetUSD:                2.5,
		Prices:                   map[string]Price{"gpt-5": {InputPerMillion: 1.25, OutputPerMillion: 10}},
		Resume:                   ResumeCheckpoint,
		CheckpointDisk:           "500m",
		Runners:                  map[string]string{"sql": "sqlite3 shop.db"},
		Setup:                    []string{"mkdir -p data"},
		MinCoverage:              0.8,
	}
	got, _, err := loadConfigString(t, content)
	if err != nil {
		t.Fatalf("LoadConfig error = %v", err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("LoadConfig =\n  %+v\nwant\n  %+v", got, want)
	}
}

// Setting one nested field keeps the defaults of its siblings.
func TestLoadConfigPartialObjectsKeepDefaults(t *testing.T) {
	tests := []struct {
		name    string
		content string
		want    func(*Config)
	}{
		{
			name:    "only patienceLevel",
			content: `{"studentBehavior": {"patienceLevel": "high"}}`,
			want:    func(c *Config) { c.StudentBehavior.PatienceLevel = PatienceHigh },
		},
		{
			name:    "only one askOn flag",
			content: `{"studentBehavior": {"askOnTimeout": false}}`,
			want:    func(c *Config) { c.StudentBehavior.AskOnTimeout = false },
		},
		{
			name:    "only keepOnSuccess",
			content: `{"container": {"keepOnSuccess": true}}`,
			want:    func(c *Config) { c.Container.KeepOnSuccess = true },
		},
		{
			name:    "empty objects",
			content: `{"studentBehavior": {}, "container": {}}`,
			want:    func(*Config) {},
		},
		{
			name:    "null objects",
			content: `{"studentBehavior": null, "container": null}`,
			want:    func(*Config) {},
		},
		{
			name:    "null values keep their defaults",
			content: `{"tutorial": null, "maxIterations": null, "llmProvider": null, "studentBehavior": {"patienceLevel": null}}`,
			want:    func(*Config) {},
		},
		{
			name:    "null document",
			content: `null`,
			want:    func(*Config) {},
		},
		{
			name:    "byte-order mark",
			content: "\xef\xbb\xbf{\"timeout\": 60}",
			want:    func(c *Config) { c.Timeout = 60 },
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _, err := loadConfigString(t, tt.content)
			if err != nil {
				t.Fatalf("LoadConfig(%s) error = %v", tt.content, err)
			}
			want := DefaultConfig()
			tt.want(&want)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("LoadConfig(%s) =\n  %+v\nwant\n  %+v", tt.content, got, want)
			}
		})
	}
}

func TestLoadConfigEnumsAreCaseInsensitive(t *testing.T) {
	tests := []struct {
		content      string
		wantProvider Provider
		wantPatience Patience
	}{
		{`{"llmProvider": "Claude"}`, ProviderClaude, PatienceLow},
		{`{"llmProvider": "LITERAL"}`, ProviderLiteral, PatienceLow},
		{`{"llmProvider": "CoDeX"}`, ProviderCodex, PatienceLow},
		{`{"llmProvider": " gemini "}`, ProviderGemini, PatienceLow},
		{`{"llmProvider": "OpenAI"}`, ProviderOpenAI, PatienceLow},
		{`{"studentBehavior": {"patienceLevel": "High"}}`, ProviderClaude, PatienceHigh},
		{`{"studentBehavior": {"patienceLevel": "MEDIUM"}}`, ProviderClaude, PatienceMedium},
		{`{"studentBehavior": {"patienceLevel": "low"}}`, ProviderClaude, PatienceLow},
	}
	for _, tt := range tests {
		t.Run(tt.content, func(t *testing.T) {
			cfg, _, err := loadConfigString(t, tt.content)
			if err != nil {
				t.Fatalf("LoadConfig(%s) error = %v", tt.content, err)
			}
			if cfg.LLMProvider != tt.wantProvider {
				t.Errorf("llmProvider = %q, want %q", cfg.LLMProvider, tt.wantProvider)
			}
			if cfg.StudentBehavior.PatienceLevel != tt.wantPatience {
				t.Errorf("patienceLevel = %q, want %q", cfg.StudentBehavior.PatienceLevel, tt.wantPatience)
			}
		})
	}
}

func TestLoadConfigInvalidEnum(t *testing.T) {
	tests := []struct {
		name    string
		content string
		want    string // after "<path>: "
	}{
		{
			name:    "unknown provider",
			content: `{"llmProvider": "gpt4"}`,
			want:    `llmProvider: invalid value "gpt4" (allowed: claude, codex, gemini, literal, openai)`,
		},
		{
			name:    "empty provider",
			content: `{"llmProvider": ""}`,
			want:    `llmProvider: invalid value "" (allowed: claude, codex, gemini, literal, openai)`,
		},
		{
			name:    "number provider",
			content: `{"llmProvider": 3}`,
			want:    `llmProvider: invalid value "3" (allowed: claude, codex, gemini, literal, openai)`,
		},
		{
			name:    "unknown patience keeps the letter case the user wrote",
			content: `{"studentBehavior": {"patienceLevel": "Extreme"}}`,
			want:    `studentBehavior.patienceLevel: invalid value "Extreme" (allowed: low, medium, high)`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, path, err := loadConfigString(t, tt.content)
			if err == nil {
				t.Fatalf("LoadConfig(%s) error = nil", tt.content)
			}
			if want := path + ": " + tt.want; err.Error() != want {
				t.Errorf("LoadConfig(%s) error =\n  %q\nwant\n  %q", tt.content, err, want)
			}
			var enum *EnumError
			if !errors.As(err, &enum) {
				t.Errorf("LoadConfig(%s) error %T is not an *EnumError", tt.content, err)
			}
		})
	}
}

func TestLoadConfigRejectsNonPositiveIntegers(t *testing.T) {
	fields := []struct {
		path string
		json func(v string) string
	}{
		{"maxIterations", func(v string) string { return `{"maxIterations": ` + v + `}` }},
		{"timeout", func(v string) string { return `{"timeout": ` + v + `}` }},
		{"studentBehavior.maxRetriesBeforeHelp", func(v string) string { return `{"studentBehavior": {"maxRetriesBeforeHelp": ` + v + `}}` }},
		{"studentBehavior.timeoutSeconds", func(v string) string { return `{"studentBehavior": {"timeoutSeconds": ` + v + `}}` }},
	}
	for _, f := range fields {
		for _, v := range []string{"0", "-1", "-1800"} {
			t.Run(f.path+"="+v, func(t *testing.T) {
				_, path, err := loadConfigString(t, f.json(v))
				if err == nil {
					t.Fatalf("LoadConfig(%s) error = nil", f.json(v))
				}
				want := path + ": " + f.path + " must be a positive integer, got " + v
				if err.Error() != want {
					t.Errorf("LoadConfig(%s) error =\n  %q\nwant\n  %q", f.json(v), err, want)
				}
			})
		}
		t.Run(f.path+"=1", func(t *testing.T) {
			if _, _, err := loadConfigString(t, f.json("1")); err != nil {
				t.Errorf("LoadConfig(%s) error = %v, want nil", f.json("1"), err)
			}
		})
	}
}

func TestLoadConfigReportsEveryInvalidValue(t *testing.T) {
	_, path, err := loadConfigString(t, `{"maxIterations": 0, "timeout": -5, "tutorial": " ", "containerImage": "A B"}`)
	if err == nil {
		t.Fatal("LoadConfig error = nil")
	}
	want := path + ": maxIterations must be a positive integer, got 0\n" +
		"timeout must be a positive integer, got -5\n" +
		"tutorial must not be empty\n" +
		`containerImage "A B" is not a valid image reference: invalid reference format: repository name (library/A B) must be lowercase`
	if err.Error() != want {
		t.Errorf("LoadConfig error =\n%s\nwant\n%s", err, want)
	}
}

func TestLoadConfigContainerImage(t *testing.T) {
	valid := []string{
		"smile-base:latest",
		"ubuntu",
		"ubuntu:24.04",
		"library/python:3.12-slim",
		"ghcr.io/acme/tutorial-env:1.2",
		"localhost:5000/team/img:dev",
		"alpine@sha256:" + strings.Repeat("a", 64),
		"registry.example.com:443/a/b/c:tag@sha256:" + strings.Repeat("0", 64),
	}
	for _, image := range valid {
		t.Run("valid "+image, func(t *testing.T) {
			cfg, _, err := loadConfigString(t, `{"containerImage": "`+image+`"}`)
			if err != nil {
				t.Fatalf("LoadConfig(containerImage %q) error = %v", image, err)
			}
			if cfg.ContainerImage != image {
				t.Errorf("containerImage = %q, want %q (kept as written)", cfg.ContainerImage, image)
			}
		})
	}
	invalid := []string{
		"",
		"Smile-Base:latest",
		"smile base",
		"img:",
		":latest",
		"img:tag:extra",
		"img@sha256:short",
		"-leading-dash",
		"img:" + strings.Repeat("t", 129),
	}
	for _, image := range invalid {
		t.Run("invalid "+image, func(t *testing.T) {
			_, path, err := loadConfigString(t, `{"containerImage": "`+image+`"}`)
			if err == nil {
				t.Fatalf("LoadConfig(containerImage %q) error = nil", image)
			}
			want := path + `: containerImage "` + image + `" is not a valid image reference: `
			if !strings.HasPrefix(err.Error(), want) {
				t.Errorf("LoadConfig(containerImage %q) error =\n  %q\nwant prefix\n  %q", image, err, want)
			}
		})
	}
}

// minCoverage is a share of the page's code blocks: 0 (off) to 1.
func TestMinCoverageValidation(t *testing.T) {
	for _, tt := range []struct {
		json    string
		want    float64
		wantErr string
	}{
		{`{}`, 0.5, ""},
		{`{"minCoverage": 0}`, 0, ""},
		{`{"minCoverage": 1}`, 1, ""},
		{`{"minCoverage": 0.75}`, 0.75, ""},
		{`{"minCoverage": 1.5}`, 0, "minCoverage must be a share from 0 (no minimum) to 1 (every code block), got 1.5"},
		{`{"minCoverage": -0.1}`, 0, "got -0.1"},
		{`{"minCoverage": "half"}`, 0, "minCoverage must be a number"},
	} {
		cfg, _, err := loadConfigString(t, tt.json)
		switch {
		case tt.wantErr == "" && (err != nil || cfg.MinCoverage != tt.want):
			t.Errorf("%s: minCoverage %v, error %v, want %v", tt.json, cfg.MinCoverage, err, tt.want)
		case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
			t.Errorf("%s: error %v, want it to contain %q", tt.json, err, tt.wantErr)
		}
	}
}

func TestValidateZeroConfigListsEveryRule(t *testing.T) {
	err := Config{}.Validate()
	if err == nil {
		t.Fatal("Config{}.Validate() = nil")
	}
	want := strings.Join([]string{
		"maxIterations must be a positive integer, got 0",
		"timeout must be a positive integer, got 0",
		"studentBehavior.maxRetriesBeforeHelp must be a positive integer, got 0",
		"studentBehavior.timeoutSeconds must be a positive integer, got 0",
		"tutorial must not be empty",
		`containerImage "" is not a valid image reference: invalid reference format`,
		`llmProvider: invalid value "" (allowed: claude, codex, gemini, literal, openai)`,
		`studentBehavior.patienceLevel: invalid value "" (allowed: low, medium, high)`,
		"maxTurns.student must be a positive integer, got 0",
		"maxTurns.mentor must be a positive integer, got 0",
		"invocationTimeoutSeconds.student must be a positive integer, got 0",
		"invocationTimeoutSeconds.mentor must be a positive integer, got 0",
		`openai.baseUrl "" must be an http:// or https:// URL`,
		`openai.apiKeyEnv "" must be the name of an environment variable (letters, digits and _)`,
		`studentNetwork: invalid value "" (allowed: bridge, none)`,
		`resume: invalid value "" (allowed: auto, checkpoint, fromStart)`,
		"container.pids must be a positive integer of at most 4194304, got 0",
		`container.memory "" is not a size like "512m" or "2g"`,
		"container.cpus must be a number of CPUs from 0.01 to 1024, got 0",
		`checkpointDisk "" is not a size like "512m" or "2g"`,
	}, "\n")
	if err.Error() != want {
		t.Errorf("Config{}.Validate() =\n%s\nwant\n%s", err, want)
	}
}

func TestLineCol(t *testing.T) {
	data := []byte("ab\nçd\r\n\nx")
	tests := []struct {
		offset           int64
		wantLine, wantCo int
	}{
		{-3, 1, 1},
		{0, 1, 1},
		{1, 1, 2},
		{2, 1, 3}, // the newline itself ends line 1
		{3, 2, 1},
		{5, 2, 2}, // ç is two bytes, one column
		{6, 2, 3},
		{7, 2, 4},
		{8, 3, 1},
		{9, 4, 1},
		{10, 4, 2}, // end of data: just past the last character
		{99, 4, 2},
	}
	for _, tt := range tests {
		line, col := lineCol(data, tt.offset)
		if line != tt.wantLine || col != tt.wantCo {
			t.Errorf("lineCol(%d) = %d:%d, want %d:%d", tt.offset, line, col, tt.wantLine, tt.wantCo)
		}
	}
}
