package spec

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/smile-loop/smile/runtime"
)

// Default container limits: a learner runs a tutorial's commands, which may be
// wrong or hostile; these keep a fork bomb or a runaway allocation inside the
// container while leaving room for compilers and package managers.
const (
	DefaultContainerPids   = 512
	DefaultContainerMemory = "2g"
	DefaultContainerCPUs   = 2.0
)

// Upper bounds of the integer settings. Each is far beyond any real use and
// keeps every duration SMILE computes from them (seconds times 1e9) far from
// overflowing.
const (
	MaxTimeoutSeconds          = 7 * 24 * 3600 // timeout: a week
	MaxStepTimeoutSeconds      = 24 * 3600     // studentBehavior.timeoutSeconds, invocationTimeoutSeconds.*
	MaxIterationsLimit         = 1000
	MaxRetriesBeforeHelpLimit  = 1000
	MaxTurnsLimit              = 10000
	MaxContainerPids           = 1 << 22 // the kernel's pid_max ceiling
	MaxContainerCPUs           = 1024.0
	MinContainerCPUs           = 0.01    // Docker's smallest CPU share
	minContainerMemoryBytes    = 6 << 20 // Docker refuses less than 6 MiB
	maxContainerMemoryBytes    = 1 << 40 // 1 TiB
	maxContainerMemoryHumanMax = "1t"
)

// ByteSize is a memory size written as Docker writes it: a number with an
// optional b, k, m, g or t suffix ("512m", "2g"); a bare number is bytes.
type ByteSize string

// sizePattern is the schema's pattern for a size, letter case aside.
var sizePattern = regexp.MustCompile(`^([0-9]+(?:\.[0-9]+)?)(b|[kmgt](?:i?b)?)?$`)

// Bytes returns the size in bytes, or an error naming what is wrong.
func (s ByteSize) Bytes() (int64, error) {
	m := sizePattern.FindStringSubmatch(strings.ToLower(string(s)))
	if m == nil {
		return 0, fmt.Errorf("%q is not a size like \"512m\" or \"2g\"", string(s))
	}
	f, err := strconv.ParseFloat(m[1], 64)
	if err != nil || f <= 0 {
		return 0, fmt.Errorf("%q is not a size like \"512m\" or \"2g\"", string(s))
	}
	if m[2] != "" && m[2] != "b" {
		f *= float64(int64(1) << (10 * (strings.IndexByte("kmgt", m[2][0]) + 1)))
	}
	if f > maxContainerMemoryBytes {
		return 0, fmt.Errorf("%q is more than %s", string(s), maxContainerMemoryHumanMax)
	}
	return int64(f), nil
}

// validateLimits checks the container limits and the upper bounds of every
// integer setting, in the style of the positive-integer checks.
func (c Config) validateLimits(prefix string) []error {
	var errs []error
	atMost := func(field string, v, limit int, unit string) {
		if v > limit {
			errs = append(errs, fmt.Errorf("%s%s must be at most %d%s, got %d", prefix, field, limit, unit, v))
		}
	}
	atMost("maxIterations", c.MaxIterations, MaxIterationsLimit, "")
	atMost("timeout", c.Timeout, MaxTimeoutSeconds, " (7 days)")
	atMost("studentBehavior.maxRetriesBeforeHelp", c.StudentBehavior.MaxRetriesBeforeHelp, MaxRetriesBeforeHelpLimit, "")
	atMost("studentBehavior.timeoutSeconds", c.StudentBehavior.TimeoutSeconds, MaxStepTimeoutSeconds, " (24 hours)")
	atMost("maxTurns.student", c.MaxTurns.Student, MaxTurnsLimit, "")
	atMost("maxTurns.mentor", c.MaxTurns.Mentor, MaxTurnsLimit, "")
	atMost("invocationTimeoutSeconds.student", c.InvocationTimeoutSeconds.Student, MaxStepTimeoutSeconds, " (24 hours)")
	atMost("invocationTimeoutSeconds.mentor", c.InvocationTimeoutSeconds.Mentor, MaxStepTimeoutSeconds, " (24 hours)")
	k := c.Container
	if k.Pids <= 0 || k.Pids > MaxContainerPids {
		errs = append(errs, fmt.Errorf("%scontainer.pids must be a positive integer of at most %d, got %d", prefix, MaxContainerPids, k.Pids))
	}
	if b, err := k.Memory.Bytes(); err != nil {
		errs = append(errs, fmt.Errorf("%scontainer.memory %v", prefix, err))
	} else if b < minContainerMemoryBytes {
		errs = append(errs, fmt.Errorf("%scontainer.memory %q must be at least 6m (Docker's minimum)", prefix, string(k.Memory)))
	}
	if !(k.CPUs >= MinContainerCPUs && k.CPUs <= MaxContainerCPUs) {
		errs = append(errs, fmt.Errorf("%scontainer.cpus must be a number of CPUs from %g to %g, got %v", prefix, MinContainerCPUs, MaxContainerCPUs, k.CPUs))
	}
	if k.User != "" && !containerUser.MatchString(k.User) {
		errs = append(errs, fmt.Errorf("%scontainer.user %q must be a user name of the image (lower case, as useradd allows) or a numeric UID[:GID]", prefix, k.User))
	}
	if _, err := c.CheckpointDisk.Bytes(); err != nil {
		errs = append(errs, fmt.Errorf("%scheckpointDisk %v", prefix, err))
	}
	return errs
}

// Resources returns the container limits for the runtime. The config was
// validated at load; a size that does not parse leaves memory uncapped
// rather than failing a run halfway.
func (c ContainerConfig) Resources() runtime.Resources {
	mem, _ := c.Memory.Bytes()
	return runtime.Resources{
		PidsLimit:   int64(c.Pids),
		MemoryBytes: mem,
		NanoCPUs:    int64(math.Round(c.CPUs * 1e9)),
	}
}

// containerUser is what container.user may name: a user name as useradd
// allows it, or a numeric UID[:GID].
var containerUser = regexp.MustCompile(`^(?:[a-z_][a-z0-9_-]{0,31}|\d{1,10}(?::\d{1,10})?)$`)
