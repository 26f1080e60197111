package spec

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/smile-loop/smile/spec/markdown"
)

// An Annotation is an instruction a page's author wrote for SMILE, invisible
// where the page is rendered: an HTML comment before a code block or around
// a region (`<!-- smile: skip -->`, `<!-- smile: file=app.py append -->`), or
// an attribute in a code block's info string (```` ```sh {smile-skip} ````, and
// Runme's `excludeFromRunAll`, `cwd` and `background`). An annotation always
// wins over what the reader would infer from the prose.
type Annotation struct {
	// Line and Col are where the key is written, for errors and the plan.
	Line, Col int
	Key       string // one of AnnotationKeys
	Value     string // "" for a flag
	// Block is the first line of the code block the annotation applies to,
	// 0 for a region's start or end.
	Block int
}

// The keys an annotation may use.
const (
	AnnotateSkip       = "skip"       // do not run or compare the block
	AnnotateSkipStart  = "skip-start" // skip every block up to skip-end
	AnnotateSkipEnd    = "skip-end"
	AnnotateFile       = "file"       // the block is this file's content (value: its path)
	AnnotateAppend     = "append"     // with file: appended, not replacing
	AnnotateOutput     = "output"     // the block is the previous command's output
	AnnotateExit       = "exit"       // the block's commands end with this exit code
	AnnotateStdin      = "stdin"      // the block is typed into the previous command
	AnnotateRunIn      = "run-in"     // the block is typed into this program (value: its command line)
	AnnotateCwd        = "cwd"        // the block runs in this folder
	AnnotateBackground = "background" // the block starts something that keeps running
	AnnotateReady      = "ready"      // with background: a port, a URL, or the output that says it is up
	AnnotateTimeout    = "timeout"    // seconds the block's commands may take
)

// annotationKeys says which keys take a value ("=...") and which are flags.
var annotationKeys = map[string]bool{
	AnnotateSkip: false, AnnotateSkipStart: false, AnnotateSkipEnd: false, AnnotateFile: true,
	AnnotateAppend: false, AnnotateOutput: false, AnnotateExit: true, AnnotateStdin: false,
	AnnotateRunIn: true, AnnotateCwd: true, AnnotateBackground: false, AnnotateReady: true, AnnotateTimeout: true,
}

