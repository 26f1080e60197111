package depend

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// command reads one Run's shell text for what it uses and makes.
type command struct {
	d *deriver
	// setsFolder: the command changes the session's folder (cd, pushd,
	// popd outside a subshell); absoluteCd: it starts with a cd to a folder
	// named from the root or home, which needs no earlier folder.
	setsFolder, absoluteCd bool
	// sources: it sources a file or evals text into the session.
	sources bool
	calls   int
	local   map[*syntax.Assign]bool // prefix assignments (`X=1 cmd`): the command's own
}

func (c *command) read(text string) {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(text), "")
	if err != nil {
		// Not bash the parser knows: its words are still what it uses.
		fields := strings.Fields(text)
		if len(fields) > 0 {
			c.call(fields, &c.d.cwd, true)
		}
		return
	}
	c.local = map[*syntax.Assign]bool{}
	cwd := c.d.cwd
	for _, s := range f.Stmts {
		c.walk(s, &cwd, true)
	}
	if c.setsFolder {
		final := cwd
		c.d.pending = append(c.d.pending, func() { c.d.cwd = final })
	}
}

// walk reads a node in source order; top says a folder change there lasts
// beyond the command (not in a subshell or a pipe's part).
func (c *command) walk(node syntax.Node, cwd *string, top bool) {
	syntax.Walk(node, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Subshell:
			inner := *cwd
			for _, s := range n.Stmts {
				c.walk(s, &inner, false)
			}
			return false
		case *syntax.BinaryCmd:
			if n.Op == syntax.Pipe || n.Op == syntax.PipeAll {
				a, b := *cwd, *cwd
				c.walk(n.X, &a, false)
				c.walk(n.Y, &b, false)
				return false
			}
		case *syntax.FuncDecl:
			if n.Name != nil {
				c.defines(n.Name.Value)
			}
			return false // the body runs when called
		case *syntax.CallExpr:
			if len(n.Args) > 0 {
				for _, a := range n.Assigns {
					c.local[a] = true
				}
				c.call(words(n.Args), cwd, top)
			}
		case *syntax.Assign:
			if n.Name != nil && !c.local[n] {
				c.sets(n.Name.Value)
			}
		case *syntax.DeclClause:
			for _, a := range n.Args {
				if a.Name != nil && (a.Value != nil || a.Array != nil || !a.Naked) {
					c.sets(a.Name.Value)
				}
			}
		case *syntax.WordIter:
			c.sets(n.Name.Value)
		case *syntax.Redirect:
			c.redirect(n, *cwd)
		case *syntax.ParamExp:
			if n.Param != nil {
				c.usesVar(n.Param.Value)
			}
		}
		return true
	})
}

func (c *command) redirect(r *syntax.Redirect, cwd string) {
	w := literal(r.Word)
	if w == "" || strings.HasPrefix(w, "/dev/") || strings.HasPrefix(w, "&") {
		return
	}
	switch r.Op {
	case syntax.RdrOut, syntax.RdrAll, syntax.RdrClob:
		c.d.parent(w, resolve(cwd, w))
		c.d.made(resolve(cwd, w))
	case syntax.AppOut, syntax.AppAll:
		c.d.use(w, resolve(cwd, w))
		c.d.made(resolve(cwd, w))
	case syntax.RdrIn, syntax.RdrInOut:
		c.d.use(w, resolve(cwd, w))
	}
}

// sets: the step sets a variable, for the steps after it.
func (c *command) sets(name string) {
	i := c.d.i
	c.d.pending = append(c.d.pending, func() { c.d.vars[name] = i })
}

func (c *command) defines(name string) {
	i := c.d.i
	c.d.pending = append(c.d.pending, func() { c.d.funcs[name] = i })
}

func (c *command) usesVar(name string) {
	c.d.names = append(c.d.names, Variable(name))
	if j, ok := c.d.vars[name]; ok {
		c.d.need(j, fmt.Sprintf("uses `$%s`, which line %d sets", name, c.d.line(j)))
	}
}

