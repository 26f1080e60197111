package spec

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"sort"
	"strings"

	"github.com/distribution/reference"
)

// ConfigFileName is the file SMILE reads its settings from, beside the manifest.
const ConfigFileName = "smile.json"

// Config is smile.json: every field is optional and has the seed's default.
// Paths are relative to the folder of the manifest (which is where smile.json
// lives unless the manifest says otherwise).
type Config struct {
	Tutorial        string          `json:"tutorial"`
	LLMProvider     Provider        `json:"llmProvider"`
	MaxIterations   int             `json:"maxIterations"`
	Timeout         int             `json:"timeout"`
	ContainerImage  string          `json:"containerImage"`
	StudentBehavior StudentBehavior `json:"studentBehavior"`
	Container       ContainerConfig `json:"container"`
	StateFile       string          `json:"stateFile"`
	OutputDir       string          `json:"outputDir"`

	// Beyond the seed: the LLM providers (see spec/llm.go).

	// Models is the model of each role ("" = the provider's default).
	Models Models `json:"models"`
	// MaxTurns bounds each role's agent turns per invocation.
	MaxTurns RoleLimits `json:"maxTurns"`
	// InvocationTimeoutSeconds bounds one Student or Mentor attempt's model
	// calls (E13): the wrapper kills the CLI when it passes.
	InvocationTimeoutSeconds RoleLimits `json:"invocationTimeoutSeconds"`
	// OpenAI configures the openai provider.
	OpenAI OpenAIConfig `json:"openai"`
	// StudentNetwork is the Student container's network: bridge or none.
	StudentNetwork Network `json:"studentNetwork"`
	// BudgetUSD ends the loop once the run's LLM calls cost this much (0:
	// no budget).
	BudgetUSD float64 `json:"budgetUsd"`
	// Prices estimates the cost of providers that report only tokens, by
	// model name.
	Prices map[string]Price `json:"prices"`
	// Resume says where each iteration after the first starts: from a
	// checkpoint before the step that stopped the last one, or from the top
	// (spec/resume.go).
	Resume Resume `json:"resume"`
	// CheckpointDisk is the most disk the checkpoints of all the runs of the
	// workspace may hold together ("2g"); past it, the least recently used
	// go first, whichever run took them.
	CheckpointDisk ByteSize `json:"checkpointDisk"`
	// Runners maps a code block's language to the program its blocks are
	// typed into when the page does not say where they go ({"sql": "sqlite3
	// shop.db"}): the literal Student runs such a block as that program's
	// input instead of skipping it as a block it cannot place.
	Runners map[string]string `json:"runners"`
	// Setup lists commands the page assumes but does not show (fetching a
	// lesson's data, say), run before its first step and reported as setup
	// the page did not show, so they never hide a gap.
	Setup []string `json:"setup"`
	// MinCoverage is the least share of the page's code blocks (from 0 to
	// 1) a run must exercise (run, write or compare) for its result to
	// count: a run that exercised less ends Inconclusive, neither passed nor
	// failed. 0 turns the check off. Only a learner that reports its
	// coverage (literal) is held to it.
	MinCoverage float64 `json:"minCoverage"`
}

// StudentBehavior tunes when the Student asks the Mentor for help.
type StudentBehavior struct {
	MaxRetriesBeforeHelp      int      `json:"maxRetriesBeforeHelp"`
	AskOnMissingDependency    bool     `json:"askOnMissingDependency"`
	AskOnAmbiguousInstruction bool     `json:"askOnAmbiguousInstruction"`
	AskOnCommandFailure       bool     `json:"askOnCommandFailure"`
	AskOnTimeout              bool     `json:"askOnTimeout"`
	TimeoutSeconds            int      `json:"timeoutSeconds"`
	PatienceLevel             Patience `json:"patienceLevel"`
}

// ContainerConfig says which containers outlive the run, for debugging, and
// what each Student and Mentor container may use.
type ContainerConfig struct {
	KeepOnFailure bool `json:"keepOnFailure"`
	KeepOnSuccess bool `json:"keepOnSuccess"`
	// Memory caps memory plus swap ("2g", "512m").
	Memory ByteSize `json:"memory"`
	// Pids caps the processes and threads at once.
	Pids int `json:"pids"`
	// CPUs caps the CPU time, in CPUs (1.5 = one and a half).
	CPUs float64 `json:"cpus"`
	// AllowPtrace lets a container's processes trace one another (ptrace,
	// process_vm_readv and process_vm_writev), for a page about gdb or
	// strace. Off, no process a page leaves running can trace the shell
	// that runs the page's commands and change an exit code it reports.
	AllowPtrace bool `json:"allowPtrace"`
	// User is the account the page's commands run as: a user of the image
	// ("nobody", "student") or a numeric UID[:GID]. Empty (the default):
	// root, which `apt-get install` needs. Set, the page's processes
	// cannot reach the process that runs them and reports their exit codes
	// (it stays root), and the work folder and the files written for the
	// page are that user's; SMILE's own steps (smile.json's setup, the
	// Mentor's workarounds) still run as root.
	User string `json:"user"`
}

