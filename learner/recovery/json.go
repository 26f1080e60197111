package recovery

import (
	"bytes"
	"encoding/json"
	"errors"
	"sort"
	"strings"
)

// ErrNoObject means the text holds no JSON object that could be read.
var ErrNoObject = errors.New("no JSON object found in the output")

// Method says how an object was recovered, for the audit log.
type Method string

// The ways an object is found, from the cleanest.
const (
	MethodWhole     Method = "whole"     // the text is the object
	MethodFence     Method = "fence"     // inside a ``` code fence
	MethodEmbedded  Method = "embedded"  // between prose
	MethodLenient   Method = "lenient"   // after fixing trailing commas, literals, raw newlines
	MethodTruncated Method = "truncated" // cut off; the open strings and brackets were closed
	MethodEncoded   Method = "encoded"   // a JSON string holding the object
)

// Object returns the object in text that accept likes best: the last one
// accept takes, trying the whole text, then fenced blocks, then every
// balanced object in the text, then lenient and truncated repairs. accept
// may be nil (any object).
func Object(text string, accept func(map[string]any) bool) (map[string]any, Method, error) {
	obj, method, _, err := find(text, accept)
	return obj, method, err
}

// find is Object that also returns the first object it decoded and accept
// rejected, so a caller can say why nothing fit without a second search.
func find(text string, accept func(map[string]any) bool) (map[string]any, Method, map[string]any, error) {
	if accept == nil {
		accept = func(map[string]any) bool { return true }
	}
	text = strings.TrimPrefix(strings.TrimSpace(text), "\ufeff")
	if text == "" {
		return nil, "", nil, ErrNoObject
	}
	// Objects that decode but the caller rejects: an answer may be wrapped
	// in one ({"result": {...}}), looked for inside them before repairs.
	var rejected []map[string]any
	take := func(obj map[string]any, ok bool) bool {
		if ok && !accept(obj) {
			rejected = append(rejected, obj)
		}
		return ok && accept(obj)
	}
	if obj, ok := decodeObject(text); take(obj, ok) {
		return obj, MethodWhole, nil, nil
	}
	if obj, ok := decodeEncoded(text); take(obj, ok) {
		return obj, MethodEncoded, nil, nil
	}
	// Fenced blocks: the last one the caller accepts (a model that shows an
	// example first gives its answer last).
	fences := lastN(fencedBlocks(text), maxCandidates)
	for i := len(fences) - 1; i >= 0; i-- {
		if obj, ok := decodeObject(fences[i]); take(obj, ok) {
			return obj, MethodFence, nil, nil
		}
	}
	// Balanced objects anywhere, the last accepted one first.
	spans := lastN(balancedObjects(text), maxCandidates)
	for i := len(spans) - 1; i >= 0; i-- {
		if obj, ok := decodeObject(spans[i]); take(obj, ok) {
			return obj, MethodEmbedded, nil, nil
		}
	}
	for _, outer := range rejected {
		if obj := nested(outer, accept); obj != nil {
			return obj, MethodEmbedded, nil, nil
		}
	}
	for _, f := range append(append([]string{}, fences...), spans...) {
		if obj, ok := decodeObject(lenient(f)); take(obj, ok) {
			return obj, MethodLenient, nil, nil
		}
	}
	// Cut off: inside the last fence first (its closing fence is missing or
	// the object in it is incomplete), then from every place an object may
	// start.
	for i := len(fences) - 1; i >= 0; i-- {
		for _, start := range truncatedStarts(fences[i]) {
			if obj, ok := decodeObject(lenient(closeTruncated(fences[i][start:]))); take(obj, ok) {
				return obj, MethodTruncated, nil, nil
			}
		}
	}
	for _, start := range truncatedStarts(text) {
		if obj, ok := decodeObject(lenient(closeTruncated(text[start:]))); take(obj, ok) {
			return obj, MethodTruncated, nil, nil
		}
	}
	for _, outer := range rejected {
		if obj := nested(outer, accept); obj != nil {
			return obj, MethodTruncated, nil, nil
		}
	}
	return nil, "", first(rejected), ErrNoObject
}

// first is the first of objs, or nil.
func first(objs []map[string]any) map[string]any {
	if len(objs) == 0 {
		return nil
	}
	return objs[0]
}

// maxCandidates bounds the fenced blocks and embedded objects tried: an
// answer comes last and a model writes a few examples, not thousands, while
// decoding every one of a megabyte of tiny objects took seconds.
const maxCandidates = 16