// call reads one simple command: its words as the shell will see them
// ("" for a word only the running shell can spell).
func (c *command) call(args []string, cwd *string, top bool) {
	name := args[0]
	if name == "sudo" || name == "command" || name == "exec" || name == "time" || name == "nohup" {
		args = withoutFlags(args[1:])
		if len(args) == 0 {
			return
		}
		name = args[0]
	}
	c.calls++
	first := c.calls == 1
	rest := args[1:]
	if j, ok := c.d.funcs[name]; ok {
		c.d.need(j, fmt.Sprintf("calls `%s`, which line %d defines", name, c.d.line(j)))
	} else if name != "" && !strings.Contains(name, "/") && !builtin[name] {
		c.d.names = append(c.d.names, Program(name))
		if j, ok := c.d.installs[name]; ok {
			c.d.need(j, fmt.Sprintf("runs `%s`, which line %d installs", name, c.d.line(j)))
		}
	}
	if strings.Contains(name, "/") {
		c.d.use(name, resolve(*cwd, name))
	}
	for _, a := range args {
		if local(a) && c.d.server >= 0 {
			c.d.need(c.d.server, fmt.Sprintf("talks to the server line %d starts", c.d.line(c.d.server)))
		}
	}
	switch name {
	case "cd", "pushd":
		c.cd(rest, cwd, first)
		c.setsFolder = c.setsFolder || top
	case "popd":
		*cwd = fmt.Sprintf("?%d", c.d.i)
		c.setsFolder = c.setsFolder || top
	case "source", ".":
		c.sources = true
		c.reads(rest, *cwd)
	case "eval":
		c.sources = true
	case "alias":
		for _, a := range rest {
			if k, _, ok := strings.Cut(a, "="); ok && k != "" {
				c.defines(k)
			}
		}
	case "read":
		for _, a := range withoutFlags(rest) {
			c.sets(a)
		}
	case "mkdir":
		for _, a := range withoutFlags(rest) {
			// -p or not, the folders on the way exist once it succeeds
			for q := a; pathLike(q) && q != "/"; q = path.Dir(q) {
				c.makes([]string{q}, *cwd)
			}
		}
	case "touch", "tee":
		c.makes(withoutFlags(rest), *cwd)
	case "cp", "mv", "ln", "install", "rsync":
		c.copies(withoutFlags(rest), *cwd)
	case "chmod", "chown", "chgrp":
		files := withoutFlags(rest)
		if len(files) > 1 {
			c.reads(files[1:], *cwd)
			c.makes(files[1:], *cwd)
		}
	default:
		c.other(name, rest, *cwd)
	}
}

func (c *command) cd(rest []string, cwd *string, first bool) {
	args := withoutFlags(rest)
	switch {
	case len(args) == 0 || args[0] == "~":
		*cwd = "~"
		c.absoluteCd = c.absoluteCd || first
	case args[0] == "" || args[0] == "-":
		*cwd = fmt.Sprintf("?%d", c.d.i)
	default:
		p := resolve(*cwd, args[0])
		if path.IsAbs(args[0]) || strings.HasPrefix(args[0], "~") {
			c.absoluteCd = c.absoluteCd || first
		}
		c.d.use(args[0], p)
		*cwd = p
	}
}

// other reads a command SMILE knows nothing particular about: each word
// that could name a path is one it uses; a package install makes programs.
func (c *command) other(name string, rest []string, cwd string) {
	if pkgs, ok := installed(name, rest); ok {
		c.d.packages = append(c.d.packages, pkgs...)
		i := c.d.i
		for _, p := range pkgs {
			c.d.pending = append(c.d.pending, func() { c.d.installs[p] = i })
		}
		return
	}
	switch {
	case name == "git" && len(rest) > 0 && rest[0] == "clone":
		args := withoutFlags(rest[1:])
		dir := ""
		switch {
		case len(args) >= 2:
			dir = args[1]
		case len(args) == 1:
			dir = strings.TrimSuffix(path.Base(args[0]), ".git")
		}
		if dir != "" {
			c.makes([]string{dir}, cwd)
			c.d.repoMade(resolve(cwd, dir))
		}
		return
	case name == "git":
		// Its subcommand is a word, not a path; its arguments may be paths.
		c.git(rest, cwd)
		_, args := gitSubcommand(rest)
		c.reads(args, cwd)
		return
	case compilers[name] != nil:
		c.reads(rest, cwd)
		if out := compiled(name, rest); out != "" {
			c.makes([]string{out}, cwd)
		}
		return
	case name == "curl" || name == "wget":
		c.downloads(name, rest, cwd)
		return
	case name == "go" && len(rest) > 0 && rest[0] == "build":
		c.reads(rest[1:], cwd)
		if out := goBuilt(rest[1:], cwd); out != "" {
			c.makes([]string{out}, cwd)
		}
		return
	case name == "tar" || name == "unzip":
		c.reads(rest, cwd)
		if dir := unpacked(name, rest); dir != "" {
			c.makes([]string{dir}, cwd)
		}
		return
	}
	c.reads(rest, cwd)
}

// downloads: curl -o FILE / wget -O FILE make FILE; curl -O and wget with
// no -O make the URL's last part, as the tools name it.
func (c *command) downloads(name string, rest []string, cwd string) {
	out := map[string]byte{"curl": 'o', "wget": 'O'}[name]
	remoteName := name == "wget"
	var url string
	for i, a := range rest {
		// -o FILE, or a cluster of short flags that ends with it (-sSLo)
		short := len(a) > 1 && a[0] == '-' && a[1] != '-'
		if (short && a[len(a)-1] == out || a == "--output" || a == "--output-document") && i+1 < len(rest) {
			c.makes(rest[i+1:i+2], cwd)
			return
		}
		if name == "curl" && (short && strings.ContainsRune(a, 'O') || a == "--remote-name") {
			remoteName = true
		}
		if url == "" && (strings.HasPrefix(a, "http://") || strings.HasPrefix(a, "https://") || strings.HasPrefix(a, "ftp://")) {
			url = a
		}
	}
	if remoteName && url != "" {
		base := path.Base(strings.SplitN(strings.SplitN(url, "?", 2)[0], "#", 2)[0])
		if base != "" && base != "." && base != "/" && !strings.Contains(url[strings.Index(url, "://")+3:], "/"+base+"/") {
			c.makes([]string{base}, cwd)
		}
	}
}

