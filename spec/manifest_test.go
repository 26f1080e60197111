package spec

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

const manifestHead = "apiVersion: smile.dev/v1alpha1\nkind: SmileRun\nmetadata:\n  name: quickstart\n"

func TestParseManifestValid(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want SmileRun
	}{
		{
			name: "YAML without spec",
			in:   manifestHead,
			want: SmileRun{APIVersion: APIVersion, Kind: Kind, Metadata: ObjectMeta{Name: "quickstart"}},
		},
		{
			name: "YAML with every kind of spec field",
			in: manifestHead + `  labels:
    team: docs
  annotations:
    smile.dev/note: "first run"
spec:
  config: settings/smile.json
  tutorial: docs/quickstart.md
  llmProvider: Literal
  maxIterations: 3
  containerImage: python:3.12
  studentBehavior:
    patienceLevel: high
    askOnTimeout: false
  container:
    keepOnSuccess: true
status:
  phase: Succeeded
`,
			want: SmileRun{
				APIVersion: APIVersion, Kind: Kind,
				Metadata: ObjectMeta{
					Name:        "quickstart",
					Labels:      map[string]string{"team": "docs"},
					Annotations: map[string]string{"smile.dev/note": "first run"},
				},
				Spec: map[string]any{
					"config":         "settings/smile.json",
					"tutorial":       "docs/quickstart.md",
					"llmProvider":    "Literal",
					"maxIterations":  float64(3),
					"containerImage": "python:3.12",
					"studentBehavior": map[string]any{
						"patienceLevel": "high",
						"askOnTimeout":  false,
					},
					"container": map[string]any{"keepOnSuccess": true},
				},
			},
		},
		{
			name: "JSON",
			in:   `{"apiVersion": "smile.dev/v1alpha1", "kind": "SmileRun", "metadata": {"name": "q1"}, "spec": {"timeout": 600}}`,
			want: SmileRun{APIVersion: APIVersion, Kind: Kind, Metadata: ObjectMeta{Name: "q1"}, Spec: map[string]any{"timeout": float64(600)}},
		},
		{
			name: "name of 63 characters starting with a digit",
			in:   "apiVersion: smile.dev/v1alpha1\nkind: SmileRun\nmetadata:\n  name: 1" + strings.Repeat("a", 62) + "\n",
			want: SmileRun{APIVersion: APIVersion, Kind: Kind, Metadata: ObjectMeta{Name: "1" + strings.Repeat("a", 62)}},
		},
		{
			name: "comments and document marker",
			in:   "---\n# a run\n" + manifestHead + "spec: # nothing yet\n",
			want: SmileRun{APIVersion: APIVersion, Kind: Kind, Metadata: ObjectMeta{Name: "quickstart"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseManifest([]byte(tt.in), "run.yaml")
			if err != nil {
				t.Fatalf("ParseManifest error = %v", err)
			}
			if !reflect.DeepEqual(*got, tt.want) {
				t.Errorf("ParseManifest =\n  %#v\nwant\n  %#v", *got, tt.want)
			}
		})
	}
}