// DefaultCheckpointDisk is checkpointDisk's default: the most disk the
// workspace's checkpoints hold together.
const DefaultCheckpointDisk ByteSize = "2g"

// DefaultMinCoverage is minCoverage's default: a run must exercise at
// least half of the page's code blocks.
const DefaultMinCoverage = 0.5

// DefaultConfig returns the seed's defaults (E01: no smile.json means exactly this).
func DefaultConfig() Config {
	return Config{
		Tutorial:       "tutorial.md",
		LLMProvider:    ProviderClaude,
		MaxIterations:  10,
		Timeout:        1800,
		ContainerImage: "smile-base:latest",
		StudentBehavior: StudentBehavior{
			MaxRetriesBeforeHelp:      3,
			AskOnMissingDependency:    true,
			AskOnAmbiguousInstruction: true,
			AskOnCommandFailure:       true,
			AskOnTimeout:              true,
			TimeoutSeconds:            60,
			PatienceLevel:             PatienceLow,
		},
		Container: ContainerConfig{KeepOnFailure: true, Memory: DefaultContainerMemory,
			Pids: DefaultContainerPids, CPUs: DefaultContainerCPUs},
		// Empty: the run's own folder in its workspace, .smile/runs/NAME/
		// (see DefaultRunDir), so two runs never share a file.
		StateFile: "",
		OutputDir: "",

		MaxTurns:                 RoleLimits{Student: 60, Mentor: 20},
		InvocationTimeoutSeconds: RoleLimits{Student: 1200, Mentor: 600},
		OpenAI:                   OpenAIConfig{BaseURL: DefaultOpenAIBaseURL, APIKeyEnv: DefaultOpenAIAPIKeyEnv},
		StudentNetwork:           NetworkBridge,
		Prices:                   map[string]Price{},
		Runners:                  map[string]string{},
		Setup:                    []string{},
		Resume:                   ResumeAuto,
		CheckpointDisk:           DefaultCheckpointDisk,
		MinCoverage:              DefaultMinCoverage,
	}
}

// LoadConfig reads smile.json at path over the defaults. A missing file is not
// an error (E01); invalid JSON names the line and column (E02); unknown fields
// are ignored (E03).
func LoadConfig(path string) (Config, error) {
	cfg := DefaultConfig()
	data, err := ReadRegularFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return cfg, nil
	}
	if err != nil {
		return cfg, fmt.Errorf("read config %s: %w", path, err)
	}
	if err := decodeJSONOver(&cfg, data, path); err != nil {
		return cfg, err
	}
	if err := cfg.Validate(); err != nil {
		return cfg, fmt.Errorf("%s: %w", path, err)
	}
	return cfg, nil
}

// Validate checks the rules the type system does not: positive integers and a
// usable image reference. Enums are checked while decoding.
func (c Config) Validate() error { return c.validate("") }

// validate names each field with prefix, so that a manifest's errors can say
// "spec.maxIterations".
func (c Config) validate(prefix string) error {
	var errs []error
	positive := func(field string, v int) {
		if v <= 0 {
			errs = append(errs, fmt.Errorf("%s%s must be a positive integer, got %d", prefix, field, v))
		}
	}
	nonEmpty := func(field, v string) {
		if strings.TrimSpace(v) == "" {
			errs = append(errs, fmt.Errorf("%s%s must not be empty", prefix, field))
		}
	}
	positive("maxIterations", c.MaxIterations)
	positive("timeout", c.Timeout)
	positive("studentBehavior.maxRetriesBeforeHelp", c.StudentBehavior.MaxRetriesBeforeHelp)
	positive("studentBehavior.timeoutSeconds", c.StudentBehavior.TimeoutSeconds)
	nonEmpty("tutorial", c.Tutorial)
	notBlank := func(field, v string) { // "" is the default: the run's own folder
		if v != "" && strings.TrimSpace(v) == "" {
			errs = append(errs, fmt.Errorf("%s%s must not be blank", prefix, field))
		}
	}
	if !(c.MinCoverage >= 0 && c.MinCoverage <= 1) { // NaN fails too
		errs = append(errs, fmt.Errorf("%sminCoverage must be a share from 0 (no minimum) to 1 (every code block), got %v", prefix, c.MinCoverage))
	}
	notBlank("stateFile", c.StateFile)
	notBlank("outputDir", c.OutputDir)
	if _, err := reference.ParseNormalizedNamed(c.ContainerImage); err != nil {
		errs = append(errs, fmt.Errorf("%scontainerImage %q is not a valid image reference: %v", prefix, c.ContainerImage, err))
	}
	if !c.LLMProvider.valid() {
		errs = append(errs, enumError(prefix+"llmProvider", string(c.LLMProvider), providerNames))
	}
	if !c.StudentBehavior.PatienceLevel.valid() {
		errs = append(errs, enumError(prefix+"studentBehavior.patienceLevel", string(c.StudentBehavior.PatienceLevel), patienceNames))
	}
	errs = append(errs, c.validateLLM(prefix)...)
	errs = append(errs, c.validateLimits(prefix)...)
	errs = append(errs, c.validateSteering(prefix)...)
	return errors.Join(errs...)
}