// goBuilt is what `go build` writes: -o's argument, else the first .go
// file's name without .go, else (a package) the folder's name.
func goBuilt(args []string, cwd string) string {
	for i, a := range args {
		if a == "-o" && i+1 < len(args) {
			return args[i+1]
		}
	}
	for _, a := range args {
		if strings.HasSuffix(a, ".go") {
			return strings.TrimSuffix(path.Base(a), ".go")
		}
	}
	if len(withoutFlags(args)) == 0 && cwd != "" && cwd != "~" && !strings.HasPrefix(cwd, "?") {
		return path.Base(cwd)
	}
	return ""
}

// archiveExt are the endings an archive's name drops for the folder it
// holds, by the convention releases follow (lua-5.4.6.tar.gz holds
// lua-5.4.6/).
var archiveExt = []string{".tar.gz", ".tgz", ".tar.xz", ".txz", ".tar.bz2", ".tbz2", ".tar.zst", ".tar", ".zip"}

// unpacked is the folder `tar x...f ARCHIVE` or `unzip ARCHIVE` makes by that
// convention; "" for anything else (a listing, a -C elsewhere).
func unpacked(name string, rest []string) string {
	if name == "tar" && (len(rest) == 0 || !strings.Contains(strings.TrimLeft(rest[0], "-"), "x") && !slices.Contains(rest, "--extract")) {
		return ""
	}
	if slices.Contains(rest, "-C") || slices.Contains(rest, "-d") || slices.Contains(rest, "-l") {
		return ""
	}
	for _, a := range rest {
		for _, ext := range archiveExt {
			if strings.HasSuffix(a, ext) && !strings.HasPrefix(a, "-") {
				return strings.TrimSuffix(path.Base(a), ext)
			}
		}
	}
	return ""
}

func (c *command) reads(args []string, cwd string) {
	for _, a := range args {
		if _, v, ok := strings.Cut(a, "="); ok && strings.HasPrefix(a, "-") {
			a = v
		}
		if pathLike(a) {
			c.d.use(a, resolve(cwd, a))
		}
	}
}

func (c *command) makes(args []string, cwd string) {
	for _, a := range args {
		if pathLike(a) {
			p := resolve(cwd, a)
			c.d.parent(a, p)
			c.d.made(p)
		}
	}
}

// copies: every argument but the last is used, the last is made (and, when
// it is a folder the page made, the sources' names inside it).
func (c *command) copies(args []string, cwd string) {
	if len(args) < 2 {
		c.reads(args, cwd)
		return
	}
	src, dst := args[:len(args)-1], args[len(args)-1]
	c.reads(src, cwd)
	if !pathLike(dst) {
		return
	}
	to := resolve(cwd, dst)
	c.d.parent(dst, to)
	c.d.made(to)
	for _, s := range src {
		if pathLike(s) {
			c.d.made(path.Join(to, path.Base(s)))
		}
	}
}

// A compiler makes a file the page then runs without naming it where it is
// made: `gcc hello.c` makes a.out, `rustc hello.rs` makes hello, `javac
// Hello.java` makes Hello.class; `-o NAME` makes NAME for any of them. Each
// entry is the file the compiler makes from its first source when no -o
// says otherwise ("" when the compiler only checks or runs).
var compilers = map[string]func(source string) string{
	"gcc": aOut, "cc": aOut, "clang": aOut, "g++": aOut, "c++": aOut, "clang++": aOut, "tcc": aOut,
	"rustc":    func(src string) string { return trimExt(path.Base(src), ".rs") },
	"javac":    func(src string) string { return trimExt(src, ".java") + ".class" },
	"ghc":      func(src string) string { return trimExt(path.Base(src), ".hs") },
	"nim":      func(string) string { return "" },
	"gfortran": aOut, "fpc": func(src string) string { return trimExt(src, ".pas") },
}

func aOut(string) string { return "a.out" }

func trimExt(name, ext string) string {
	if !strings.HasSuffix(name, ext) {
		return ""
	}
	return strings.TrimSuffix(name, ext)
}

// compiled is the file a compiler's command makes: -o's argument (also
// -oNAME), else what the compiler names after its first source; "" when it
// makes none (`gcc -c` makes objects, which nothing runs).
func compiled(name string, args []string) string {
	var source string
	for i, a := range args {
		switch {
		case a == "-o" && i+1 < len(args):
			return args[i+1]
		case strings.HasPrefix(a, "-o") && len(a) > 2 && name != "javac":
			return a[2:]
		case a == "-c" || a == "-E" || a == "-S" || a == "--version" || a == "-v":
			return ""
		case source == "" && !strings.HasPrefix(a, "-"):
			source = a
		}
	}
	if source == "" {
		return ""
	}
	return compilers[name](source)
}
