package spec

import (
	"fmt"
	"slices"
	"strings"
)

// Resume says where each iteration after the first starts.
type Resume string

// The resume settings.
const (
	// ResumeAuto is ResumeCheckpoint for the literal provider and
	// ResumeFromStart for the model-backed ones, until their resume is
	// measured with real models.
	ResumeAuto Resume = "auto"
	// ResumeCheckpoint starts from a snapshot of the learner's world taken
	// before the step that stopped an earlier iteration, applies the
	// Mentor's workaround and goes on from that step.
	ResumeCheckpoint Resume = "checkpoint"
	// ResumeFromStart replays the tutorial from the top in a fresh
	// container every iteration (the seed's behaviour).
	ResumeFromStart Resume = "fromStart"
)

var resumeNames = []string{"auto", "checkpoint", "fromStart"}

func (r Resume) valid() bool { return slices.Contains(resumeNames, string(r)) }

// UnmarshalJSON accepts any letter case; null leaves the value as it was.
func (r *Resume) UnmarshalJSON(b []byte) error {
	lower := make([]string, len(resumeNames))
	for i, n := range resumeNames {
		lower[i] = strings.ToLower(n)
	}
	v, err := decodeEnum(b, "resume", lower)
	if err != nil {
		if e, ok := err.(*EnumError); ok {
			e.Allowed = resumeNames
		}
		return err
	}
	if v != "" {
		*r = Resume(resumeNames[slices.Index(lower, v)])
	}
	return nil
}

// ResumeMode is the resume in force: resume, with auto decided by the
// provider, and fromStart for a provider whose Student keeps no checkpoints
// whatever resume says (Warnings says so).
func (c Config) ResumeMode() Resume {
	if c.Resume == ResumeFromStart || !c.LLMProvider.Info().Checkpoints {
		return ResumeFromStart
	}
	return ResumeCheckpoint
}

// ignoredBecause says why the setting at path (dotted, as in Settings)
// does not do what it says; "" when it does.
func (c Config) ignoredBecause(path string) string {
	if path == "resume" && c.Resume == ResumeCheckpoint && c.ResumeMode() != ResumeCheckpoint {
		return fmt.Sprintf("llmProvider %s keeps no checkpoints: every iteration starts from the top", c.LLMProvider)
	}
	return ""
}

// CheckpointProviders are the providers whose Student keeps checkpoints.
func CheckpointProviders() []Provider {
	var out []Provider
	for _, p := range Providers() {
		if p.Checkpoints {
			out = append(out, p.Name)
		}
	}
	return out
}

// Warnings are the settings in force that do not do what they say, each
// a sentence that names the field, why, and what to write instead. They are
// valid (each file is checked on its own, and a manifest may take its
// provider from smile.json), so they warn rather than fail: `smile apply`
// prints them, the run's events and `smile describe` show them.
func (c Config) Warnings() []string {
	var out []string
	if c.Resume == ResumeCheckpoint && c.ResumeMode() != ResumeCheckpoint {
		names := make([]string, 0, 1)
		for _, p := range CheckpointProviders() {
			names = append(names, string(p))
		}
		verb := "keep"
		if len(names) == 1 {
			verb = "keeps"
		}
		out = append(out, fmt.Sprintf("resume: checkpoint is ignored with llmProvider %s: only %s %s checkpoints, so every iteration starts from the top "+
			"(as with fromStart); set resume to auto or fromStart, or use %s", c.LLMProvider, strings.Join(names, ", "), verb, strings.Join(names, " or ")))
	}
	return out
}
