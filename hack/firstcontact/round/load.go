// Package round loads a first-contact round (test/firstcontact/roundN: one
// or more YAML files in which reviewers judged what SMILE's learner reported
// on published pages nobody on the project had used) and scores it: from the
// labels alone (the round's recorded figures) or for a fresh run whose gaps
// are matched to the labels. It runs nothing and reads no page: the pages'
// text is never in the repository.
package round

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// The labels a reviewer gives a reported gap.
const (
	LabelReal        = "real"        // the page really is at fault there
	LabelEnvironment = "environment" // the container falls short, not the page
	LabelWrong       = "wrong"       // SMILE misread a page that is fine there
)

// CategoryEnvironment is the gap category of what the container lacked.
const CategoryEnvironment = "environment"

// StatusCompleted is the report status of a run that reached the end.
const StatusCompleted = "completed"

// Round is every page of one round, from all its files.
type Round struct {
	Dir     string
	Number  int
	Learner string
	// Pages are sorted by name; names are unique across the files.
	Pages []Page
	// Warnings are what a person should look at but need not stop the
	// scoring: counts that disagree, a found flag the line rule does not
	// bear out, a gap labelled real that is not among the real gaps.
	Warnings []string
}

// Page is one judged page.
type Page struct {
	Name            string   `yaml:"name"`
	URL             string   `yaml:"url"`
	Repo            string   `yaml:"repo"`
	Commit          string   `yaml:"commit"`
	Path            string   `yaml:"path"`
	Language        string   `yaml:"language"`
	Kind            string   `yaml:"kind"`
	ReaderCompletes *bool    `yaml:"readerCompletes"`
	Blocks          int      `yaml:"blocks"`
	Exercised       int      `yaml:"exercised"`
	Result          Result   `yaml:"result"`
	Reported        []Judged `yaml:"reported"`
	RealGaps        []Real   `yaml:"realGaps"`
	Misreadings     []string `yaml:"misreadings"`
	// Source is the file and line of the page's entry.
	Source string `yaml:"-"`
}

// Completes says whether a careful reader completes the page.
func (p Page) Completes() bool { return p.ReaderCompletes != nil && *p.ReaderCompletes }

// Result is the summary of the run the reviewer judged.
type Result struct {
	Status     string `yaml:"status"`
	Iterations int    `yaml:"iterations"`
	Gaps       int    `yaml:"gaps"`
}

// Judged is one gap SMILE reported, with the reviewer's label.
type Judged struct {
	Line     int    `yaml:"line"`
	Category string `yaml:"category"`
	Label    string `yaml:"label"`
	Why      string `yaml:"why"`
}

// Real is one gap a careful reader finds on the page. AlsoLines are other
// lines at which a report fairly names the same gap.
type Real struct {
	Line      int    `yaml:"line"`
	AlsoLines []int  `yaml:"alsoLines"`
	Category  string `yaml:"category"`
	Found     bool   `yaml:"found"`
	Why       string `yaml:"why"`
}

// Lines are the gap's line and its alsoLines.
func (r Real) Lines() []int { return append([]int{r.Line}, r.AlsoLines...) }

// The keys each mapping may hold: anything else is an error, so a misspelt
// key (realgaps) never silently drops what it holds.
var (
	fileKeys     = []string{"round", "learner", "pages"}
	pageKeys     = []string{"name", "url", "repo", "commit", "path", "language", "kind", "readerCompletes", "blocks", "exercised", "result", "reported", "realGaps", "misreadings"}
	resultKeys   = []string{"status", "iterations", "gaps"}
	reportedKeys = []string{"line", "category", "label", "why"}
	realGapKeys  = []string{"line", "alsoLines", "category", "found", "why"}
)

