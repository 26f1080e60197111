// Package recovery reads the JSON answer out of what a model printed (seed
// E12, E20, SC-005): the object alone, inside a code fence, before or after
// prose, with snake_case or camelCase keys, with the slips models make
// (trailing commas, Python literals, raw newlines in strings, a JSON-encoded
// string), and cut off mid-way, in which case it closes what was left open.
// It never invents an answer: text with no object in it is an error.
package recovery