// decodeJSONOver decodes data onto v, keeping the fields data does not name,
// and turns decoder errors into messages that point at a line and column.
func decodeJSONOver(v any, data []byte, source string) error {
	// Editors on Windows save a byte-order mark; JSON allows a parser to skip it.
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(v); err != nil {
		return jsonError(source, data, err)
	}
	rest := dec.InputOffset()
	for rest < int64(len(data)) && isJSONSpace(data[rest]) {
		rest++
	}
	if rest < int64(len(data)) {
		line, col := lineCol(data, rest)
		return fmt.Errorf("%s:%d:%d: invalid JSON: unexpected content after the top-level object", source, line, col)
	}
	return nil
}

func jsonError(source string, data []byte, err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	var enum *EnumError
	switch {
	case errors.As(err, &syn):
		// The offending byte is the last one the decoder read.
		line, col := lineCol(data, syn.Offset-1)
		return fmt.Errorf("%s:%d:%d: invalid JSON: %s", source, line, col, syn.Error())
	case errors.As(err, &typ):
		line, col := lineCol(data, valueStart(data, typ.Offset))
		field := typ.Field
		if field == "" {
			field = "the configuration"
		}
		return fmt.Errorf("%s:%d:%d: %s must be %s, got %s", source, line, col, field, describeGoType(typ.Type.Kind().String()), typ.Value)
	case errors.As(err, &enum):
		return fmt.Errorf("%s: %w", source, enum)
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		line, col := lineCol(data, int64(len(data)))
		return fmt.Errorf("%s:%d:%d: invalid JSON: unexpected end of input", source, line, col)
	}
	return fmt.Errorf("%s: invalid JSON: %w", source, err)
}

// valueStart finds where the value that failed to decode begins. encoding/json
// reports the offset just past a scalar (string, number, true, false) and
// just past the opening brace or bracket of an object or array.
func valueStart(data []byte, end int64) int64 {
	if end <= 0 || end > int64(len(data)) {
		return max(0, min(end, int64(len(data)))-1)
	}
	i := end - 1
	switch data[i] {
	case '{', '[':
		return i
	case '"':
		for j := i - 1; j >= 0; j-- {
			if data[j] != '"' {
				continue
			}
			backslashes := 0
			for k := j - 1; k >= 0 && data[k] == '\\'; k-- {
				backslashes++
			}
			if backslashes%2 == 0 {
				return j
			}
		}
		return i
	}
	for i > 0 && isJSONLiteralByte(data[i-1]) {
		i--
	}
	return i
}

func isJSONLiteralByte(b byte) bool {
	return b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b == '.' || b == '+' || b == '-'
}

func isJSONSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\r' }

func describeGoType(kind string) string {
	switch kind {
	case "int", "int64", "uint32":
		return "an integer"
	case "float64", "float32":
		return "a number"
	case "bool":
		return "true or false"
	case "string":
		return "a string"
	case "struct", "map":
		return "an object"
	case "slice":
		return "an array"
	}
	return "a " + kind
}

// lineCol turns the byte offset of a position in data into a 1-based line and
// column; columns count characters, not bytes. An offset at the end of data is
// the position just past the last character.
func lineCol(data []byte, offset int64) (line, col int) {
	offset = max(0, min(offset, int64(len(data))))
	line, col = 1, 1
	for _, b := range data[:offset] {
		switch {
		case b == '\n':
			line++
			col = 1
		case b&0xC0 != 0x80: // not a UTF-8 continuation byte
			col++
		}
	}
	return line, col
}

// validateSteering checks runners and setup: a runner names a program, a
// setup command is not blank.
func (c Config) validateSteering(prefix string) []error {
	var errs []error
	langs := make([]string, 0, len(c.Runners))
	for lang := range c.Runners {
		langs = append(langs, lang)
	}
	sort.Strings(langs)
	for _, lang := range langs {
		if strings.TrimSpace(c.Runners[lang]) == "" {
			errs = append(errs, fmt.Errorf("%srunners.%s must name the program its blocks are typed into", prefix, lang))
		}
	}
	for i, cmd := range c.Setup {
		if strings.TrimSpace(cmd) == "" {
			errs = append(errs, fmt.Errorf("%ssetup[%d] must not be blank", prefix, i))
		}
	}
	return errs
}