// lastN returns the last n of xs.
func lastN(xs []string, n int) []string {
	if len(xs) > n {
		return xs[len(xs)-n:]
	}
	return xs
}

// nested returns the first object inside v (depth first, v itself
// excluded) that accept takes, or nil. It visits each value once.
func nested(v any, accept func(map[string]any) bool) map[string]any {
	var children []any
	switch v := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys) // a stable choice when two would do
		for _, k := range keys {
			children = append(children, v[k])
		}
	case []any:
		children = v
	}
	for _, c := range children {
		if m, ok := c.(map[string]any); ok && accept(m) {
			return m
		}
		if m := nested(c, accept); m != nil {
			return m
		}
	}
	return nil
}

func decodeObject(s string) (map[string]any, bool) {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "{") {
		return nil, false
	}
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var obj map[string]any
	if err := dec.Decode(&obj); err != nil || obj == nil {
		return nil, false
	}
	// Only white space may follow the object.
	var rest json.RawMessage
	if err := dec.Decode(&rest); err == nil {
		return nil, false
	}
	return obj, true
}

// decodeEncoded reads a JSON string whose content is the object (a tool that
// printed the answer json-encoded twice).
func decodeEncoded(s string) (map[string]any, bool) {
	if !strings.HasPrefix(s, `"`) {
		return nil, false
	}
	var inner string
	if err := json.Unmarshal([]byte(s), &inner); err != nil {
		return nil, false
	}
	return decodeObject(inner)
}

// openingFence finds the first line of text that opens a fence (three or
// more backticks or tildes after blanks) and returns the fence and the
// offset just past that line, or "", -1. The closing fence is matched by
// hand too: a regexp counting the fence's length panicked past the engine's
// 1000-repeat limit, and a fence may be any length.
func openingFence(text string) (string, int) {
	for pos := 0; pos < len(text); {
		eol := strings.IndexByte(text[pos:], '\n')
		lineEnd := len(text)
		if eol >= 0 {
			lineEnd = pos + eol
		}
		line := strings.TrimLeft(text[pos:lineEnd], " \t")
		if n := fenceRun(line); n >= 3 {
			return line[:n], lineEnd
		}
		pos = lineEnd + 1
	}
	return "", -1
}

// fenceRun is how many backticks or tildes line starts with.
func fenceRun(line string) int {
	if line == "" || line[0] != '`' && line[0] != '~' {
		return 0
	}
	n := 0
	for n < len(line) && line[n] == line[0] {
		n++
	}
	return n
}

// fencedBlocks returns the content of every fenced code block, in order. An
// unclosed fence runs to the end of the text (a truncated answer).
func fencedBlocks(text string) []string {
	var out []string
	rest := text
	for {
		fence, end := openingFence(rest)
		if end < 0 {
			return out
		}
		body := strings.TrimPrefix(rest[end:], "\n")
		start, end := closingFence(body, fence[0], len(fence))
		if start < 0 {
			return append(out, body)
		}
		out = append(out, body[:start])
		rest = body[end:]
	}
}

// closingFence returns where the first line closing a fence of n chars c
// starts and ends in body, or -1, -1. It looks at each line once.
func closingFence(body string, c byte, n int) (int, int) {
	for pos := 0; pos <= len(body); {
		eol := strings.IndexByte(body[pos:], '\n')
		lineEnd := len(body)
		if eol >= 0 {
			lineEnd = pos + eol
		}
		if closesFence(body[pos:lineEnd], c, n) {
			return pos, lineEnd
		}
		if eol < 0 {
			break
		}
		pos = lineEnd + 1
	}
	return -1, -1
}

// closesFence: line is at least n chars c, with only blanks around them.
func closesFence(line string, c byte, n int) bool {
	line = strings.Trim(line, " \t\r")
	if len(line) < n {
		return false
	}
	for i := 0; i < len(line); i++ {
		if line[i] != c {
			return false
		}
	}
	return true
}

