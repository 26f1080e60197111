package reading

import (
	"github.com/smile-loop/smile/learner/literal/leadin"
	"github.com/smile-loop/smile/learner/literal/offpath"
	"github.com/smile-loop/smile/learner/literal/platform"
	"github.com/smile-loop/smile/learner/literal/prose"
)

// A step a page offers in variants (one per platform, or a way and its
// alternatives) is one step: the reader follows the variant for their
// system and passes over the others. Each variant is introduced by a label
// naming what it is for ("On Linux or macOS:", "On Windows (PowerShell):",
// "For Homebrew users:", "Alternatively, with snap:"), unlike a step of
// its own ("Open PowerShell and list the logs:"), whose sentence asks for
// an action.

// VariantIntro reports whether the prose leading into a block labels it as
// one variant of a step: its last sentence names the platform the block is
// for, or offers it as an alternative.
func VariantIntro(intro string) bool {
	last := prose.Plain(leadin.LastSentence(intro))
	return platform.Label(last) || offpath.Alternative(last)
}
