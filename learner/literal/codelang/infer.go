package codelang

import (
	"regexp"
	"strings"

	"github.com/smile-loop/smile/spec/markdown"
)

// Many pages leave code blocks untagged, and a reader still knows Go source
// from a list of shell commands at a glance: by the marks each language
// cannot do without (`package main` and `func`, `#include <stdio.h>`, `fn
// main()`, `def f():`). Infer reads those marks in an untagged block. It
// answers only when exactly one language's marks are there, so that a
// block of prose, output or a language it does not know stays untagged.

// sourceMarks are, per language, sets of patterns: the block is in the
// language when every pattern of one of its sets matches a line.
var sourceMarks = map[string][][]*regexp.Regexp{
	"go": {
		{regexp.MustCompile(`^package [a-z_]\w*\s*$`), regexp.MustCompile(`^(?:func|import|type|var|const)\b`)},
		// A function's signature as only Go writes it: `func Name(m map[string]int64) int64 {`.
		{regexp.MustCompile(`^func (?:\([^)]*\) )?[A-Za-z_]\w*(?:\[[^\]]*\])?\([^)]*\)(?: [\w\[\]*.(), ]+)? \{$`)},
	},
	"c":      {{regexp.MustCompile(`^#include\s*<(?:stdio|stdlib|string|math|unistd|stdint|stdbool|ctype|time|errno)\.h>`)}},
	"cpp":    {{regexp.MustCompile(`^#include\s*<(?:iostream|vector|string|map|algorithm|memory)>`)}},
	"rust":   {{regexp.MustCompile(`^\s*(?:pub\s+)?fn\s+\w+\s*(?:<[^>]*>)?\(`), regexp.MustCompile(`\blet\s+(?:mut\s+)?\w+|println!\(|^\s*use\s+\w+::`)}},
	"python": {{regexp.MustCompile(`^(?:\s*def\s+\w+\(.*\)\s*(?:->\s*[\w\[\], .]+)?:\s*$|import\s+\w+(?:\s*,\s*\w+)*\s*$|from\s+[\w.]+\s+import\s+)`)}},
	"java":   {{regexp.MustCompile(`^\s*public\s+(?:final\s+)?class\s+\w+`), regexp.MustCompile(`\bpublic\s+static\s+void\s+main\b`)}},
	"ruby": {
		{regexp.MustCompile(`^\s*(?:def\s+\w+[?!]?(?:\(.*\))?\s*$|class\s+[A-Z]\w*(?:\s*<\s*\w+)?\s*$)`), regexp.MustCompile(`^\s*end\s*$`), regexp.MustCompile(`^\s*puts\b|^\s*require\s+['"]|@\w+`)},
		// A call with a block, `get "/" do ... end` (Elixir's def and
		// defmodule are kept out by notMarks).
		{regexp.MustCompile(`^\s*[a-z_]\w*(?:\s+\S.*)?\s+do(?:\s*\|[^|]*\|)?\s*$`), regexp.MustCompile(`^\s*end\s*$`)},
	},
	"javascript": {{regexp.MustCompile(`\bconsole\.log\(|\brequire\(['"]|^\s*(?:import\s+.*\s+from\s+['"]|export\s+(?:default\s+)?(?:function|const|class))`),
		regexp.MustCompile(`^\s*(?:const|let|var)\s+\w+\s*=|^\s*function\s+\w+\s*\(|=>`)}},
	// Redis's commands, upper case as its documentation writes them
	// (every line is one: notMarks keeps out the rest).
	"redis": {{regexp.MustCompile(`^(?:` + redisCommands + `)(?:\s|$)`)}},
}

// redisCommands are the commands of Redis pages teach first.
const redisCommands = `SET|GET|GETDEL|SETEX|SETNX|MSET|MGET|DEL|EXISTS|EXPIRE|TTL|PERSIST|KEYS|SCAN|TYPE|RENAME|INCR|INCRBY|DECR|DECRBY|APPEND|STRLEN|` +
	`LPUSH|RPUSH|LPOP|RPOP|LRANGE|LLEN|LINDEX|LSET|LREM|LTRIM|LMOVE|BLMOVE|BLPOP|BRPOP|HSET|HGET|HMSET|HMGET|HGETALL|HDEL|HKEYS|HVALS|HLEN|HINCRBY|HEXISTS|` +
	`SADD|SREM|SMEMBERS|SISMEMBER|SCARD|SINTER|SUNION|SDIFF|ZADD|ZRANGE|ZREVRANGE|ZRANK|ZSCORE|ZREM|ZCARD|ZINCRBY|ZRANGEBYSCORE|` +
	`PING|ECHO|FLUSHALL|FLUSHDB|DBSIZE|INFO|MULTI|EXEC|DISCARD|WATCH|PUBLISH|SUBSCRIBE|XADD|XRANGE|XREAD|XLEN|PFADD|PFCOUNT|GEOADD|SETBIT|GETBIT|BITCOUNT`