// braceMatches scans text once and returns the offset of each opening
// brace or bracket it saw outside a string, in order, and for each the
// offset just past the bracket closing it (-1 when none does). Quotes count
// only inside brackets: prose around an answer may hold a stray one. One
// pass keeps recovery linear where matching from every brace was quadratic
// on unclosed input.
func braceMatches(text string) (openers, ends []int) {
	var stack []int // indexes into openers
	var str jsonString
	for i := 0; i < len(text); i++ {
		c := text[i]
		if str.consume(c) {
			continue
		}
		switch {
		case c == '"' && len(stack) > 0:
			str.in = true
		case c == '{' || c == '[':
			stack = append(stack, len(openers))
			openers = append(openers, i)
			ends = append(ends, -1)
		case (c == '}' || c == ']') && len(stack) > 0:
			ends[stack[len(stack)-1]] = i + 1
			stack = stack[:len(stack)-1]
		}
	}
	return openers, ends
}

// balancedObjects returns every top-level {...} span whose braces balance,
// skipping braces inside JSON strings. An opener that never closes is passed
// over and the openers inside it are tried.
func balancedObjects(text string) []string {
	openers, ends := braceMatches(text)
	var out []string
	next := 0
	for k, i := range openers {
		if i < next || text[i] != '{' || ends[k] < 0 {
			continue
		}
		out = append(out, text[i:ends[k]])
		next = ends[k]
	}
	return out
}

// truncatedStarts are the offsets of the '{' that may open a cut-off answer:
// a brace followed (after spaces) by a key that no bracket closes. Unclosed
// objects nest (each runs to the end of the text), so only two are tried:
// the outermost, whose repair holds the others (nested searches them), and
// the innermost, for when the outer one cannot be repaired. Each repair
// reads to the end of the text: trying every one was quadratic (a megabyte
// of `{"a":` took minutes).
func truncatedStarts(text string) []int {
	openers, ends := braceMatches(text)
	var out []int
	for k, i := range openers {
		if text[i] == '{' && ends[k] < 0 && keyAfterBrace(text[i+1:]) {
			if len(out) < 2 {
				out = append(out, i)
			} else {
				out[1] = i
			}
		}
	}
	return out
}

// keyAfterBrace: s (what follows a brace) starts, after blanks, with a key:
// an optional quote and a letter or underscore.
func keyAfterBrace(s string) bool {
	s = strings.TrimLeft(s, " \t\r\n")
	if s != "" && (s[0] == '"' || s[0] == '\'') {
		s = s[1:]
	}
	return s != "" && (s[0] == '_' || s[0] >= 'a' && s[0] <= 'z' || s[0] >= 'A' && s[0] <= 'Z')
}

// jsonString follows whether a byte-by-byte scan is inside a JSON string.
type jsonString struct{ in, esc bool }

// consume takes c when it belongs to an open string (a character, an escape,
// the closing quote) and says so; the opening quote is the caller's to see.
func (s *jsonString) consume(c byte) bool {
	switch {
	case !s.in:
		return false
	case s.esc:
		s.esc = false
	case c == '\\':
		s.esc = true
	case c == '"':
		s.in = false
	}
	return true
}

// closeTruncated closes a JSON object that was cut off: it ends an open
// string, drops a dangling key, colon or comma, and closes every open
// bracket in order. Text after the object's end is dropped.
func closeTruncated(s string) string {
	var stack []byte
	var str jsonString
	for i := 0; i < len(s); i++ {
		c := s[i]
		if str.consume(c) {
			continue
		}
		switch {
		case c == '"':
			str.in = true
		case c == '{' || c == '[':
			stack = append(stack, c)
		case c == '}' || c == ']':
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
			if len(stack) == 0 {
				return s[:i+1] // complete after all
			}
		}
	}
	out := s
	if str.in {
		if str.esc {
			out = out[:len(out)-1] // a lone backslash cannot end a string
		}
		out += `"`
	}
	out = dropDangling(out, len(stack) > 0 && stack[len(stack)-1] == '[')
	// One builder: appending a closer at a time copied the text once per
	// open bracket.
	var b strings.Builder
	b.Grow(len(out) + len(stack))
	b.WriteString(out)
	for i := len(stack) - 1; i >= 0; i-- {
		if stack[i] == '{' {
			b.WriteByte('}')
		} else {
			b.WriteByte(']')
		}
	}
	return b.String()
}

