package depend

import (
	"fmt"
	"path"
	"strings"
)

// A version-control tool keeps its state in a folder of its own inside the
// working tree (git's .git), which no command of the page names: `git
// commit` writes it, `git branch feature` and `git log` read it. So a git
// command run inside a repository an earlier step made (`git init`, `git
// clone`) depends on the latest git command that changed that repository,
// as a command that reads a file depends on the step that wrote it. When a
// commit fails, the branch, log and merge that follow fail with it, and
// they are consequences of that failure, not gaps of their own.

// gitReadOnly are the subcommands that only read a repository's state.
var gitReadOnly = map[string]bool{
	"status": true, "log": true, "diff": true, "show": true, "ls-files": true, "blame": true,
	"rev-parse": true, "describe": true, "shortlog": true, "grep": true, "reflog": true, "cat-file": true,
}

// gitGlobal are the subcommands that need no repository.
var gitGlobal = map[string]bool{"help": true, "version": true, "clone": true, "init": true}

// repoState is the symbolic path of the state of the repository made at
// root.
func repoState(root string) string { return path.Join(root, ".git") }

// git reads a git command for the repository state it uses and changes.
func (c *command) git(rest []string, cwd string) {
	sub, args := gitSubcommand(rest)
	switch {
	case sub == "":
		return
	case sub == "init":
		dir := "."
		if a := withoutFlags(args); len(a) > 0 {
			dir = a[0]
		}
		c.d.repoMade(resolve(cwd, dir))
		return
	case sub == "config" && hasFlag(args, "--global", "--system"):
		return
	case gitGlobal[sub]:
		return
	}
	root, ok := c.d.repoAt(cwd)
	if !ok {
		return // a repository the page did not make: nothing to depend on
	}
	state := repoState(root)
	if w, ok := c.d.writer[state]; ok {
		c.d.need(w, fmt.Sprintf("runs `git %s` in the repository whose state line %d changes", sub, c.d.line(w)))
	}
	if gitWrites(sub, withoutFlags(args)) {
		c.d.made(state)
	}
}

// gitListers list what they would make when given no name (`git branch`,
// `git remote -v`, `git tag`).
var gitListers = map[string]bool{"branch": true, "remote": true, "tag": true}

// gitWrites: the subcommand, with these arguments, changes the repository.
func gitWrites(sub string, positional []string) bool {
	switch {
	case gitReadOnly[sub]:
		return false
	case gitListers[sub] && len(positional) == 0:
		return false
	case sub == "stash" && len(positional) > 0 && (positional[0] == "list" || positional[0] == "show"):
		return false
	}
	return true
}

// gitSubcommand skips git's own options (-c k=v, --no-pager) to its
// subcommand; -C names another folder, which is not followed.
func gitSubcommand(rest []string) (string, []string) {
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		switch {
		case a == "-C":
			return "", nil
		case a == "-c" || a == "--git-dir" || a == "--work-tree":
			i++
		case strings.HasPrefix(a, "-"):
		default:
			return a, rest[i+1:]
		}
	}
	return "", nil
}

func hasFlag(args []string, flags ...string) bool {
	for _, a := range args {
		for _, f := range flags {
			if a == f {
				return true
			}
		}
	}
	return false
}

// repoMade records that the step makes a repository at root.
func (d *deriver) repoMade(root string) {
	if root == "" {
		return
	}
	i := d.i
	d.pending = append(d.pending, func() {
		d.repos = append(d.repos, root)
		d.writer[repoState(root)] = i
	})
}

// repoAt is the latest repository the page made at cwd or a folder above it.
func (d *deriver) repoAt(cwd string) (string, bool) {
	for i := len(d.repos) - 1; i >= 0; i-- {
		r := d.repos[i]
		if cwd == r || strings.HasPrefix(cwd+"/", r+"/") || r == "." && !strings.HasPrefix(cwd, "/") && !strings.HasPrefix(cwd, "~") && !strings.HasPrefix(cwd, "?") {
			return r, true
		}
	}
	return "", false
}