func TestParseManifestErrors(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string // the whole error; each problem on its own line
	}{
		{
			name: "empty",
			in:   "",
			want: "run.yaml: empty manifest",
		},
		{
			name: "only a comment",
			in:   "# nothing\n",
			want: "run.yaml: empty manifest",
		},
		{
			name: "a list",
			in:   "- a\n- b\n",
			want: "run.yaml: a manifest must be an object with apiVersion, kind, metadata and spec",
		},
		{
			name: "missing apiVersion, kind and name",
			in:   "metadata: {}\n",
			want: "run.yaml: apiVersion must be \"smile.dev/v1alpha1\", got \"\"\nkind must be \"SmileRun\", got \"\"\nmetadata.name is required",
		},
		{
			name: "wrong apiVersion and kind",
			in:   "apiVersion: smile.dev/v1\nkind: SmileTest\nmetadata:\n  name: ok\n",
			want: "run.yaml: apiVersion must be \"smile.dev/v1alpha1\", got \"smile.dev/v1\"\nkind must be \"SmileRun\", got \"SmileTest\"",
		},
		{
			name: "kind is case-sensitive",
			in:   "apiVersion: smile.dev/v1alpha1\nkind: smilerun\nmetadata:\n  name: ok\n",
			want: "run.yaml: kind must be \"SmileRun\", got \"smilerun\"",
		},
		{
			name: "unknown top-level keys, sorted, with hints",
			in:   manifestHead + "specs: {}\nzzz: 1\nKind: x\n",
			want: "run.yaml: unknown field \"Kind\" (did you mean \"kind\"?)\nunknown field \"specs\" (did you mean \"spec\"?)\nunknown field \"zzz\"",
		},
		{
			name: "metadata is not an object",
			in:   "apiVersion: smile.dev/v1alpha1\nkind: SmileRun\nmetadata: quickstart\n",
			want: "run.yaml: metadata must be an object, got string",
		},
		{
			name: "name is not a string",
			in:   "apiVersion: smile.dev/v1alpha1\nkind: SmileRun\nmetadata:\n  name: [a]\n",
			want: "run.yaml: metadata.name must be a string, got array",
		},
		{
			name: "spec is not an object",
			in:   manifestHead + "spec: 3\n",
			want: "run.yaml: spec must be an object, got number",
		},
	}
	for _, name := range []string{"Quickstart", "quick_start", "-quick", "quick-", "quick.start", "quick start", strings.Repeat("a", 64)} {
		tests = append(tests, struct {
			name string
			in   string
			want string
		}{
			name: "invalid name " + name,
			in:   "apiVersion: smile.dev/v1alpha1\nkind: SmileRun\nmetadata:\n  name: \"" + name + "\"\n",
			want: "run.yaml: metadata.name \"" + name + "\" must be a DNS label: lower-case letters, digits and '-', at most 63 characters",
		})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseManifest([]byte(tt.in), "run.yaml")
			if err == nil {
				t.Fatalf("ParseManifest = %+v, want error %q", got, tt.want)
			}
			if got != nil {
				t.Errorf("ParseManifest returned %+v with its error, want nil", got)
			}
			if err.Error() != tt.want {
				t.Errorf("ParseManifest error =\n%s\nwant\n%s", err, tt.want)
			}
		})
	}
}

func TestParseManifestUnknownSpecFields(t *testing.T) {
	tests := []struct {
		name string
		spec string
		want []string
	}{
		{
			name: "typo at the top of spec",
			spec: "  maxIteration: 3\n",
			want: []string{`unknown field "spec.maxIteration" (did you mean "maxIterations"?)`},
		},
		{
			name: "every unknown field is reported, in order",
			spec: `  maxIteration: 3
  studentBehaviour: {}
  studentBehavior:
    patience: high
    timeoutSecond: 3
    askOnTimeout: true
    mood: calm
  container:
    keepOnFail: true
  bogusThing: 1
  timeout: 5
`,
			want: []string{
				`unknown field "spec.bogusThing"`,
				`unknown field "spec.container.keepOnFail" (did you mean "keepOnFailure"?)`,
				`unknown field "spec.maxIteration" (did you mean "maxIterations"?)`,
				`unknown field "spec.studentBehavior.mood"`,
				`unknown field "spec.studentBehavior.patience" (did you mean "patienceLevel"?)`,
				`unknown field "spec.studentBehavior.timeoutSecond" (did you mean "timeoutSeconds"?)`,
				`unknown field "spec.studentBehaviour" (did you mean "studentBehavior"?)`,
			},
		},
		{
			name: "field names are case-sensitive",
			spec: "  MaxIterations: 3\n  LLMProvider: claude\n",
			want: []string{
				`unknown field "spec.LLMProvider" (did you mean "llmProvider"?)`,
				`unknown field "spec.MaxIterations" (did you mean "maxIterations"?)`,
			},
		},
		{
			name: "a nested field written at the top",
			spec: "  patienceLevel: high\n  keepOnSuccess: true\n",
			want: []string{
				`unknown field "spec.keepOnSuccess" (did you mean "container.keepOnSuccess"?)`,
				`unknown field "spec.patienceLevel" (did you mean "studentBehavior.patienceLevel"?)`,
			},
		},
		{
			name: "snake case from the Python model",
			spec: "  max_iterations: 3\n",
			want: []string{`unknown field "spec.max_iterations" (did you mean "maxIterations"?)`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseManifest([]byte(manifestHead+"spec:\n"+tt.spec), "run.yaml")
			if err == nil {
				t.Fatal("ParseManifest error = nil")
			}
			want := "run.yaml: " + strings.Join(tt.want, "\n")
			if err.Error() != want {
				t.Errorf("ParseManifest error =\n%s\nwant\n%s", err, want)
			}
		})
	}
}

