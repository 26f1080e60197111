package depend

import (
	"fmt"
	"path"
	"strings"
)

// Kind is what a step does, as far as dependencies go.
type Kind int

const (
	// Other is a step that is not followed (skipped, an image): it depends
	// on nothing and nothing depends on it.
	Other Kind = iota
	// Run runs a shell command line.
	Run
	// Write saves a block to a file.
	Write
	// Compare compares shown output with the latest command's.
	Compare
)

// Step is what the derivation needs of a planned step.
type Step struct {
	Kind Kind
	Line int
	// Command is the shell text of a Run.
	Command string
	// Path is the destination of a Write, as the page names it; Append says
	// the block is added to what the file holds.
	Path   string
	Append bool
	// Background: a Run started and left running (a server).
	Background bool
}

// Dep is one dependency of a step: the index of the step it needs, and
// why, in words for the report ("reads `notes.txt`, which line 12 writes").
type Dep struct {
	Step int
	Why  string
}

// Plan is the dependencies of every step, by index, and the names each Run
// needs from the session: the programs it starts (Program) and the
// variables it expands (Variable). A name a failed step found missing
// blocks the later steps that need it.
type Plan struct {
	Deps  [][]Dep
	Names [][]string
	// Installs are the packages each Run installs (`apt-get install -y
	// lua5.4`, `pip install flask`), as the command names them.
	Installs [][]string
}

// Installs are the packages a command line installs.
func Installs(command string) []string {
	return Derive([]Step{{Kind: Run, Command: command}}).Installs[0]
}

// Program and Variable are the names of what a step needs from the session.
func Program(name string) string  { return "program " + name }
func Variable(name string) string { return "$" + name }

// Derive reads the steps in order and says what each depends on.
func Derive(steps []Step) Plan {
	d := &deriver{
		steps: steps, cwd: ".", cwdStep: -1, sourced: -1, server: -1, lastRun: -1,
		writer: map[string]int{}, firstUse: map[string]int{}, vars: map[string]int{},
		funcs: map[string]int{}, installs: map[string]int{},
	}
	p := Plan{Deps: make([][]Dep, len(steps)), Names: make([][]string, len(steps)), Installs: make([][]string, len(steps))}
	for i, st := range steps {
		d.i, d.deps, d.seen, d.names, d.packages = i, nil, map[int]bool{}, nil, nil
		switch st.Kind {
		case Run:
			d.run(st)
		case Write:
			d.write(st)
		case Compare:
			if d.lastRun >= 0 {
				d.need(d.lastRun, fmt.Sprintf("shows the output of line %d", steps[d.lastRun].Line))
			}
		}
		p.Deps[i], p.Names[i], p.Installs[i] = d.deps, d.names, d.packages
	}
	return p
}

// deriver is the state of the page's session as far as the steps so far
// tell: the current folder and the step that set it, who wrote and who
// first used each path, who set each variable, function and program.
type deriver struct {
	steps []Step
	i     int // the step being read
	deps  []Dep
	seen  map[int]bool
	names []string

	cwd      string // symbolic: "." is the folder the page starts in
	cwdStep  int    // the latest step that changed the folder (-1: none)
	sourced  int    // the latest step that sourced a file (-1: none)
	server   int    // the latest step started in the background (-1: none)
	lastRun  int
	writer   map[string]int // path → the latest step that wrote it
	firstUse map[string]int // path no step wrote → the first step that used it
	vars     map[string]int // variable → the latest step that set it
	funcs    map[string]int // function or alias → the step that defined it
	installs map[string]int // package → the latest step that installed it
	repos    []string       // the folders the page made repositories in (git init, clone), in order
	packages []string       // the packages the step being read installs
	pending  []func()       // what the step makes, applied once it is read
}

// need adds a dependency of the current step, once, never on itself.
func (d *deriver) need(j int, why string) {
	if j < 0 || j >= d.i || d.seen[j] {
		return
	}
	d.seen[j] = true
	d.deps = append(d.deps, Dep{Step: j, Why: why})
}

