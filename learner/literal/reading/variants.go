package reading

import "regexp"

// A step a page offers in variants (one per platform, or a way and its
// alternatives) is one step: the reader follows the variant for their
// system and passes over the others. Each variant is introduced by a label
// naming what it is for ("On Linux or macOS:", "On Windows (PowerShell):",
// "For Homebrew users:", "Alternatively, with snap:"), unlike a step of
// its own ("Open PowerShell and list the logs:"), whose sentence asks for
// an action.
var (
	anyPlatform = `(?:linux|unix|ubuntu|debian|fedora|centos|rhel|red\s?hat|arch|alpine|opensuse|wsl|posix|` +
		`windows|win32|win64|macos|mac\s?os|mac|os\s?x|osx|bsd|freebsd|openbsd|netbsd|dragonfly|homebrew|brew|powershell|cmd(?:\.exe)?|command\s+prompt|chocolatey|winget|scoop)`
	platformLabel = regexp.MustCompile(`(?i)^(?:on|for|under|in|with|using)\s+(?:a\s+|the\s+)?` + anyPlatform + `\b|` +
		`^if\s+you(?:'re|\s+are)?\s+(?:on|using|use|have|run|running)\s+(?:a\s+)?` + anyPlatform + `\b|` +
		`^` + anyPlatform + `(?:\s+(?:users|and\s+\w+|or\s+\w+))?\s*(?:\([^)]*\))?\s*:?$`)
)

// VariantIntro reports whether the prose leading into a block labels it as
// one variant of a step: its last sentence names the platform the block is
// for, or offers it as an alternative.
func VariantIntro(prose string) bool {
	last := plain(lastSentence(prose))
	return platformLabel.MatchString(last) || altIntro.MatchString(last)
}