// The spec's own values are checked when the manifest is parsed.
func TestParseManifestInvalidSpecValues(t *testing.T) {
	tests := []struct {
		name string
		spec string
		want string
	}{
		{
			name: "string for an integer",
			spec: "  maxIterations: \"5\"\n",
			want: "spec.maxIterations must be an integer, got string",
		},
		{
			name: "nested string for an integer",
			spec: "  studentBehavior:\n    timeoutSeconds: soon\n",
			want: "spec.studentBehavior.timeoutSeconds must be an integer, got string",
		},
		{
			name: "scalar for an object",
			spec: "  studentBehavior: 3\n",
			want: "spec.studentBehavior must be an object, got number",
		},
		{
			name: "invalid provider",
			spec: "  llmProvider: gpt\n",
			want: `spec.llmProvider: invalid value "gpt" (allowed: claude, codex, gemini, literal, openai)`,
		},
		{
			name: "invalid patience",
			spec: "  studentBehavior:\n    patienceLevel: zen\n",
			want: `spec.studentBehavior.patienceLevel: invalid value "zen" (allowed: low, medium, high)`,
		},
		{
			name: "zero and negative integers",
			spec: "  maxIterations: 0\n  timeout: -1\n  studentBehavior:\n    maxRetriesBeforeHelp: 0\n    timeoutSeconds: -60\n",
			want: "spec.maxIterations must be a positive integer, got 0\n" +
				"spec.timeout must be a positive integer, got -1\n" +
				"spec.studentBehavior.maxRetriesBeforeHelp must be a positive integer, got 0\n" +
				"spec.studentBehavior.timeoutSeconds must be a positive integer, got -60",
		},
		{
			name: "invalid image",
			spec: "  containerImage: Not Valid\n",
			want: `spec.containerImage "Not Valid" is not a valid image reference: invalid reference format: repository name (library/Not Valid) must be lowercase`,
		},
		{
			name: "config is not a path",
			spec: "  config: 3\n",
			want: "spec.config must be the path of a smile.json file",
		},
		{
			name: "config is empty",
			spec: "  config: \"\"\n",
			want: "spec.config must be the path of a smile.json file",
		},
		{
			name: "unknown and invalid together",
			spec: "  maxIteration: 3\n  timeout: 0\n",
			want: "unknown field \"spec.maxIteration\" (did you mean \"maxIterations\"?)\nspec.timeout must be a positive integer, got 0",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseManifest([]byte(manifestHead+"spec:\n"+tt.spec), "run.yaml")
			if err == nil {
				t.Fatal("ParseManifest error = nil")
			}
			if want := "run.yaml: " + tt.want; err.Error() != want {
				t.Errorf("ParseManifest error =\n%s\nwant\n%s", err, want)
			}
		})
	}
}

func TestConfigPath(t *testing.T) {
	abs := filepath.Join(t.TempDir(), "elsewhere", "smile.json")
	tests := []struct {
		name string
		spec map[string]any
		want string
	}{
		{"default", nil, filepath.Join("/runs/q", ConfigFileName)},
		{"relative", map[string]any{"config": "conf/ci.json"}, filepath.Join("/runs/q", "conf", "ci.json")},
		{"parent folder", map[string]any{"config": "../shared.json"}, "/runs/shared.json"},
		{"absolute", map[string]any{"config": abs}, abs},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &SmileRun{Spec: tt.spec}
			if got := r.ConfigPath("/runs/q"); got != tt.want {
				t.Errorf("ConfigPath = %q, want %q", got, tt.want)
			}
		})
	}
}

