package spec

import (
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
// provider.
func (c Config) ResumeMode() Resume {
	if c.Resume != ResumeAuto && c.Resume != "" {
		return c.Resume
	}
	if c.LLMProvider == ProviderLiteral {
		return ResumeCheckpoint
	}
	return ResumeFromStart
}
