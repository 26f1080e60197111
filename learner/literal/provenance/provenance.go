// Package provenance decides whose output a command prints: the page's,
// which the page is answerable for, or the machine's. A page shows the output
// its own author's machine printed; where the command reports on that
// machine (where you are, who you are, the time, processes, installed
// versions, the system's folders, files the reader already has) the page's
// sample is an illustration, and a reader whose machine prints something
// else has not found a gap. Output of what the page made (its files, its
// programs, literal text it echoes) is the page's, and is compared as shown.
package provenance

import (
	"path"
	"regexp"
	"strings"

	"github.com/smile-loop/smile/internal/textutil"
	"github.com/smile-loop/smile/learner/literal/rule"
	"github.com/smile-loop/smile/learner/literal/shell"
)

// The rules, with the evidence a skipped comparison carries.
var (
	RuleMachine = rule.Register(rule.Rule{ID: "output.machine", Scope: rule.ScopeLine,
		Doc: "the output of a command that reports on the machine (pwd, date, ps, a version, the system's folders) is the author's machine's, an illustration: a different answer is not a gap"})
	RuleForeignListing = rule.Register(rule.Rule{ID: "output.foreign-listing", Scope: rule.ScopeDocument,
		Doc: "a listing or search whose shown results name files the page never makes or mentions elsewhere lists the author's own files: a different listing is not a gap"})
)

var (
	// introspection programs answer about the machine and its user.
	introspection = set("pwd", "whoami", "hostname", "id", "groups", "uname", "date", "cal", "uptime", "ps", "top", "htop",
		"pgrep", "df", "du", "free", "vmstat", "iostat", "who", "w", "last", "lastlog", "ip", "ifconfig", "ss", "netstat",
		"lsof", "env", "printenv", "locale", "tty", "at", "atq", "lsblk", "blkid", "mount", "findmnt", "lscpu", "lsusb",
		"lspci", "nproc", "getconf", "lsb_release", "hostnamectl", "timedatectl", "localectl", "systemctl", "journalctl",
		"dmesg", "ulimit", "umask", "history", "jobs", "which", "whereis", "type", "locate", "dpkg", "apt", "apt-cache",
		"apt-get", "pip", "pip3", "gem", "brew", "service", "crontab", "sysctl", "arch", "stat", "file")
	// versionFlag asks a program for its version.
	versionFlag = set("--version", "-version", "-V", "version", "-v", "--v", "-vv")
	// listers print names of files.
	listers = set("ls", "ll", "dir", "tree", "find", "fd", "fdfind", "locate", "du")
	// systemPath: a folder of the operating system or of a user's home.
	systemPath = regexp.MustCompile(`^(?:~|\$HOME|\$\{HOME\}|/(?:etc|usr|var|proc|sys|opt|boot|dev|lib|lib64|bin|sbin|run|srv|home|root|Users|tmp|mnt|media)?)(?:/|$)`)
	// pathLike picks the names a listing shows (words with a dot or a slash,
	// or plain names), trimming decoration such as a trailing `/` or `*`.
	pathWord = regexp.MustCompile(`[\w.~-][\w./~+@-]*`)
	// fileName: a name with an extension, or a path with a folder in it.
	fileName = regexp.MustCompile(`\w\.[A-Za-z]\w{0,7}$|\w/\w`)
)

func set(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// Machine is the evidence that a command's output reports on the machine,
// or nil: its producer is a program that answers about the machine, asks a
// program for its version, or reads only the system's folders.
func Machine(command string, line int) *rule.Evidence {
	words := shell.FirstArgs(strings.TrimSpace(textutil.FirstLine(command)))
	if len(words) == 0 {
		return nil
	}
	prog := path.Base(words[0])
	args := words[1:]
	ev := func(phrase string) *rule.Evidence { e := RuleMachine.At(line, phrase); return &e }
	switch {
	case introspection[prog] && !namesWorkFile(args):
		return ev(prog)
	case len(args) == 1 && versionFlag[args[0]]:
		return ev(prog + " " + args[0])
	case prog == "echo" && len(args) > 0 && allVariables(args):
		return ev(strings.Join(words, " "))
	}
	var paths []string
	for _, a := range args {
		if !strings.HasPrefix(a, "-") && strings.Trim(a, "0123456789") != "" { // not an option, nor its count (`tail -n 5`)
			paths = append(paths, a)
		}
	}
	if len(paths) > 0 && allSystem(paths) && (listers[prog] || prog == "cat" || prog == "head" || prog == "tail" || prog == "wc") {
		return ev(strings.Join(words, " "))
	}
	return nil
}

// ForeignListing is the evidence that a listing's shown results are the
// author's own files, or nil: the command lists or searches files, and no
// name it shows appears anywhere else on the page (outside the lines from
// to to, where it is shown).
func ForeignListing(command string, shown []string, page string, from, to int) *rule.Evidence {
	words := shell.FirstArgs(strings.TrimSpace(textutil.FirstLine(command)))
	if len(words) == 0 || !listers[path.Base(words[0])] || len(shown) == 0 {
		return nil
	}
	elsewhere := outside(page, from, to)
	names := 0
	for _, l := range shown {
		for _, w := range pathWord.FindAllString(l, -1) {
			base := strings.Trim(path.Base(strings.TrimRight(w, "/*")), ".")
			if len(base) < 3 || strings.HasPrefix(w, "-") || !fileName.MatchString(w) {
				continue // plain words (sizes, dates, owners, modes) say nothing about whose files these are
			}
			names++
			if strings.Contains(elsewhere, base) {
				return nil
			}
		}
	}
	if names == 0 {
		return nil
	}
	e := RuleForeignListing.At(from, strings.TrimSpace(shown[0]))
	return &e
}

// outside is the page without the lines from to to (1-based, inclusive).
func outside(page string, from, to int) string {
	lines := strings.Split(page, "\n")
	var b strings.Builder
	for i, l := range lines {
		if n := i + 1; n >= from && n <= to {
			continue
		}
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return b.String()
}

func namesWorkFile(args []string) bool {
	for _, a := range args {
		if !strings.HasPrefix(a, "-") && (strings.Contains(a, ".") || strings.Contains(a, "/")) && !systemPath.MatchString(a) {
			return true // `stat notes.txt`, `file ./hello`: the page's own file
		}
	}
	return false
}

func allSystem(paths []string) bool {
	for _, p := range paths {
		if !systemPath.MatchString(p) {
			return false
		}
	}
	return true
}

var variable = regexp.MustCompile(`^\$\{?[A-Z_][A-Z0-9_]*\}?$`)

func allVariables(args []string) bool {
	for _, a := range args {
		if !variable.MatchString(a) {
			return false
		}
	}
	return true
}