// The manifest's spec wins over smile.json, which wins over the defaults, field
// by field, nested fields included.
func TestResolveLayers(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, ConfigFileName, `{
  "tutorial": "docs/from-file.md",
  "maxIterations": 5,
  "timeout": 600,
  "llmProvider": "codex",
  "studentBehavior": {"timeoutSeconds": 90, "patienceLevel": "medium", "askOnTimeout": false},
  "container": {"keepOnSuccess": true}
}`)
	run := mustParse(t, manifestHead+`spec:
  maxIterations: 2
  llmProvider: LITERAL
  studentBehavior:
    patienceLevel: high
  container:
    keepOnFailure: false
`)
	got, err := run.Resolve(dir)
	if err != nil {
		t.Fatalf("Resolve error = %v", err)
	}
	want := DefaultConfig()
	// from smile.json
	want.Tutorial = "docs/from-file.md"
	want.Timeout = 600
	want.StudentBehavior.TimeoutSeconds = 90
	want.StudentBehavior.AskOnTimeout = false
	want.Container.KeepOnSuccess = true
	// from the manifest, over smile.json
	want.MaxIterations = 2
	want.LLMProvider = ProviderLiteral
	want.StudentBehavior.PatienceLevel = PatienceHigh
	want.Container.KeepOnFailure = false
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Resolve =\n  %+v\nwant\n  %+v", got, want)
	}
}

func TestResolveEveryFieldFromSpec(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, ConfigFileName, `{"maxIterations": 5}`)
	run := mustParse(t, manifestHead+`spec:
  tutorial: t.md
  llmProvider: gemini
  maxIterations: 9
  timeout: 99
  containerImage: alpine:3
  studentBehavior:
    maxRetriesBeforeHelp: 4
    askOnMissingDependency: false
    askOnAmbiguousInstruction: false
    askOnCommandFailure: false
    askOnTimeout: false
    timeoutSeconds: 7
    patienceLevel: Medium
  container:
    keepOnFailure: false
    keepOnSuccess: true
    memory: 1g
    pids: 64
    cpus: 0.5
  stateFile: s.json
  outputDir: out
  models: {student: qwen3-coder, mentor: gpt-oss}
  maxTurns: {student: 30, mentor: 5}
  invocationTimeoutSeconds: {student: 600, mentor: 120}
  openai: {baseUrl: "http://vllm:8000/v1", apiKeyEnv: VLLM_KEY}
  studentNetwork: none
  budgetUsd: 1
  prices: {qwen3-coder: {inputPerMillion: 0.1, outputPerMillion: 0.4}}
  resume: FromStart
  checkpointDisk: 3g
  runners: {python: python3}
  setup: [touch ready]
  minCoverage: 0.9
`)
	got, err := run.Resolve(dir)
	if err != nil {
		t.Fatalf("Resolve error = %v", err)
	}
	want := Config{
		Tutorial: "t.md", LLMProvider: ProviderGemini, MaxIterations: 9, Timeout: 99, ContainerImage: "alpine:3",
		StudentBehavior: StudentBehavior{MaxRetriesBeforeHelp: 4, TimeoutSeconds: 7, PatienceLevel: PatienceMedium},
		Container:       ContainerConfig{KeepOnSuccess: true, Memory: "1g", Pids: 64, CPUs: 0.5},
		StateFile:       "s.json", OutputDir: "out",
		Models:                   Models{Student: "qwen3-coder", Mentor: "gpt-oss"},
		MaxTurns:                 RoleLimits{Student: 30, Mentor: 5},
		InvocationTimeoutSeconds: RoleLimits{Student: 600, Mentor: 120},
		OpenAI:                   OpenAIConfig{BaseURL: "http://vllm:8000/v1", APIKeyEnv: "VLLM_KEY"},
		StudentNetwork:           NetworkNone,
		BudgetUSD:                1,
		Prices:                   map[string]Price{"qwen3-coder": {InputPerMillion: 0.1, OutputPerMillion: 0.4}},
		Resume:                   ResumeFromStart,
		CheckpointDisk:           "3g",
		Runners:                  map[string]string{"python": "python3"},
		Setup:                    []string{"touch ready"},
		MinCoverage:              0.9,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Resolve =\n  %+v\nwant\n  %+v", got, want)
	}
}

func TestResolveWithoutConfigFileUsesDefaults(t *testing.T) {
	run := mustParse(t, manifestHead+"spec:\n  timeout: 60\n")
	got, err := run.Resolve(t.TempDir())
	if err != nil {
		t.Fatalf("Resolve error = %v", err)
	}
	want := DefaultConfig()
	want.Timeout = 60
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Resolve =\n  %+v\nwant\n  %+v", got, want)
	}
}