// notMarks are, per language, lines no block in it has: Elixir's
// `defmodule` and `def f, do:` are not Ruby.
var notMarks = map[string]*regexp.Regexp{
	"redis": regexp.MustCompile(`^(?:[^A-Z]|[A-Z]+[^A-Z\s])`),
	"ruby":  regexp.MustCompile(`^\s*(?:defmodule|defp?\s+\w+.*,\s*do:|use\s+[A-Z])`),
}

// knownPrograms are the programs whose names open the command lines of
// tutorials everywhere: a block of lines that all start with one of these
// (or with a program the page itself names) is shell commands.
var knownPrograms = set("cd", "ls", "mkdir", "rmdir", "rm", "cp", "mv", "touch", "cat", "echo", "printf", "export",
	"source", "pwd", "chmod", "chown", "ln", "find", "grep", "sed", "awk", "sort", "head", "tail", "wc", "tar", "curl",
	"wget", "git", "make", "cmake", "sudo", "apt", "apt-get", "go", "python", "python3", "pip", "pip3", "node", "npm",
	"npx", "yarn", "pnpm", "cargo", "rustc", "rustup", "gcc", "g++", "cc", "clang", "java", "javac", "mvn", "gradle",
	"ruby", "gem", "bundle", "rails", "rake", "perl", "php", "composer", "dotnet", "docker", "kubectl", "ssh",
	"scp", "rsync", "vim", "vi", "nano", "emacs", "code", "less", "more", "man", "which", "env", "unset", "alias",
	"crystal", "shards", "mix", "elixir", "iex", "erl", "ghc", "cabal", "stack", "lua", "luarocks", "julia",
	"Rscript", "R", "deno", "bun", "zig", "nim", "dart", "flutter", "kotlinc", "scala", "sbt", "swift", "poetry",
	"uv", "pipx", "virtualenv", "conda", "sqlite3", "psql", "mysql", "redis-cli", "systemctl", "service", "tree",
	"diff", "xargs", "tee", "split", "uniq", "stat", "du", "df", "kill", "ps", "jq", "yq", "openssl", "ssh-keygen", "bash", "sh", "zsh", "exit", "clear",
	// A standard Linux system's own commands (coreutils, util-linux, the
	// account tools, procps, the network tools), less those that are common
	// English words too ("file", "free", "users", "test"), which open
	// output lines as often as commands.
	"basename", "dirname", "date", "cal", "cut", "comm", "nl", "nproc", "od", "printenv", "readlink", "realpath", "seq",
	"shuf", "sleep", "md5sum", "sha1sum", "sha256sum", "tac", "tr", "truncate", "uname", "whoami", "base64", "chgrp", "dd",
	"mktemp", "mkfifo", "nohup", "timeout", "id", "groups", "mount", "umount", "lsblk", "fdisk", "column", "hexdump",
	"whereis", "uuidgen", "findmnt", "useradd", "userdel", "usermod", "groupadd", "groupdel", "groupmod", "gpasswd",
	"passwd", "chage", "chsh", "newgrp", "getent", "visudo", "adduser", "deluser", "addgroup", "delgroup", "su",
	"locate", "updatedb", "pgrep", "pkill", "pidof", "uptime", "vmstat", "ip", "ping", "ss", "netstat", "hostname",
	"ifconfig", "nc", "dig", "nslookup", "traceroute", "gzip", "gunzip", "zip", "unzip", "bzip2", "xz", "zcat", "cmp",
	"crontab", "bc", "lsof", "strace", "gdb", "ldd", "nm", "objdump", "tmux", "screen", "htop", "ssh-copy-id", "sftp",
	"setfacl", "getfacl", "chattr", "lsattr", "umask", "dpkg", "update-alternatives", "journalctl", "ln", "mkfs", "losetup")

// Infer is the language an untagged block's content shows ("go", "c",
// "python", "bash" ...), or "" when no language's marks are there, or more
// than one's. tools are programs the page itself names (its prerequisites
// and the programs its steps install), which open command lines too.
func Infer(lines []markdown.CodeLine, tools map[string]bool) string {
	if makefileShape(lines) {
		return "makefile"
	}
	var text []string
	for _, l := range lines {
		if t := strings.TrimRight(l.Text, " \t"); strings.TrimSpace(t) != "" {
			text = append(text, strings.TrimLeft(t, "\t"))
		}
	}
	if len(text) == 0 {
		return ""
	}
	found := ""
	for lang, sets := range sourceMarks {
		for _, marks := range sets {
			if !allMarked(text, marks) || notMarks[lang] != nil && anyMarked(text, notMarks[lang]) {
				continue
			}
			if found != "" && found != lang {
				return ""
			}
			found = lang
		}
	}
	if found != "" {
		return found
	}
	if shellLines(text, tools) {
		return "bash"
	}
	return ""
}

