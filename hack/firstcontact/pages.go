package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"

	"github.com/smile-loop/smile/spec/markdown"

	"github.com/smile-loop/smile/hack/firstcontact/round"
)

// pageText is the page as the reviewers judged it: its copy under copies
// (NAME/tutorial.md), else its file at the labelled commit in a mirror. A
// copy that differs from the mirror's file is used (the labels' lines are
// the copy's), with a note saying so. The error says how to fetch a page
// found in neither.
func pageText(p round.Page, copies, mirrors string) (text []byte, note string, err error) {
	copyPath := filepath.Join(copies, p.Name, "tutorial.md")
	copied, copyErr := os.ReadFile(copyPath)
	mirrored, mirror, gitErr := fromMirror(p, mirrors)
	switch {
	case copyErr == nil && gitErr == nil && !bytes.Equal(copied, mirrored):
		return copied, fmt.Sprintf("%s: %s differs from %s:%s in %s: the labels' lines may not match the labelled commit; using the copy",
			p.Name, copyPath, p.Commit, p.Path, mirror), nil
	case copyErr == nil:
		return copied, "", nil
	case gitErr == nil:
		return mirrored, "", nil
	}
	owner := strings.Replace(p.Repo, "/", "+", 1)
	return nil, "", fmt.Errorf("%s: no copy at %s and %v; fetch github:%s (the session's fetch tool) or "+
		"`git clone --mirror https://github.com/%s %s`, then rerun, or save the page with "+
		"`git --git-dir=MIRROR show %s:%s > %s`",
		p.Name, copyPath, gitErr, p.Repo, p.Repo, filepath.Join(mirrors, owner), p.Commit, p.Path, copyPath)
}

// fromMirror shows COMMIT:PATH from the first mirror of the page's
// repository that holds it.
func fromMirror(p round.Page, mirrors string) ([]byte, string, error) {
	dirs := mirrorDirs(mirrors, p.Repo)
	if len(dirs) == 0 {
		return nil, "", fmt.Errorf("no mirror of %s under %s", p.Repo, mirrors)
	}
	var errs []string
	for _, d := range dirs {
		var stderr bytes.Buffer
		cmd := exec.Command("git", "--git-dir="+d, "show", p.Commit+":"+p.Path)
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err == nil {
			return out, d, nil
		}
		errs = append(errs, fmt.Sprintf("%s: %s", d, firstLine(stderr.String(), err)))
	}
	return nil, "", fmt.Errorf("no mirror of %s holds %s:%s (%s)", p.Repo, p.Commit, p.Path, strings.Join(errs, "; "))
}

// mirrorDirs are the git folders of a repository's mirrors: a folder of
// mirrors named OWNER+REPO (or that followed by what no repository name
// holds, such as "@"), itself a bare repository or holding one.
func mirrorDirs(mirrors, repo string) []string {
	entries, err := os.ReadDir(mirrors)
	if err != nil {
		return nil
	}
	want := strings.Replace(repo, "/", "+", 1)
	var out []string
	for _, e := range entries {
		name := e.Name()
		if !e.IsDir() || len(name) < len(want) || !strings.EqualFold(name[:len(want)], want) ||
			(len(name) > len(want) && isRepoNameByte(name[len(want)])) {
			continue
		}
		dir := filepath.Join(mirrors, name)
		if isGitDir(dir) {
			out = append(out, dir)
			continue
		}
		subs, _ := os.ReadDir(dir)
		for _, s := range subs {
			if sub := filepath.Join(dir, s.Name()); s.IsDir() && isGitDir(sub) {
				out = append(out, sub)
			}
		}
	}
	return out
}

func isRepoNameByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '-' || b == '_' || b == '.'
}

// isGitDir says whether dir looks like a bare repository.
func isGitDir(dir string) bool {
	for _, f := range []string{"HEAD", "objects"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			return false
		}
	}
	return true
}

func firstLine(s string, err error) string {
	s = strings.TrimSpace(s)
	if s == "" {
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return exit.Error()
		}
		return err.Error()
	}
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// exercised counts the blocks a run exercised: the code and HTML blocks
// (SMILE's own Markdown reader) holding a line at which the Student ran a
// command or wrote a file, and once each line outside any such block (a
// command the Student took from the prose). Output only compared is not in
// the audit: the count can be below a reviewer's.
func exercised(text []byte, lines []int) int {
	doc := markdown.ParseMarkdown(text)
	n := 0
	inBlock := map[int]bool{}
	for _, b := range doc.Blocks {
		if b.Kind != markdown.BlockCode && b.Kind != markdown.BlockHTML {
			continue
		}
		hit := false
		for _, l := range lines {
			if l >= b.Line && l <= max(b.EndLine, b.Line) {
				hit, inBlock[l] = true, true
			}
		}
		if hit {
			n++
		}
	}
	for _, l := range lines {
		if !inBlock[l] {
			n++
		}
	}
	return n
}

// stageImages puts beside the staged page the local images it shows, as
// the page has them where it is published: from the copy's folder
// (COPIES/NAME/...) or else from the page's repository at the labelled
// commit, relative to the page's own path. An image found in neither stays
// missing, for the run to report. Nothing is written outside dir.
func stageImages(p round.Page, dir string, text []byte, copies, mirrors string) error {
	dirs := mirrorDirs(mirrors, p.Repo)
	for _, img := range markdown.ParseMarkdown(text).Images {
		rel := path.Clean(strings.SplitN(strings.SplitN(img.Destination, "#", 2)[0], "?", 2)[0])
		if rel == "." || path.IsAbs(rel) || strings.HasPrefix(rel, "..") {
			continue // above the page's folder or the site's root: not beside the staged page
		}
		to := filepath.Join(dir, filepath.FromSlash(rel))
		if !strings.HasPrefix(to, filepath.Clean(dir)+string(filepath.Separator)) {
			continue
		}
		data, err := os.ReadFile(filepath.Join(copies, p.Name, filepath.FromSlash(rel)))
		for _, d := range dirs {
			if err == nil {
				break
			}
			data, err = exec.Command("git", "--git-dir="+d, "show", p.Commit+":"+path.Join(path.Dir(p.Path), rel)).Output()
		}
		if err != nil {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(to, data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// copyOnly are the files a copy's folder may hold that are not the page's:
// the page itself (staged on its own) and what a run of SMILE left there.
var copyOnly = map[string]bool{"tutorial.md": true, ".smile": true, "smile.json": true, "run.yaml": true, "apply.out": true, "apply.err": true}

// stageCopyFiles puts beside the staged page the other files its copy's
// folder keeps: what the page's repository ships beside it (a lab's code,
// an example folder), which a reader who has the repository works with.
// Pages staged from a mirror get only their images: their repository's
// folder may be large, and the copy is where a reviewer keeps what the page
// needs.
func stageCopyFiles(p round.Page, dir, copies string) error {
	src := filepath.Join(copies, p.Name)
	entries, err := os.ReadDir(src)
	if err != nil {
		return nil // no copy: nothing beside it
	}
	for _, e := range entries {
		if copyOnly[e.Name()] {
			continue
		}
		from, to := filepath.Join(src, e.Name()), filepath.Join(dir, e.Name())
		if e.IsDir() {
			if err := os.CopyFS(to, os.DirFS(from)); err != nil {
				return err
			}
			continue
		}
		data, err := os.ReadFile(from)
		if err != nil {
			return err
		}
		if err := os.WriteFile(to, data, 0o644); err != nil {
			return err
		}
	}
	return nil
}