// dropDangling removes what cannot end an object: a trailing comma, a key
// without a value ("key" or "key":), or a bare literal cut short (tru).
// inArray says the innermost open bracket is an array's, whose strings are
// values, not keys.
func dropDangling(s string, inArray bool) string {
	for {
		t := strings.TrimRight(s, " \t\r\n")
		switch {
		case strings.HasSuffix(t, ","):
			s = t[:len(t)-1]
			continue
		case strings.HasSuffix(t, ":"):
			// Drop the key before the colon.
			k := strings.TrimRight(t[:len(t)-1], " \t\r\n")
			if q := lastStringStart(k); q >= 0 {
				s = k[:q]
				continue
			}
			return t
		}
		// A key with no colon: `{"a": 1, "b"`. A string after a comma or an
		// opening brace is a key.
		if strings.HasSuffix(t, `"`) && !inArray {
			if q := lastStringStart(t[:len(t)-1] + `"`); q >= 0 {
				before := strings.TrimRight(t[:q], " \t\r\n")
				if strings.HasSuffix(before, ",") || strings.HasSuffix(before, "{") {
					if strings.HasSuffix(before, "{") {
						return before
					}
					s = before
					continue
				}
			}
			return t
		}
		// A literal cut short: true, false, null, or a number ending in '.'
		// or 'e' or '-'.
		if i := strings.LastIndexAny(t, ",:[{"); i >= 0 {
			tail := strings.TrimSpace(t[i+1:])
			if tail != "" && isLiteral(tail) && !validScalar(tail) {
				s = t[:i+1]
				if t[i] == ':' {
					s = t[:i+1] + " null"
					return s
				}
				continue
			}
		}
		return t
	}
}

// isLiteral: s could be (the start of) true, false, null or a number.
func isLiteral(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isIdent(s[i]) && !strings.ContainsRune(".+-", rune(s[i])) {
			return false
		}
	}
	return true
}

func validScalar(s string) bool {
	var v any
	return json.Unmarshal([]byte(s), &v) == nil
}

// lastStringStart returns the index of the quote opening the string that
// ends s (s ends with a closing quote), or -1.
func lastStringStart(s string) int {
	if !strings.HasSuffix(s, `"`) || len(s) < 2 {
		return -1
	}
	for i := len(s) - 2; i >= 0; i-- {
		if s[i] != '"' {
			continue
		}
		bs := 0
		for j := i - 1; j >= 0 && s[j] == '\\'; j-- {
			bs++
		}
		if bs%2 == 0 {
			return i
		}
	}
	return -1
}

// lenient fixes the slips models make in otherwise good JSON: trailing
// commas, Python's True/False/None, raw control characters inside strings,
// typographic quotes around keys and values, // comments.
func lenient(s string) string {
	var b bytes.Buffer
	b.Grow(len(s) + 16)
	inStr, esc := false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if inStr {
			switch {
			case esc:
				esc = false
				b.WriteByte(c)
			case c == '\\':
				esc = true
				b.WriteByte(c)
			case c == '"':
				inStr = false
				b.WriteByte(c)
			case c == '\n':
				b.WriteString(`\n`)
			case c == '\r':
				b.WriteString(`\r`)
			case c == '\t':
				b.WriteString(`\t`)
			default:
				b.WriteByte(c)
			}
			continue
		}
		switch {
		case c == '"':
			inStr = true
			b.WriteByte(c)
		case strings.HasPrefix(s[i:], "\u201c") || strings.HasPrefix(s[i:], "\u201d"):
			// A typographic quote outside a string opens or closes one.
			b.WriteByte('"')
			inStr = strings.HasPrefix(s[i:], "\u201c")
			i += len("\u201c") - 1
		case c == '/' && i+1 < len(s) && s[i+1] == '/':
			for i < len(s) && s[i] != '\n' {
				i++
			}
			b.WriteByte('\n')
		case c == ',':
			j := i + 1
			for j < len(s) && strings.IndexByte(" \t\r\n", s[j]) >= 0 {
				j++
			}
			if j < len(s) && (s[j] == '}' || s[j] == ']') {
				continue // trailing comma
			}
			b.WriteByte(c)
		case c != 'T' && c != 'F' && c != 'N':
			b.WriteByte(c)
		case isWordStart(s, i, "True"):
			b.WriteString("true")
			i += 3
		case isWordStart(s, i, "False"):
			b.WriteString("false")
			i += 4
		case isWordStart(s, i, "None"):
			b.WriteString("null")
			i += 3
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func isWordStart(s string, i int, word string) bool {
	if !strings.HasPrefix(s[i:], word) {
		return false
	}
	if i > 0 && isIdent(s[i-1]) {
		return false
	}
	end := i + len(word)
	return end >= len(s) || !isIdent(s[end])
}

func isIdent(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