func anyMarked(text []string, m *regexp.Regexp) bool {
	for _, t := range text {
		if m.MatchString(t) {
			return true
		}
	}
	return false
}

func allMarked(text []string, marks []*regexp.Regexp) bool {
	for _, m := range marks {
		hit := false
		for _, t := range text {
			if m.MatchString(t) {
				hit = true
				break
			}
		}
		if !hit {
			return false
		}
	}
	return true
}

// shellLines: every line is a comment, a continuation, a variable's
// assignment, a path to run, or opens with a known program's name, and the
// block has at least one command.
var (
	assignment = regexp.MustCompile(`^[A-Za-z_]\w*=(?:[^#>\s]\S*)?(?:\s|$)`)
	// banner: a program's name and a version number, what `X --version`
	// prints, not a command.
	banner  = regexp.MustCompile(`^\S+\s+v?\d+\.\d+`)
	runPath = regexp.MustCompile(`^\.{0,2}/[\w./-]+(?:\s|$)`)
)

func shellLines(text []string, tools map[string]bool) bool {
	commands := 0
	for i, t := range text {
		t = strings.TrimSpace(t)
		switch {
		case strings.HasPrefix(t, "#"):
		case i > 0 && strings.HasSuffix(strings.TrimSpace(text[i-1]), "\\"):
		case assignment.MatchString(t), runPath.MatchString(t):
			commands++
		case banner.MatchString(t):
			return false
		default:
			first := strings.Fields(t)[0]
			if !knownPrograms[first] && !tools[first] {
				return false
			}
			commands++
		}
	}
	return commands > 0
}

// KnownProgram reports whether name is one of the programs whose names open
// the command lines of tutorials everywhere.
func KnownProgram(name string) bool { return knownPrograms[name] }

// builtins are the shell's own commands and keywords.
var builtins = set("if", "then", "else", "elif", "fi", "for", "while", "until", "do", "done", "case", "esac",
	"function", "return", "break", "continue", "set", "shift", "read", "eval", "exec", "trap", "wait", "true",
	"false", "test", "[", "[[", ".", ":", "local", "declare", "typeset", "readonly", "let", "umask", "ulimit",
	"pushd", "popd", "dirs", "hash", "help", "times", "shopt", "bind", "builtin", "command", "compgen",
	"complete", "disown", "enable", "fc", "fg", "bg", "getopts", "logout", "mapfile", "printf", "echo",
	"cd", "pwd", "export", "unset", "alias", "unalias", "source", "exit", "kill", "jobs", "history", "type")

// Builtin reports whether name is a shell builtin or keyword.
func Builtin(name string) bool { return builtins[name] }

// makeRule is a make rule's first line, `target ...: prerequisites ...`
// (not `:=`, `::` or a URL), and makeSpecial a special target make alone
// knows.
var (
	makeRule = regexp.MustCompile(`^(?:[\w.%/-]|\$[({]\w+[)}])+(?:[ \t]+(?:[\w.%/-]|\$[({]\w+[)}])+)*[ \t]*:(?:[^=:/]|$)`)
	// notRule are the words that open a block in Python and end in a
	// colon, as a rule's line does, and a capitalized phrase that ends in one
	// (git status's "Changes to be committed:" over its tab-indented files):
	// a heading of output, not targets.
	notRule     = regexp.MustCompile(`^(?:else|try|finally|except|elif|if|for|while|with|class|def|async|match|case|do|then)\b|://|^[A-Z][a-z]+(?: [A-Za-z]+)+\s*:\s*$`)
	makeSpecial = regexp.MustCompile(`^\.(?:PHONY|SUFFIXES|DEFAULT|PRECIOUS|INTERMEDIATE|SECONDARY|DELETE_ON_ERROR|SILENT|ONESHELL)\s*:`)
)

// makefileShape: the block is a Makefile, or a piece of one, whatever its
// tag says: a rule's line followed by a recipe line indented with a tab,
// which no shell command or other language's text looks like, or a special
// target such as `.PHONY:`.
func makefileShape(lines []markdown.CodeLine) bool {
	for i, l := range lines {
		if makeSpecial.MatchString(l.Text) {
			return true
		}
		if !makeRule.MatchString(l.Text) || notRule.MatchString(l.Text) {
			continue
		}
		for _, next := range lines[i+1:] {
			if strings.TrimSpace(next.Text) == "" {
				continue
			}
			if strings.HasPrefix(next.Text, "\t") && strings.TrimSpace(next.Text) != "" {
				return true
			}
			break
		}
	}
	return false
}