func TestResolveSpecConfigPointsAtAnotherFile(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, ConfigFileName, `{"maxIterations": 5, "timeout": 100}`)
	writeFile(t, dir, "ci/smile.ci.json", `{"maxIterations": 1}`)
	// An absolute path inside the project is read; one outside is refused
	// (TestResolveRefusesPathsOutsideTheProject).
	other := writeFile(t, dir, "abs/abs.json", `{"timeout": 42}`)

	t.Run("relative to the manifest's folder", func(t *testing.T) {
		got, err := mustParse(t, manifestHead+"spec:\n  config: ci/smile.ci.json\n").Resolve(dir)
		if err != nil {
			t.Fatalf("Resolve error = %v", err)
		}
		want := DefaultConfig()
		want.MaxIterations = 1 // and not smile.json's timeout
		if !reflect.DeepEqual(got, want) {
			t.Errorf("Resolve =\n  %+v\nwant\n  %+v", got, want)
		}
	})
	t.Run("absolute", func(t *testing.T) {
		got, err := mustParse(t, manifestHead+"spec:\n  config: "+other+"\n  maxIterations: 8\n").Resolve(dir)
		if err != nil {
			t.Fatalf("Resolve error = %v", err)
		}
		want := DefaultConfig()
		want.Timeout = 42
		want.MaxIterations = 8
		if !reflect.DeepEqual(got, want) {
			t.Errorf("Resolve =\n  %+v\nwant\n  %+v", got, want)
		}
	})
	t.Run("a named file must exist", func(t *testing.T) {
		_, err := mustParse(t, manifestHead+"spec:\n  config: ci/typo.json\n").Resolve(dir)
		want := "smilerun quickstart: spec.config: " + filepath.Join(dir, "ci", "typo.json") + " not found"
		if err == nil || err.Error() != want {
			t.Errorf("Resolve error = %v, want %q", err, want)
		}
	})
}

func TestResolveErrors(t *testing.T) {
	t.Run("invalid smile.json names the file", func(t *testing.T) {
		dir := t.TempDir()
		p := writeFile(t, dir, ConfigFileName, "{\n  \"timeout\": 1,\n}")
		_, err := mustParse(t, manifestHead).Resolve(dir)
		want := p + ":3:1: invalid JSON: invalid character '}' looking for beginning of object key string"
		if err == nil || err.Error() != want {
			t.Errorf("Resolve error = %v, want %q", err, want)
		}
	})
	t.Run("spec built in code is still checked", func(t *testing.T) {
		run := &SmileRun{Metadata: ObjectMeta{Name: "q"}, Spec: map[string]any{"maxIterations": "ten"}}
		_, err := run.Resolve(t.TempDir())
		want := "smilerun q: spec.maxIterations must be an integer, got string"
		if err == nil || err.Error() != want {
			t.Errorf("Resolve error = %v, want %q", err, want)
		}
	})
	t.Run("merged result is validated", func(t *testing.T) {
		run := &SmileRun{Metadata: ObjectMeta{Name: "q"}, Spec: map[string]any{"timeout": 0}}
		_, err := run.Resolve(t.TempDir())
		want := "smilerun q: timeout must be a positive integer, got 0"
		if err == nil || err.Error() != want {
			t.Errorf("Resolve error = %v, want %q", err, want)
		}
	})
}

func mustParse(t *testing.T, manifest string) *SmileRun {
	t.Helper()
	run, err := parseManifest([]byte(manifest), "run.yaml")
	if err != nil {
		t.Fatalf("ParseManifest error = %v", err)
	}
	return run
}

func TestNearest(t *testing.T) {
	candidates := []string{"container", "containerImage", "llmProvider", "maxIterations", "timeout"}
	tests := []struct{ word, want string }{
		{"maxIteration", "maxIterations"},
		{"maxiterations", "maxIterations"},
		{"timout", "timeout"},
		{"containerImg", "containerImage"},
		{"contain", "container"},
		{"llm", ""},
		{"memory", ""},
		{"x", ""},
	}
	for _, tt := range tests {
		t.Run(tt.word, func(t *testing.T) {
			if got := Nearest(tt.word, candidates); got != tt.want {
				t.Errorf("Nearest(%q) = %q, want %q", tt.word, got, tt.want)
			}
		})
	}
}
