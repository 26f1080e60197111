// Package platform knows which system a label, a heading, a tab or a
// sentence scopes a step to. The container is Debian Linux: a step for
// Windows, macOS, a BSD or another Linux family (its package tool, its
// shell) is that system's variant, and the reader on Debian follows the
// Debian one, or the generic one. It reads words only; the reader decides
// what to do with a block so scoped.
package platform

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/smile-loop/smile/internal/textutil"
	"github.com/smile-loop/smile/spec/markdown"
)

var (
	// anyPlatform names a system or its package tool.
	anyPlatform = `(?:linux|unix|ubuntu|debian|fedora|centos|rhel|red\s?hat|arch|alpine|opensuse|wsl|posix|` +
		`windows|win32|win64|macos|mac\s?os|mac|os\s?x|osx|bsd|freebsd|openbsd|netbsd|dragonfly|homebrew|brew|powershell|cmd(?:\.exe)?|command\s+prompt|chocolatey|winget|scoop|` +
		`git\s?bash|msys2?|mingw(?:32|64)?|cygwin)`
	platformLabel = regexp.MustCompile(`(?i)^(?:on|for|under|in|with|using)\s+(?:a\s+|the\s+)?` + anyPlatform + `\b|` +
		`^if\s+you(?:'re|\s+are)?\s+(?:on|using|use|have|run|running)\s+(?:a\s+)?` + anyPlatform + `\b|` +
		`^` + anyPlatform + `(?:\s+(?:users|and\s+\w+|or\s+\w+))?\s*(?:\([^)]*\))?\s*:?$`)
	otherPlatform = regexp.MustCompile(`(?i)\b(?:windows|win32|win64|macos|mac\s?os|mac|os\s?x|osx|homebrew|brew|powershell|` +
		`cmd(?:\.exe)?|chocolatey|choco|winget|scoop|freebsd|openbsd|netbsd|dragonfly(?:\s*bsd)?|macports|` +
		// Windows' own bash shells: their paths (venv\Scripts) are Windows'.
		`git\s?bash|msys2?|mingw(?:32|64)?|cygwin)\b`)
	thisPlatform = regexp.MustCompile(`(?i)\b(?:linux|unix|ubuntu|debian|posix|wsl|apt|apt-get|bash|shell|terminal)\b`)
	// debianLike is the container's own family; otherDistro names Linux
	// systems whose package tools it does not have.
	debianLike  = regexp.MustCompile(`(?i)\b(?:debian|ubuntu|apt|apt-get|mint|pop!?_os)\b`)
	otherDistro = regexp.MustCompile(`(?i)\b(?:fedora|centos|rhel|red\s?hat|rocky|alma(?:linux)?|arch(?:\s+linux)?|amazon\s+linux|kali|oracle\s+linux|manjaro|alpine|opensuse|suse|gentoo|nixos|void|dnf|yum|pacman|apk|zypper)\b`)
	// platformSentence scopes what follows to another platform.
	platformSentence = regexp.MustCompile(`(?i)^(?:on|for|under|in|with)\s+(?:a\s+)?(?:windows|macos|mac\s?os|mac|os\s?x|homebrew|powershell)\b|` +
		`^if\s+you(?:'re|\s+are)?\s+(?:on|using|use|have|run|running|prefer)\s+(?:a\s+)?(?:windows|mac|macos|mac\s?os|homebrew|powershell|chocolatey)\b|` +
		`^(?:windows|macos|mac|homebrew)\s+users\b`)
	// onPlatform is a platform named as a scope: "on Fedora", "for macOS
	// users", "with Homebrew", "under Windows".
	onPlatform = regexp.MustCompile(`(?i)\b(?:on|for|under|in|with|using|via|from)\s+(?:a\s+|the\s+|your\s+)?(?:[\w-]+\s+)?` + anyPlatform + `\b|` +
		`\b(?:amazon|oracle|kali|rocky|alma)\s+linux\b|\b(?:fedora|centos|rhel|arch|alpine|opensuse|suse|macos|windows)\b`)
	// distroLinux is a distribution's name that ends in "Linux" (Arch
	// Linux, Amazon Linux): it names that distribution, not Linux at large.
	distroLinux = regexp.MustCompile(`(?i)\b(?:amazon|arch|alpine|rocky|alma|oracle|kali|void|gentoo|red\s?hat\s+enterprise)\s+linux\b`)
)

// ForOther reports whether a heading, a tab or a label names only another
// system (or only Linux systems of another family than the container's).
func ForOther(label string) bool {
	// "Amazon Linux" names a distribution, not Linux at large.
	generic := distroLinux.ReplaceAllString(label, "")
	// "Git Bash" and "MSYS2 bash" are Windows' shells, whatever "bash" says.
	generic = windowsBash.ReplaceAllString(generic, "")
	if otherDistro.MatchString(label) && !debianLike.MatchString(label) {
		return true
	}
	return otherPlatform.MatchString(label) && !thisPlatform.MatchString(generic)
}