var (
	pageName  = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)
	repoName  = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]*/[A-Za-z0-9_.-]+$`)
	commitSHA = regexp.MustCompile(`^[0-9a-f]{40}$`)
	roundDir  = regexp.MustCompile(`^round(\d+)$`)
	yamlLine  = regexp.MustCompile(`^line (\d+): (.*)$`)
)

// file is one YAML file of a round.
type file struct {
	source  string
	round   int
	learner string
	pages   []Page
}

// Load reads every *.yaml and *.yml file of dir as one round. Errors name
// the file and line; all of them are returned together.
func Load(dir string) (*Round, error) {
	var names []string
	for _, pattern := range []string{"*.yaml", "*.yml"} {
		m, err := filepath.Glob(filepath.Join(dir, pattern))
		if err != nil {
			return nil, fmt.Errorf("list %s: %w", dir, err)
		}
		names = append(names, m...)
	}
	if len(names) == 0 {
		if _, err := os.Stat(dir); err != nil {
			return nil, fmt.Errorf("load round: %w", err)
		}
		return nil, fmt.Errorf("load round: %s holds no *.yaml file", dir)
	}
	sort.Strings(names)
	var files []file
	var errs []error
	for _, name := range names {
		data, err := os.ReadFile(name)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		f, err := parseFile(data, name)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		files = append(files, f)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return merge(dir, files)
}

// Parse reads one YAML file of a round as a round of its own.
func Parse(data []byte, source string) (*Round, error) {
	f, err := parseFile(data, source)
	if err != nil {
		return nil, err
	}
	return merge("", []file{f})
}

// merge checks that the files agree on the round and the learner, that no
// page is judged twice, and gathers the warnings.
func merge(dir string, files []file) (*Round, error) {
	r := &Round{Dir: dir}
	var errs []error
	seen := map[string]string{}
	for i, f := range files {
		if i == 0 {
			r.Number, r.Learner = f.round, f.learner
		}
		if f.round != r.Number {
			errs = append(errs, fmt.Errorf("%s: round %d, but %s says round %d", f.source, f.round, files[0].source, r.Number))
		}
		if f.learner != r.Learner {
			errs = append(errs, fmt.Errorf("%s: learner %q, but %s says %q", f.source, f.learner, files[0].source, r.Learner))
		}
		for _, p := range f.pages {
			if first, dup := seen[p.Name]; dup {
				errs = append(errs, fmt.Errorf("%s: page %s is judged twice (first at %s)", p.Source, p.Name, first))
				continue
			}
			seen[p.Name] = p.Source
			r.Pages = append(r.Pages, p)
		}
	}
	if m := roundDir.FindStringSubmatch(filepath.Base(dir)); m != nil && len(files) > 0 {
		if n, _ := strconv.Atoi(m[1]); n != r.Number {
			errs = append(errs, fmt.Errorf("%s: round %d in a folder named %s", files[0].source, r.Number, filepath.Base(dir)))
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	sort.Slice(r.Pages, func(i, j int) bool { return r.Pages[i].Name < r.Pages[j].Name })
	for _, p := range r.Pages {
		r.Warnings = append(r.Warnings, p.Warnings()...)
	}
	return r, nil
}

// parseFile decodes one file: the document's keys, then each page.
func parseFile(data []byte, source string) (file, error) {
	f := file{source: source}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return f, yamlError(source, err)
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return f, fmt.Errorf("%s: empty: want round, learner and pages", source)
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return f, fmt.Errorf("%s:%d: want a mapping with round, learner and pages", source, root.Line)
	}
	var errs []error
	errs = append(errs, unknownKeys(source, root, fileKeys, "the file")...)
	var head struct {
		Round   int    `yaml:"round"`
		Learner string `yaml:"learner"`
	}
	if err := root.Decode(&head); err != nil {
		return f, yamlError(source, err)
	}
	f.round, f.learner = head.Round, head.Learner
	if f.round <= 0 {
		errs = append(errs, fmt.Errorf("%s:%d: no round number", source, root.Line))
	}
	if f.learner == "" {
		errs = append(errs, fmt.Errorf("%s:%d: no learner (the commit of SMILE that was judged)", source, root.Line))
	}
	pages := value(root, "pages")
	switch {
	case pages == nil || (pages.Kind == yaml.ScalarNode && pages.Tag == "!!null"):
		errs = append(errs, fmt.Errorf("%s:%d: no pages", source, root.Line))
	case pages.Kind != yaml.SequenceNode:
		errs = append(errs, fmt.Errorf("%s:%d: pages must be a list", source, pages.Line))
	default:
		for i, n := range pages.Content {
			p, perrs := parsePage(source, i+1, n)
			errs = append(errs, perrs...)
			if len(perrs) == 0 {
				f.pages = append(f.pages, p)
			}
		}
	}
	return f, errors.Join(errs...)
}

// parsePage decodes and checks the i-th page (from 1).
func parsePage(source string, i int, n *yaml.Node) (Page, []error) {
	var p Page
	where := fmt.Sprintf("page %d", i)
	if n.Kind != yaml.MappingNode {
		return p, []error{fmt.Errorf("%s:%d: %s is not a mapping", source, n.Line, where)}
	}
	if name := value(n, "name"); name != nil && name.Kind == yaml.ScalarNode && name.Value != "" {
		where = fmt.Sprintf("page %d (%s)", i, name.Value)
	}
	errs := unknownKeys(source, n, pageKeys, where)
	if r := value(n, "result"); r != nil && r.Kind == yaml.MappingNode {
		errs = append(errs, unknownKeys(source, r, resultKeys, where+" result")...)
	}
	errs = append(errs, itemKeys(source, value(n, "reported"), reportedKeys, where+" reported")...)
	errs = append(errs, itemKeys(source, value(n, "realGaps"), realGapKeys, where+" realGaps")...)
	if err := n.Decode(&p); err != nil {
		return p, append(errs, yamlError(source, err))
	}
	p.Source = fmt.Sprintf("%s:%d", source, n.Line)
	return p, append(errs, p.check(source, where, n)...)
}

// check finds what a page must have: the fields to fetch it again and to
// score it, and labels from the protocol's three.
func (p Page) check(source, where string, n *yaml.Node) []error {
	var errs []error
	bad := func(key, format string, args ...any) {
		line := n.Line
		if v := value(n, key); v != nil {
			line = v.Line
		}
		errs = append(errs, fmt.Errorf("%s:%d: %s: %s", source, line, where, fmt.Sprintf(format, args...)))
	}
	switch {
	case p.Name == "":
		bad("name", "no name (its folder under the copies)")
	case !pageName.MatchString(p.Name):
		bad("name", "name %q: want lower-case letters, digits and dashes", p.Name)
	}
	if p.URL == "" {
		bad("url", "no url")
	}
	switch {
	case p.Repo == "":
		bad("repo", "no repo (OWNER/NAME)")
	case !repoName.MatchString(p.Repo):
		bad("repo", "repo %q: want OWNER/NAME", p.Repo)
	}
	switch {
	case p.Commit == "":
		bad("commit", "no commit")
	case !commitSHA.MatchString(p.Commit):
		bad("commit", "commit %q: want 40 lower-case hex digits", p.Commit)
	}
	if p.Path == "" {
		bad("path", "no path (the page's file in its repository)")
	}
	if p.ReaderCompletes == nil {
		bad("readerCompletes", "no readerCompletes (true or false)")
	}
	if p.Blocks < 0 || p.Exercised < 0 || p.Exercised > p.Blocks {
		bad("exercised", "exercised %d of %d blocks", p.Exercised, p.Blocks)
	}
	if p.Result.Status == "" {
		bad("result", "no result status")
	}
	for _, item := range p.itemErrors() {
		errs = append(errs, fmt.Errorf("%s: %s %s", item.at(source, n), where, item.text))
	}
	return errs
}

// itemError is a problem with one entry of reported or realGaps.
type itemError struct {
	key   string
	index int
	text  string
}

// at is the entry's file:line.
func (e itemError) at(source string, page *yaml.Node) string {
	line := page.Line
	if list := value(page, e.key); list != nil && list.Kind == yaml.SequenceNode && e.index < len(list.Content) {
		line = list.Content[e.index].Line
	}
	return fmt.Sprintf("%s:%d", source, line)
}

func (p Page) itemErrors() []itemError {
	var out []itemError
	for i, g := range p.Reported {
		add := func(format string, args ...any) {
			out = append(out, itemError{"reported", i, fmt.Sprintf("reported %d: "+format, append([]any{i + 1}, args...)...)})
		}
		if g.Line <= 0 {
			add("no line")
		}
		if g.Category == "" {
			add("no category")
		}
		switch g.Label {
		case LabelReal, LabelEnvironment, LabelWrong:
		case "":
			add("no label (real, environment or wrong)")
		default:
			add("bad label %q: want real, environment or wrong", g.Label)
		}
	}
	for i, g := range p.RealGaps {
		if g.Line <= 0 {
			out = append(out, itemError{"realGaps", i, fmt.Sprintf("realGaps %d: no line", i+1)})
		}
		for _, l := range g.AlsoLines {
			if l <= 0 {
				out = append(out, itemError{"realGaps", i, fmt.Sprintf("realGaps %d: alsoLines holds %d", i+1, l)})
			}
		}
	}
	return out
}

// Warnings are the page's inconsistencies that do not stop the scoring.
func (p Page) Warnings() []string {
	var out []string
	if p.Result.Gaps != len(p.Reported) {
		out = append(out, fmt.Sprintf("%s: %s: result says %d gaps, %d are judged under reported", p.Source, p.Name, p.Result.Gaps, len(p.Reported)))
	}
	judged := make([]Gap, len(p.Reported))
	for i, g := range p.Reported {
		judged[i] = Gap{Line: g.Line, Category: g.Category}
	}
	for _, g := range p.RealGaps {
		found := foundBy(g, judged)
		switch {
		case g.Found && !found:
			out = append(out, fmt.Sprintf("%s: %s: real gap at line %d says found, but no reported gap outside environment is at line %v (add the line to alsoLines?)", p.Source, p.Name, g.Line, g.Lines()))
		case !g.Found && found:
			out = append(out, fmt.Sprintf("%s: %s: real gap at line %d says not found, but a reported gap is at line %v: it counts as found", p.Source, p.Name, g.Line, g.Lines()))
		}
	}
	for _, g := range p.Reported {
		if g.Label == LabelReal && !p.knowsRealLine(g.Line) {
			out = append(out, fmt.Sprintf("%s: %s: the gap at line %d is labelled real but no real gap has that line (list it under realGaps, or in a gap's alsoLines)", p.Source, p.Name, g.Line))
		}
	}
	return out
}

func (p Page) knowsRealLine(line int) bool {
	for _, g := range p.RealGaps {
		if slices.Contains(g.Lines(), line) {
			return true
		}
	}
	return false
}

// value is the value of key in a mapping node, or nil.
func value(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// unknownKeys names each key of m that is not in known.
func unknownKeys(source string, m *yaml.Node, known []string, where string) []error {
	var errs []error
	for i := 0; i+1 < len(m.Content); i += 2 {
		k := m.Content[i]
		if !slices.Contains(known, k.Value) {
			errs = append(errs, fmt.Errorf("%s:%d: %s: unknown key %q (known: %s)", source, k.Line, where, k.Value, strings.Join(known, ", ")))
		}
	}
	return errs
}

// itemKeys checks the keys of every mapping in a list.
func itemKeys(source string, list *yaml.Node, known []string, where string) []error {
	if list == nil || list.Kind != yaml.SequenceNode {
		return nil
	}
	var errs []error
	for i, item := range list.Content {
		if item.Kind == yaml.MappingNode {
			errs = append(errs, unknownKeys(source, item, known, fmt.Sprintf("%s %d", where, i+1))...)
		}
	}
	return errs
}

// yamlError turns the library's "line N: problem" texts into
// "source:N: problem" lines.
func yamlError(source string, err error) error {
	var lines []string
	var te *yaml.TypeError
	if errors.As(err, &te) {
		lines = te.Errors
	} else {
		lines = []string{strings.TrimPrefix(err.Error(), "yaml: ")}
	}
	out := make([]string, 0, len(lines))
	for _, l := range lines {
		if m := yamlLine.FindStringSubmatch(strings.TrimSpace(l)); m != nil {
			out = append(out, fmt.Sprintf("%s:%s: invalid YAML: %s", source, m[1], m[2]))
			continue
		}
		out = append(out, fmt.Sprintf("%s: invalid YAML: %s", source, l))
	}
	return errors.New(strings.Join(out, "\n"))
}
