package spec

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
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

// ContainerConfig says which containers outlive the run, for debugging.
type ContainerConfig struct {
	KeepOnFailure bool `json:"keepOnFailure"`
	KeepOnSuccess bool `json:"keepOnSuccess"`
}

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
		Container: ContainerConfig{KeepOnFailure: true},
		StateFile: ".smile/state.json",
		OutputDir: ".",
	}
}

// LoadConfig reads smile.json at path over the defaults. A missing file is not
// an error (E01); invalid JSON names the line and column (E02); unknown fields
// are ignored (E03).
func LoadConfig(path string) (Config, error) {
	cfg := DefaultConfig()
	data, err := os.ReadFile(path)
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
func (c Config) Validate() error {
	var errs []error
	positive := func(field string, v int) {
		if v <= 0 {
			errs = append(errs, fmt.Errorf("%s must be a positive integer, got %d", field, v))
		}
	}
	positive("maxIterations", c.MaxIterations)
	positive("timeout", c.Timeout)
	positive("studentBehavior.maxRetriesBeforeHelp", c.StudentBehavior.MaxRetriesBeforeHelp)
	positive("studentBehavior.timeoutSeconds", c.StudentBehavior.TimeoutSeconds)
	if strings.TrimSpace(c.Tutorial) == "" {
		errs = append(errs, errors.New("tutorial must not be empty"))
	}
	if strings.TrimSpace(c.StateFile) == "" {
		errs = append(errs, errors.New("stateFile must not be empty"))
	}
	if strings.TrimSpace(c.OutputDir) == "" {
		errs = append(errs, errors.New("outputDir must not be empty"))
	}
	if _, err := reference.ParseNormalizedNamed(c.ContainerImage); err != nil {
		errs = append(errs, fmt.Errorf("containerImage %q is not a valid image reference: %v", c.ContainerImage, err))
	}
	if !c.LLMProvider.valid() {
		errs = append(errs, enumError("llmProvider", string(c.LLMProvider), providerNames))
	}
	if !c.StudentBehavior.PatienceLevel.valid() {
		errs = append(errs, enumError("studentBehavior.patienceLevel", string(c.StudentBehavior.PatienceLevel), patienceNames))
	}
	return errors.Join(errs...)
}

// decodeJSONOver decodes data onto v, keeping the fields data does not name,
// and turns decoder errors into messages that point at a line and column.
func decodeJSONOver(v any, data []byte, source string) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(v); err != nil {
		return jsonError(source, data, err)
	}
	if dec.More() {
		off := dec.InputOffset()
		line, col := lineCol(data, off)
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
		line, col := lineCol(data, syn.Offset)
		return fmt.Errorf("%s:%d:%d: invalid JSON: %s", source, line, col, syn.Error())
	case errors.As(err, &typ):
		line, col := lineCol(data, typ.Offset)
		return fmt.Errorf("%s:%d:%d: %s must be %s, got %s", source, line, col, typ.Field, describeGoType(typ.Type.Kind().String()), typ.Value)
	case errors.As(err, &enum):
		return fmt.Errorf("%s: %w", source, enum)
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		line, col := lineCol(data, int64(len(data)))
		return fmt.Errorf("%s:%d:%d: invalid JSON: unexpected end of input", source, line, col)
	}
	return fmt.Errorf("%s: invalid JSON: %w", source, err)
}

func describeGoType(kind string) string {
	switch kind {
	case "int", "int64", "uint32":
		return "an integer"
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

// lineCol turns a byte offset (as encoding/json reports it: the offset after
// the byte that failed) into a 1-based line and column.
func lineCol(data []byte, offset int64) (line, col int) {
	if offset > int64(len(data)) {
		offset = int64(len(data))
	}
	if offset > 0 {
		offset-- // json offsets point just past the offending byte
	}
	line, col = 1, 1
	for _, b := range data[:offset] {
		if b == '\n' {
			line++
			col = 1
			continue
		}
		col++
	}
	return line, col
}