func (d *deriver) line(j int) int { return d.steps[j].Line }

// inFolder: every followed step runs in the session the latest folder
// change and the latest sourced file made.
func (d *deriver) inFolder() {
	if d.cwdStep >= 0 {
		d.need(d.cwdStep, fmt.Sprintf("runs in the folder line %d changes into", d.line(d.cwdStep)))
	}
	if d.sourced >= 0 {
		d.need(d.sourced, fmt.Sprintf("runs in the session line %d sources a file into", d.line(d.sourced)))
	}
}

func (d *deriver) write(st Step) {
	d.inFolder()
	p := resolve(d.cwd, st.Path)
	if st.Append {
		d.use(st.Path, p)
	} else {
		d.parent(st.Path, p)
	}
	d.writer[p] = d.i
}

func (d *deriver) run(st Step) {
	c := &command{d: d}
	c.read(st.Command)
	if !c.absoluteCd {
		d.inFolder()
	}
	for _, f := range d.pending {
		f()
	}
	d.pending = nil
	if c.setsFolder {
		d.cwdStep = d.i
	}
	if c.sources {
		d.sourced = d.i
	}
	if st.Background {
		d.server = d.i
	}
	d.lastRun = d.i
}

// use records that the step reads, runs or enters p (named as written):
// it needs the step that wrote p, else the first step that used it, and
// the one that made the nearest folder above it.
func (d *deriver) use(named, p string) {
	if p == "" {
		return
	}
	if w, ok := d.writer[p]; ok {
		d.need(w, fmt.Sprintf("uses `%s`, which line %d writes", named, d.line(w)))
		return
	}
	if f, ok := d.firstUse[p]; ok {
		d.need(f, fmt.Sprintf("uses `%s`, which line %d used first", named, d.line(f)))
		return
	}
	if !d.current(p) {
		d.firstUse[p] = d.i
	}
	d.parent(named, p)
}

// parent: the nearest folder above p that a step made or first used,
// below the current folder (the step that entered it is needed already).
func (d *deriver) parent(named, p string) {
	for q := path.Dir(p); !root(q) && !d.current(q); q = path.Dir(q) {
		if w, ok := d.writer[q]; ok {
			d.need(w, fmt.Sprintf("uses `%s` in the folder line %d makes", named, d.line(w)))
			return
		}
		if f, ok := d.firstUse[q]; ok {
			d.need(f, fmt.Sprintf("uses `%s` in the folder line %d used first", named, d.line(f)))
			return
		}
	}
}

// made records that the step writes p, once the step is read.
func (d *deriver) made(p string) {
	if p == "" {
		return
	}
	i := d.i
	d.pending = append(d.pending, func() { d.writer[p] = i })
}

// current: p is the current folder or a folder above it; it exists.
func (d *deriver) current(p string) bool {
	return p == d.cwd || strings.HasPrefix(d.cwd+"/", p+"/") || root(p)
}

// root paths always exist: the starting folder, home, the file system's
// root, and a folder the page reached by a path no step spells.
func root(p string) bool {
	return p == "." || p == "/" || p == "~" || p == ".." || strings.HasPrefix(p, "?") && !strings.Contains(p, "/")
}

// resolve makes a path the page names absolute in the symbolic folder
// tree: "." is where the page starts, "~" home, "?N" a folder only the
// running session knows. A glob stops at its first pattern.
func resolve(cwd, p string) string {
	p = strings.TrimSpace(p)
	if p == "" {
		return ""
	}
	if i := strings.IndexAny(p, "*?["); i >= 0 {
		p = path.Dir(p[:i] + "x")
	}
	switch {
	case p == "~" || strings.HasPrefix(p, "~/"):
		return path.Clean(p)
	case strings.HasPrefix(p, "/"):
		return path.Clean(p)
	}
	return path.Join(cwd, p)
}
