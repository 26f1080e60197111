package status

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"time"
)

// Checkpoint is a snapshot of the learner's world taken just before a step:
// the container's filesystem (with a copy of the work folder in it) and the
// shell's state. An iteration may start from it instead of the top.
// It is recorded only once the snapshot is complete.
type Checkpoint struct {
	// Ref names the snapshot in the runtime (an image reference on Docker).
	Ref string `json:"ref"`
	// Iteration took it; Line is the first line of the step it comes before.
	Iteration int `json:"iteration"`
	Line      int `json:"line"`
	// Image is the image the run's containers start from: a checkpoint is
	// never used for another.
	Image string `json:"image"`
	// Key digests the image and the exact steps (content and workarounds)
	// that led to the checkpoint.
	Key   string     `json:"key,omitempty"`
	Shell ShellState `json:"shell"`
	// Learned is what the Student knew there from the steps above the line:
	// an attempt that starts from the checkpoint goes on knowing it (nil
	// for a checkpoint kept before SMILE carried it).
	Learned   *Learned  `json:"learned,omitempty"`
	SizeBytes int64     `json:"sizeBytes,omitempty"`
	CreatedAt time.Time `json:"createdAt"`
	// Cost is how long taking it took.
	CostMs int64 `json:"costMs,omitempty"`
	// Clean: taken in a replay from a clean start with every fix (the
	// verification), or in an attempt resumed from such a checkpoint.
	Clean bool `json:"clean,omitempty"`
	// LastUsedAt is when an attempt last started from it (the cache's
	// least recently used goes first).
	LastUsedAt *time.Time `json:"lastUsedAt,omitempty"`
}

// StepsKey digests what leads to a line: the tutorial's text above it and
// the Mentor's notes about the lines above it. The Student keys the
// checkpoints it keeps with it, the planner finds them with it: the same key
// means the same steps, whatever the generation.
func StepsKey(content string, line int, notes []MentorNote) string {
	h := sha256.New()
	rest := content
	for l := 1; l < line && rest != ""; l++ {
		text, after, found := strings.Cut(rest, "\n")
		fmt.Fprintf(h, "%s\n", strings.TrimSuffix(text, "\r"))
		if !found {
			break
		}
		rest = after
	}
	for _, n := range notes {
		if n.Line > 0 && n.Line < line {
			fmt.Fprintf(h, "\x00%d\x00%s\x00%s", n.Line, n.Resolution, n.Workaround)
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

// ShellState is what a shell session carries from one command to the
// next: its current folder, the variables that hold a value, and the script
// that restores variables, functions and aliases, then its options.
type ShellState struct {
	Cwd     string   `json:"cwd"`
	Vars    []string `json:"vars,omitempty"`
	Script  string   `json:"script,omitempty"`
	Options string   `json:"options,omitempty"`
}

// Learned is what the Student had learned from the steps above a
// checkpoint's line. The steps are not followed again when an attempt
// starts from the checkpoint, so what they taught comes with it: the
// attempt's result (its findings, what it skipped, what it ran and wrote,
// the sentence that sums it up) then reads as a replay from the top would.
type Learned struct {
	// Steps counts the steps followed.
	Steps int `json:"steps,omitempty"`
	// Actions, CommandsRun, FilesCreated, Findings and Skipped are the
	// Student output's, so far.
	Actions      []string       `json:"actions,omitempty"`
	CommandsRun  []string       `json:"commandsRun,omitempty"`
	FilesCreated []string       `json:"filesCreated,omitempty"`
	Findings     []Finding      `json:"findings,omitempty"`
	Skipped      []SkippedBlock `json:"skipped,omitempty"`
	// Seen are the output differences recorded, each with its line: the
	// same difference met again is one more line of that finding.
	Seen map[string]int `json:"seen,omitempty"`
	// Worked are the groups of ways only one of which may work (by the
	// line of their prose) with the command of the way that worked.
	Worked map[int]string `json:"worked,omitempty"`
	// Last is the latest tutorial command, whose output a later output
	// block may show.
	Last *LastCommand `json:"last,omitempty"`
	// Blocks are the code blocks above the line with what the Student did
	// with each (their coverage, as a replay from the top would count it).
	Blocks []BlockCoverage `json:"blocks,omitempty"`
}

// LastCommand is the latest tutorial command a Student ran, as it matters
// to what follows it.
type LastCommand struct {
	Line    int    `json:"line"`
	EndLine int    `json:"endLine,omitempty"`
	Text    string `json:"text"`
	// Output is what it printed, kept only when a later step may compare
	// it (the checkpoint's step is not a command of its own).
	Output string `json:"output,omitempty"`
	OK     bool   `json:"ok,omitempty"`
	// Differs is the line of the note that excused a difference in its
	// output; Files how many files had been written when it ran.
	Differs int `json:"differs,omitempty"`
	Files   int `json:"files,omitempty"`
}

// Resumed says where an iteration started when it did not start from the
// top.
type Resumed struct {
	Ref  string `json:"ref"`
	Line int    `json:"line"`
	// From is the iteration that took the checkpoint.
	From int `json:"from"`
	// Clean: the checkpoint came from a clean replay with every fix.
	Clean bool `json:"clean,omitempty"`
}

// Verification is the clean replay that proves the Mentor's fixes: once
// the Student completed, and some iteration started from a checkpoint, the
// tutorial is followed once more from a clean container with every
// workaround at its line.
type Verification struct {
	// Iteration is the replay's.
	Iteration int `json:"iteration"`
	// Fixes counts the workarounds applied.
	Fixes int `json:"fixes"`
	// Done is set once the replay answered; Verified says whether it
	// completed. Line and Step name where it stopped when it did not.
	Done     bool   `json:"done,omitempty"`
	Verified bool   `json:"verified,omitempty"`
	Line     int    `json:"line,omitempty"`
	Step     string `json:"step,omitempty"`
}

// Sentence says what the replay showed, for the report and the status.
func (v Verification) Sentence() string {
	with := fmt.Sprintf("%d suggested fixes", v.Fixes)
	if v.Fixes == 1 {
		with = "1 suggested fix"
	}
	if v.Verified {
		return fmt.Sprintf("Verified: with the %s the tutorial completes from a clean start.", with)
	}
	where := v.Step
	if v.Line > 0 {
		where = fmt.Sprintf("line %d", v.Line)
	}
	return fmt.Sprintf("Not verified: with the %s, a clean start stops at %s, where the fixes do not work together.", with, where)
}
