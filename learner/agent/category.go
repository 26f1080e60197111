package agent

import (
	"strings"

	"github.com/smile-loop/smile/status"
)

// InferCategory classifies a problem the model described without naming a
// category, by the error it quotes.
func InferCategory(texts ...string) status.Category {
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
	case has("could not resolve host", "name or service not known", "temporary failure in name resolution",
		"network is unreachable", "cannot connect to the docker daemon", "lists as a prerequisite"):
		return status.CategoryEnvironment
	case has("command not found", "not installed", "no module named", "cannot find module", "package not found", "unable to locate package", "is not recognized"):
		return status.CategoryMissingDependency
	case has("permission denied", "operation not permitted", "eacces"):
		return status.CategoryPermissionDenied
	case has("no such file", "does not exist", "not found", "enoent"):
		return status.CategoryMissingFile
	case has("timed out", "timeout", "never finished", "hangs", "took longer"):
		return status.CategoryTimeout
	case has("unbound variable", "variable is not set", "never sets", "undefined variable", "not defined"):
		return status.CategoryUndefinedVariable
	case has("output differs", "expected output", "different output", "prints", "printed"):
		return status.CategoryOutputMismatch
	case has("image", "screenshot", "diagram"):
		return status.CategoryMissingImage
	case has("exit code", "exited with", "error", "failed", "fails"):
		return status.CategoryCommandFailure
	}
	return status.CategoryAmbiguousInstruction
}
