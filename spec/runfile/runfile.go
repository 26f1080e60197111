// Package runfile reads SmileRun manifests (run.yaml) from YAML or JSON, one
// or several per file (YAML documents separated by `---`). It is the only
// package of the spec side that imports a YAML library, so the in-container
// wrapper, which needs spec's settings but never a manifest, links none.
//
// Errors name the file, and the line and column when the YAML has one for
// them: "run.yaml:7:3: spec.maxIterations must be an integer, got string".
package runfile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/smile-loop/smile/spec"
)

// Doc is one SmileRun of a file and where its document starts.
type Doc struct {
	Run *spec.SmileRun
	// Line is the 1-based line of the document's first content.
	Line int
}

// Parse decodes the one SmileRun of data (YAML or JSON) and checks its shape;
// every error starts with source. Data holding several manifests is refused:
// ParseAll reads those.
func Parse(data []byte, source string) (*spec.SmileRun, error) {
	docs, err := ParseAll(data, source)
	if err != nil {
		return nil, err
	}
	if len(docs) > 1 {
		return nil, fmt.Errorf("%s: holds %d manifests (YAML documents), expected one", source, len(docs))
	}
	return docs[0].Run, nil
}

// ParseAll decodes every SmileRun of data, in order. Empty documents (a
// leading or trailing `---`, comments only) are skipped; data with no
// manifest at all is an error, as is a name used twice.
func ParseAll(data []byte, source string) ([]Doc, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var docs []Doc
	seen := map[string]int{}
	for {
		var node yaml.Node
		err := dec.Decode(&node)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, tabError(source, data, syntaxError(source, err))
		}
		if len(node.Content) == 0 || isNull(node.Content[0]) {
			continue
		}
		run, err := decodeDoc(&node, source)
		if err != nil {
			return nil, err
		}
		root := node.Content[0]
		if line, dup := seen[run.Metadata.Name]; dup {
			return nil, fmt.Errorf("%s:%d:%d: metadata.name %q is used by the manifest at line %d too", source, root.Line, root.Column, run.Metadata.Name, line)
		}
		seen[run.Metadata.Name] = root.Line
		docs = append(docs, Doc{Run: run, Line: root.Line})
	}
	if len(docs) == 0 {
		return nil, fmt.Errorf("%s: empty manifest", source)
	}
	return docs, nil
}

// Load reads and parses a manifest file holding one SmileRun.
func Load(path string) (*spec.SmileRun, error) {
	data, err := spec.ReadRegularFile(path)
	if err != nil {
		return nil, fmt.Errorf("read manifest: %w", err)
	}
	return Parse(data, path)
}

// LoadAll reads every SmileRun of a manifest file.
func LoadAll(path string) ([]Doc, error) {
	data, err := spec.ReadRegularFile(path)
	if err != nil {
		return nil, fmt.Errorf("read manifest: %w", err)
	}
	return ParseAll(data, path)
}

// LoadNamed reads the SmileRun called name from a manifest file; an empty
// name asks for the file's only one (as Load). A file holding one SmileRun
// gives it whatever its name (the caller sees a rename).
func LoadNamed(path, name string) (*spec.SmileRun, error) {
	if name == "" {
		return Load(path)
	}
	docs, err := LoadAll(path)
	if err != nil {
		return nil, err
	}
	for _, d := range docs {
		if d.Run.Metadata.Name == name || len(docs) == 1 {
			return d.Run, nil
		}
	}
	return nil, fmt.Errorf("%s: no SmileRun named %q", path, name)
}

func isNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.Tag == "!!null"
}

// decodeDoc turns one YAML document into JSON for spec.DecodeManifest (one
// decoder and one set of messages for JSON and YAML), then puts the position
// of the field each error names in front of it.
func decodeDoc(node *yaml.Node, source string) (*spec.SmileRun, error) {
	var v any
	if err := node.Decode(&v); err != nil {
		return nil, syntaxError(source, err)
	}
	js, err := json.Marshal(jsonValue(v))
	if err != nil {
		root := node.Content[0]
		return nil, fmt.Errorf("%s:%d:%d: %v", source, root.Line, root.Column, err)
	}
	run, err := spec.DecodeManifest(js, source)
	if err != nil {
		return nil, &posError{msg: locate(err.Error(), source, positions(node.Content[0])), err: err}
	}
	return run, nil
}

// jsonValue makes a decoded YAML value encodable as JSON: mappings with keys
// that are not strings get their keys written out.
func jsonValue(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			t[k] = jsonValue(e)
		}
	case map[any]any:
		m := make(map[string]any, len(t))
		for k, e := range t {
			m[fmt.Sprint(k)] = jsonValue(e)
		}
		return m
	case []any:
		for i, e := range t {
			t[i] = jsonValue(e)
		}
	}
	return v
}

// posError is spec's error with positions added to its text; errors.As still
// finds spec's typed errors (such as *spec.EnumError) behind it.
type posError struct {
	msg string
	err error
}