// AnnotationKeys lists the keys an annotation may use, sorted.
func AnnotationKeys() []string {
	keys := make([]string, 0, len(annotationKeys))
	for k := range annotationKeys {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// ErrAnnotation wraps every error in a page's annotations.
var ErrAnnotation = errors.New("smile annotation")

var (
	// smileComment is an HTML comment addressed to SMILE, however spaced.
	smileComment = regexp.MustCompile(`<!--\s*smile\b(:?)([\s\S]*?)-->`)
	// runmeAttrs are Runme's info-string attributes that mean what ours do.
	runmeAttrs = map[string]string{"excludefromrunall": AnnotateSkip, "cwd": AnnotateCwd, "background": AnnotateBackground}
)

// ParseAnnotations reads every annotation of a parsed page, checks it, and
// ties it to the code block it applies to. path names the page in errors,
// which carry file:line:col and, for an unknown key, the nearest known one.
func ParseAnnotations(path, content string, blocks []markdown.Block) ([]Annotation, error) {
	var out []Annotation
	var errs []error
	fail := func(line, col int, format string, args ...any) {
		errs = append(errs, fmt.Errorf("%s:%d:%d: %w: %s", path, line, col, ErrAnnotation, fmt.Sprintf(format, args...)))
	}
	pending := []Annotation{} // comment annotations waiting for their block
	regionStart := 0
	for _, b := range blocks {
		switch b.Kind {
		case markdown.BlockHTML:
			for _, a := range commentAnnotations(b, content, fail) {
				switch a.Key {
				case AnnotateSkipStart:
					if regionStart > 0 {
						fail(a.Line, a.Col, "skip-start inside the region already opened at line %d", regionStart)
					}
					regionStart = a.Line
					out = append(out, a)
				case AnnotateSkipEnd:
					if regionStart == 0 {
						fail(a.Line, a.Col, "skip-end without a skip-start before it")
					}
					regionStart = 0
					out = append(out, a)
				default:
					pending = append(pending, a)
				}
			}
		case markdown.BlockHeading:
			for _, a := range pending {
				fail(a.Line, a.Col, "%q annotates no code block: the heading at line %d comes first", a.Key, b.Line)
			}
			pending = pending[:0]
		case markdown.BlockCode:
			for _, a := range append(pending, infoAnnotations(b, fail)...) {
				a.Block = b.Line
				out = append(out, a)
			}
			if regionStart > 0 {
				out = append(out, Annotation{Line: regionStart, Key: AnnotateSkip, Block: b.Line})
			}
			pending = pending[:0]
		}
	}
	for _, a := range pending {
		fail(a.Line, a.Col, "%q annotates no code block: none follows it", a.Key)
	}
	if regionStart > 0 {
		fail(regionStart, 1, "skip-start has no skip-end")
	}
	checkCombinations(out, fail)
	return out, errors.Join(errs...)
}

// commentAnnotations reads the `<!-- smile: ... -->` comments of an HTML
// block. A comment that starts with "smile" but not "smile:" is an error, not
// a comment to ignore: its author meant SMILE to read it.
func commentAnnotations(b markdown.Block, content string, fail func(int, int, string, ...any)) []Annotation {
	var out []Annotation
	for _, m := range smileComment.FindAllStringSubmatchIndex(b.Text, -1) {
		line := b.Line + strings.Count(b.Text[:m[0]], "\n")
		col := columnOf(content, line, b.Text[m[0]:m[1]])
		if m[2] == m[3] { // no colon
			fail(line, col, "write `<!-- smile: KEY -->` (a colon after smile)")
			continue
		}
		body := b.Text[m[4]:m[5]]
		offset := col + (m[4] - m[0])
		for _, tok := range tokens(body) {
			tokLine := line + strings.Count(body[:tok.at], "\n")
			tokCol := offset + tok.at
			if tokLine != line {
				tokCol = tok.at - strings.LastIndexByte(body[:tok.at], '\n')
			}
			if a, ok := checkAnnotation(tok.key, tok.value, tok.hasValue, tokLine, tokCol, fail); ok {
				out = append(out, a)
			}
		}
	}
	return out
}

// infoAnnotations reads a code block's info string: `smile-KEY[=VALUE]`
// attributes, and Runme's that mean the same. Other tools' attributes
// (title, linenos) are not ours and are left alone.
func infoAnnotations(b markdown.Block, fail func(int, int, string, ...any)) []Annotation {
	var out []Annotation
	info := strings.NewReplacer("{", " ", "}", " ", ",", " ").Replace(jsonAttributes(b.Info))
	for _, tok := range tokens(info) {
		key := strings.ToLower(tok.key)
		switch {
		case strings.HasPrefix(key, "smile-"):
			if a, ok := checkAnnotation(strings.TrimPrefix(key, "smile-"), tok.value, tok.hasValue, b.Line, 1, fail); ok {
				out = append(out, a)
			}
		case runmeAttrs[key] != "":
			if tok.hasValue && (strings.EqualFold(tok.value, "false") || tok.value == "") {
				continue
			}
			a := Annotation{Line: b.Line, Col: 1, Key: runmeAttrs[key]}
			if a.Key == AnnotateCwd {
				a.Value = tok.value
			}
			out = append(out, a)
		}
	}
	return out
}

// checkAnnotation checks one key and its value.
func checkAnnotation(key, value string, hasValue bool, line, col int, fail func(int, int, string, ...any)) (Annotation, bool) {
	takesValue, known := annotationKeys[key]
	switch {
	case !known:
		if hint := Nearest(key, AnnotationKeys()); hint != "" {
			fail(line, col, "unknown annotation %q (did you mean %q?)", key, hint)
		} else {
			fail(line, col, "unknown annotation %q (known: %s)", key, strings.Join(AnnotationKeys(), ", "))
		}
		return Annotation{}, false
	case takesValue && (!hasValue || value == ""):
		fail(line, col, "%s needs a value: %s=...", key, key)
		return Annotation{}, false
	case !takesValue && hasValue:
		fail(line, col, "%s takes no value", key)
		return Annotation{}, false
	}
	switch key {
	case AnnotateExit:
		if n, err := strconv.Atoi(value); err != nil || n < 0 || n > 255 {
			fail(line, col, "exit must be an exit code from 0 to 255, got %q", value)
			return Annotation{}, false
		}
	case AnnotateTimeout:
		if n, err := strconv.Atoi(value); err != nil || n <= 0 {
			fail(line, col, "timeout must be a whole number of seconds, got %q", value)
			return Annotation{}, false
		}
	}
	return Annotation{Line: line, Col: col, Key: key, Value: value}, true
}

// checkCombinations refuses annotations of one block that contradict each
// other, or need a partner they lack.
func checkCombinations(anns []Annotation, fail func(int, int, string, ...any)) {
	byBlock := map[int]map[string]Annotation{}
	for _, a := range anns {
		if a.Block == 0 {
			continue
		}
		if byBlock[a.Block] == nil {
			byBlock[a.Block] = map[string]Annotation{}
		}
		byBlock[a.Block][a.Key] = a
	}
	what := []string{AnnotateFile, AnnotateOutput, AnnotateStdin, AnnotateRunIn, AnnotateSkip}
	for _, keys := range byBlock {
		var set []Annotation
		for _, k := range what {
			if a, ok := keys[k]; ok {
				set = append(set, a)
			}
		}
		if len(set) > 1 {
			fail(set[1].Line, set[1].Col, "%s and %s say different things about one block: keep one", set[0].Key, set[1].Key)
		}
		if a, ok := keys[AnnotateAppend]; ok && keys[AnnotateFile].Key == "" {
			fail(a.Line, a.Col, "append goes with file=PATH")
		}
		if a, ok := keys[AnnotateReady]; ok && keys[AnnotateBackground].Key == "" {
			fail(a.Line, a.Col, "ready goes with background")
		} else if _, err := ParseReady(a.Value); ok && err != nil {
			fail(a.Line, a.Col, "%v", err)
		}
	}
}

// token is one `key`, `key=value` or `key="a value"` of an annotation.
type token struct {
	key, value string
	hasValue   bool
	at         int // byte offset in the text it was read from
}

// tokens splits an annotation's text into its keys and values; a value may
// be quoted with " or ' to hold spaces.
func tokens(s string) []token {
	var out []token
	i := 0
	for i < len(s) {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
			i++
		}
		if i >= len(s) {
			break
		}
		t := token{at: i}
		start := i
		for i < len(s) && s[i] != '=' && s[i] != ' ' && s[i] != '\t' && s[i] != '\n' {
			i++
		}
		t.key = s[start:i]
		if i < len(s) && s[i] == '=' {
			t.hasValue = true
			i++
			if i < len(s) && (s[i] == '"' || s[i] == '\'') {
				q := s[i]
				end := strings.IndexByte(s[i+1:], q)
				if end < 0 {
					end = len(s) - i - 1
				}
				t.value = s[i+1 : i+1+end]
				i += end + 2
			} else {
				vs := i
				for i < len(s) && s[i] != ' ' && s[i] != '\t' && s[i] != '\n' {
					i++
				}
				t.value = s[vs:i]
			}
		}
		out = append(out, t)
	}
	return out
}

// columnOf is the 1-based column where text starts on a line of content.
func columnOf(content string, line int, text string) int {
	if i := strings.Index(LineText(content, line), strings.SplitN(text, "\n", 2)[0]); i >= 0 {
		return i + 1
	}
	return 1
}

// Ready is what a background block's ready annotation waits for: a port in
// the container that accepts connections (`ready=port:8080`), a URL that
// answers (`ready=http://localhost:8080/health`), or the output that says
// it is up (any other text).
type Ready struct {
	Port   int
	URL    string
	Output string
}

// ParseReady reads a ready annotation's value.
func ParseReady(v string) (Ready, error) {
	v = strings.TrimSpace(v)
	switch {
	case strings.HasPrefix(v, "port:"):
		p, err := strconv.Atoi(strings.TrimPrefix(v, "port:"))
		if err != nil || p < 1 || p > 65535 {
			return Ready{}, fmt.Errorf("ready=%s: a port is a number from 1 to 65535 (ready=port:8080)", v)
		}
		return Ready{Port: p}, nil
	case strings.HasPrefix(v, "http://") || strings.HasPrefix(v, "https://"):
		u, err := url.Parse(v)
		if err != nil || u.Host == "" {
			return Ready{}, fmt.Errorf("ready=%s: not a URL the container can ask (ready=http://localhost:8080/)", v)
		}
		return Ready{URL: v}, nil
	}
	return Ready{Output: v}, nil
}

// jsonAttrs is an info string's attributes written as a JSON object, as
// Runme writes them (```sh {"name":"build","excludeFromRunAll":"true"}).
var jsonAttrs = regexp.MustCompile(`\{\s*"[^{}]*\}`)

// jsonAttributes rewrites a JSON object of attributes in an info string as
// key=value words, the form the rest of the reading takes; an info string
// without one is returned as it is.
func jsonAttributes(info string) string {
	loc := jsonAttrs.FindStringIndex(info)
	if loc == nil {
		return info
	}
	var attrs map[string]any
	if err := json.Unmarshal([]byte(info[loc[0]:loc[1]]), &attrs); err != nil {
		return info
	}
	keys := make([]string, 0, len(attrs))
	for k := range attrs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	words := make([]string, 0, len(keys))
	for _, k := range keys {
		v := fmt.Sprint(attrs[k])
		if strings.ContainsAny(v, " \t'") {
			v = `"` + v + `"`
		} else if strings.Contains(v, `"`) {
			v = "'" + v + "'"
		}
		words = append(words, k+"="+v)
	}
	return info[:loc[0]] + strings.Join(words, " ") + info[loc[1]:]
}