// windowsBash names bash as Windows ports ship it.
var windowsBash = regexp.MustCompile(`(?i)\bgit\s?bash\b|\b(?:msys2?|mingw(?:32|64)?|cygwin)(?:\s+bash)?\b`)

func linuxLabel(label string) bool {
	return (thisPlatform.MatchString(label) || strings.EqualFold(label, "sh")) && !ForOther(label)
}

// otherPlatformTab also knows the short values tab groups use ("win").
func otherPlatformTab(label string) bool {
	return ForOther(label) || strings.EqualFold(label, "win") || strings.EqualFold(label, "mac")
}

// ChooseTabs picks the tab to follow in each group: the Linux/Unix one, else
// the first one not for another platform (tabs of one group are
// alternatives), else none.
func ChooseTabs(blocks []markdown.Block) map[int]string {
	labels := map[int][]string{}
	for _, b := range blocks {
		if b.TabGroup > 0 && !contains(labels[b.TabGroup], b.Tab) {
			labels[b.TabGroup] = append(labels[b.TabGroup], b.Tab)
		}
	}
	chosen := map[int]string{}
	for g, ls := range labels {
		for _, want := range []func(string) bool{debianLike.MatchString, linuxLabel} {
			for _, l := range ls {
				if _, done := chosen[g]; !done && want(l) {
					chosen[g] = l
				}
			}
		}
		if _, ok := chosen[g]; ok {
			continue
		}
		for _, l := range ls {
			if !otherPlatformTab(l) {
				chosen[g] = l
				break
			}
		}
	}
	return chosen
}

func contains(list []string, s string) bool {
	for _, l := range list {
		if l == s {
			return true
		}
	}
	return false
}

// IsLabel: a short phrase, or a sentence that ends in a colon to lead into
// what follows.
func IsLabel(s string) bool {
	n := len(strings.Fields(s))
	return n <= 8 || (n <= 16 && strings.HasSuffix(strings.TrimSpace(s), ":"))
}

// scopeOpening: a clause that opens with the scope ("If you use Fedora",
// "On macOS").
var (
	scopeOpening = regexp.MustCompile(`(?i)^(?:if|on|for|under|in|with|using|when)\b`)
	clauseBreak  = regexp.MustCompile(`[,;]`)
)

// ScopingClause is the platform phrase of a label when it scopes the
// label's action: named in its last clause ("Install jq on Fedora:") or in
// an opening clause that sets the scope ("On Fedora, run:"); not a remark in
// passing ("This also works on macOS; now format the script:").
func ScopingClause(label string) string {
	clauses := clauseBreak.Split(label, -1)
	if m := onPlatform.FindString(clauses[len(clauses)-1]); m != "" {
		return m
	}
	if first := strings.TrimSpace(clauses[0]); scopeOpening.MatchString(first) {
		return onPlatform.FindString(first)
	}
	return ""
}

// Label reports whether a sentence labels what follows as one system's
// ("On Linux or macOS:", "For Homebrew users:", "Windows (PowerShell)").
func Label(sentence string) bool { return platformLabel.MatchString(sentence) }

// SentenceForOther reports whether a sentence scopes what follows to
// another system than Linux ("On Windows, ...", "If you use Homebrew").
func SentenceForOther(sentence string) bool {
	return platformSentence.MatchString(sentence) && !thisPlatform.MatchString(sentence)
}

// CommentScoped maps the lines under a comment that names another
// platform, up to the next comment or blank line, to the reason to skip them.
func CommentScoped(lines []markdown.CodeLine) map[int]string {
	scoped := map[int]string{}
	why := ""
	for _, l := range lines {
		t := strings.TrimSpace(l.Text)
		switch {
		case t == "":
			why = ""
		case strings.HasPrefix(t, "#"):
			why = ""
			if comment := strings.TrimSpace(strings.TrimLeft(t, "#")); ForOther(comment) {
				why = fmt.Sprintf("the comment at line %d scopes it to another platform: %s", l.Line, textutil.Shorten(comment, 60))
			}
		case why != "":
			scoped[l.Line] = why
		default:
			if m := lineLabel.FindStringSubmatch(t); m != nil && ForOther(m[1]) {
				scoped[l.Line] = fmt.Sprintf("its label %q scopes the line to another platform's shell", m[1]+":")
			}
		}
	}
	return scoped
}

// lineLabel is a line that opens with a platform or shell's name and a
// colon before the command for it (`cmd: main.exe`, `PowerShell: dir`).
var lineLabel = regexp.MustCompile(`(?i)^(` + anyPlatform + `):\s+\S`)

// OtherScope is the clause by which a label ("For RHEL-based
// distributions:", "Install jq on Fedora:") scopes what follows to another
// system than the container's, trimmed; "" when it is no label or scopes
// nothing to another system.
func OtherScope(label string) string {
	if label == "" || !IsLabel(label) {
		return ""
	}
	scope := ScopingClause(label)
	if scope == "" || !ForOther(label) {
		return ""
	}
	return strings.TrimSpace(scope)
}