func (e *posError) Error() string { return e.msg }
func (e *posError) Unwrap() error { return e.err }

type pos struct{ line, col int }

// positions maps each field path of a document ("spec",
// "spec.studentBehavior.patienceLevel") to its key's position.
func positions(root *yaml.Node) map[string]pos {
	out := map[string]pos{}
	var walk func(prefix string, n *yaml.Node)
	walk = func(prefix string, n *yaml.Node) {
		if n.Kind == yaml.AliasNode && n.Alias != nil {
			n = n.Alias
		}
		if n.Kind != yaml.MappingNode {
			return
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			path := k.Value
			if prefix != "" {
				path = prefix + "." + k.Value
			}
			if _, ok := out[path]; !ok {
				out[path] = pos{k.Line, k.Column}
			}
			walk(path, n.Content[i+1])
		}
	}
	walk("", root)
	return out
}

// fieldPath finds the field paths an error line names: a dotted path of
// identifiers, bare or quoted.
var fieldPath = regexp.MustCompile(`[A-Za-z][A-Za-z0-9_]*(?:\.[A-Za-z][A-Za-z0-9_]*)*`)

// locate rewrites spec's "source: a\nb" into one "source:line:col: a" line per
// error, at the field each names (see fieldIn); a line naming none keeps
// "source: ".
func locate(msg, source string, at map[string]pos) string {
	lines := strings.Split(strings.TrimPrefix(msg, source+": "), "\n")
	for i, l := range lines {
		if p, ok := at[fieldIn(l, at)]; ok {
			lines[i] = fmt.Sprintf("%s:%d:%d: %s", source, p.line, p.col, l)
		} else {
			lines[i] = source + ": " + l
		}
	}
	return strings.Join(lines, "\n")
}

// fieldIn is the longest field path of the document an error line names
// ("spec.maxIterations" rather than "spec"); an unknown "spec.a.b" is found at
// spec.a when b is absent. A bare word counts only when it is one of a
// manifest's own fields or quoted, so "must be" never matches a key by chance.
func fieldIn(line string, at map[string]pos) string {
	best := ""
	for _, loc := range fieldPath.FindAllStringIndex(line, -1) {
		m := line[loc[0]:loc[1]]
		quoted := loc[0] > 0 && line[loc[0]-1] == '"'
		for p := m; p != ""; p = parentPath(p) {
			if _, ok := at[p]; !ok {
				continue
			}
			if (strings.Contains(p, ".") || isTopField(p) || quoted) && len(p) > len(best) {
				best = p
			}
			break
		}
	}
	return best
}

// isTopField: the top-level fields of a manifest.
func isTopField(p string) bool {
	switch p {
	case "apiVersion", "kind", "metadata", "spec", "status":
		return true
	}
	return false
}

func parentPath(p string) string {
	i := strings.LastIndexByte(p, '.')
	if i < 0 {
		return ""
	}
	return p[:i]
}

// yamlLine matches the library's "line N: problem" texts.
var yamlLine = regexp.MustCompile(`^line (\d+): (.*)$`)

// syntaxError turns the YAML library's errors into "source:line: invalid
// YAML: problem" lines (its syntax errors carry a line, no column).
func syntaxError(source string, err error) error {
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
			n, _ := strconv.Atoi(m[1])
			out = append(out, fmt.Sprintf("%s:%d: invalid YAML: %s", source, n, m[2]))
			continue
		}
		out = append(out, fmt.Sprintf("%s: invalid YAML: %s", source, l))
	}
	return errors.New(strings.Join(out, "\n"))
}

// tabToken is the library's error for a character no token starts with; in a
// manifest it is nearly always a tab, which it does not name.
const tabToken = "found character that cannot start any token"

// tabError names the tab behind the library's tabToken error: the line and
// column of the first indenting tab near the line the library gives (its line can be
// one off), and that YAML indents with spaces. Other errors pass unchanged.
func tabError(source string, data []byte, err error) error {
	msg := err.Error()
	m := regexp.MustCompile(`^` + regexp.QuoteMeta(source) + `:(\d+): invalid YAML: ` + tabToken + `$`).FindStringSubmatch(msg)
	if m == nil {
		return err
	}
	n, _ := strconv.Atoi(m[1])
	lines := strings.Split(string(data), "\n")
	for _, cand := range []int{n, n + 1, n - 1} {
		if cand < 1 || cand > len(lines) {
			continue
		}
		// Only a tab in the indentation: one inside a line can be legal
		// (in a flow sequence, a quoted string) and the error elsewhere.
		text := lines[cand-1]
		indent := text[:len(text)-len(strings.TrimLeft(text, " \t"))]
		if col := strings.IndexByte(indent, '\t'); col >= 0 {
			return fmt.Errorf("%s:%d:%d: invalid YAML: a tab indents this line; YAML indents with spaces only", source, cand, col+1)
		}
	}
	return err
}
