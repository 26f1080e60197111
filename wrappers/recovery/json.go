package recovery

import (
	"bytes"
	"encoding/json"
	"errors"
	"regexp"
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
	if accept == nil {
		accept = func(map[string]any) bool { return true }
	}
	text = strings.TrimPrefix(strings.TrimSpace(text), "\ufeff")
	if text == "" {
		return nil, "", ErrNoObject
	}
	if obj, ok := decodeObject(text); ok && accept(obj) {
		return obj, MethodWhole, nil
	}
	if obj, ok := decodeEncoded(text); ok && accept(obj) {
		return obj, MethodEncoded, nil
	}
	// Fenced blocks: the last one the caller accepts (a model that shows an
	// example first gives its answer last).
	fences := fencedBlocks(text)
	for i := len(fences) - 1; i >= 0; i-- {
		if obj, ok := decodeObject(fences[i]); ok && accept(obj) {
			return obj, MethodFence, nil
		}
	}
	// Balanced objects anywhere, the last accepted one first.
	spans := balancedObjects(text)
	for i := len(spans) - 1; i >= 0; i-- {
		if obj, ok := decodeObject(spans[i]); ok && accept(obj) {
			return obj, MethodEmbedded, nil
		}
	}
	for _, f := range append(append([]string{}, fences...), spans...) {
		if obj, ok := decodeObject(lenient(f)); ok && accept(obj) {
			return obj, MethodLenient, nil
		}
	}
	// Cut off: inside the last fence first (its closing fence is missing or
	// the object in it is incomplete), then from every place an object may
	// start.
	for i := len(fences) - 1; i >= 0; i-- {
		for _, start := range objectStarts(fences[i]) {
			if obj, ok := decodeObject(lenient(closeTruncated(fences[i][start:]))); ok && accept(obj) {
				return obj, MethodTruncated, nil
			}
		}
	}
	for _, start := range objectStarts(text) {
		if obj, ok := decodeObject(lenient(closeTruncated(text[start:]))); ok && accept(obj) {
			return obj, MethodTruncated, nil
		}
	}
	return nil, "", ErrNoObject
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

var fenceOpen = regexp.MustCompile("(?m)^[ \t]*(`{3,}|~{3,})[ \t]*([A-Za-z0-9_+-]*)[^\n]*$")

// fencedBlocks returns the content of every fenced code block, in order. An
// unclosed fence runs to the end of the text (a truncated answer).
func fencedBlocks(text string) []string {
	var out []string
	rest := text
	for {
		m := fenceOpen.FindStringSubmatchIndex(rest)
		if m == nil {
			return out
		}
		fence := rest[m[2]:m[3]]
		body := rest[m[1]:]
		body = strings.TrimPrefix(body, "\n")
		closeRe := regexp.MustCompile("(?m)^[ \t]*" + regexp.QuoteMeta(fence[:1]) + "{" + itoa(len(fence)) + ",}[ \t]*$")
		if c := closeRe.FindStringIndex(body); c != nil {
			out = append(out, body[:c[0]])
			rest = body[c[1]:]
			continue
		}
		out = append(out, body)
		return out
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// balancedObjects returns every top-level {...} span whose braces balance,
// skipping braces inside JSON strings.
func balancedObjects(text string) []string {
	var out []string
	for i := 0; i < len(text); i++ {
		if text[i] != '{' {
			continue
		}
		if end := matchBrace(text, i); end > 0 {
			out = append(out, text[i:end])
			i = end - 1
		}
	}
	return out
}

// matchBrace returns the index just past the brace closing the one at start,
// or -1.
func matchBrace(text string, start int) int {
	depth, inStr, esc := 0, false, false
	for i := start; i < len(text); i++ {
		c := text[i]
		switch {
		case inStr && esc:
			esc = false
		case inStr && c == '\\':
			esc = true
		case inStr && c == '"':
			inStr = false
		case inStr:
		case c == '"':
			inStr = true
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			depth--
			if depth == 0 {
				return i + 1
			}
			if depth < 0 {
				return -1
			}
		}
	}
	return -1
}

// objectStarts are the offsets of the '{' that may open an answer: each one
// followed (after spaces) by a quoted key, first to last.
var keyAfterBrace = regexp.MustCompile(`\{\s*["']?[A-Za-z_]`)

func objectStarts(text string) []int {
	var out []int
	for _, m := range keyAfterBrace.FindAllStringIndex(text, -1) {
		out = append(out, m[0])
	}
	return out
}

// closeTruncated closes a JSON object that was cut off: it ends an open
// string, drops a dangling key, colon or comma, and closes every open
// bracket in order. Text after the object's end is dropped.
func closeTruncated(s string) string {
	var stack []byte
	inStr, esc := false, false
	end := len(s)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case inStr && esc:
			esc = false
		case inStr && c == '\\':
			esc = true
		case inStr && c == '"':
			inStr = false
		case inStr:
		case c == '"':
			inStr = true
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
		if i == len(s)-1 {
			end = len(s)
		}
	}
	out := s[:end]
	if inStr {
		if esc {
			out = out[:len(out)-1] // a lone backslash cannot end a string
		}
		out += `"`
	}
	out = dropDangling(out, len(stack) > 0 && stack[len(stack)-1] == '[')
	for i := len(stack) - 1; i >= 0; i-- {
		if stack[i] == '{' {
			out += "}"
		} else {
			out += "]"
		}
	}
	return out
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
