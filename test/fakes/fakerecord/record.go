// Package fakerecord is what the fake agent CLIs (test/fakes/agentcli) write
// about each invocation and what tests (test/fakes/fakebin) read back: one
// type for both sides.
package fakerecord

import "encoding/json"

// Record is what a fake CLI wrote about one invocation.
type Record struct {
	CLI        string            `json:"cli"`
	Invocation int               `json:"invocation"`
	Scenario   string            `json:"scenario"`
	Argv       []string          `json:"argv"`
	Cwd        string            `json:"cwd"`
	UID        int               `json:"uid"`
	Stdin      string            `json:"stdin"`
	Env        map[string]string `json:"env"`
	Settings   json.RawMessage   `json:"settings,omitempty"`
	Policies   map[string]string `json:"policies,omitempty"`
	Ran        []string          `json:"ran"`
	Denied     []string          `json:"denied"`
	Exit       int               `json:"exit"`
	// Gemini: Input is the prompt the model was given (stdin, a blank
	// line, then -p's text); Attached the files its @ references brought
	// in (absolute paths), Skipped the references it left out.
	Input    string   `json:"input,omitempty"`
	Attached []string `json:"attached,omitempty"`
	Skipped  []string `json:"skipped,omitempty"`
}

// Flag returns the value following flag in argv ("" if absent).
func (r Record) Flag(flag string) string {
	for i, a := range r.Argv {
		if a == flag && i+1 < len(r.Argv) {
			return r.Argv[i+1]
		}
	}
	return ""
}

// Has reports whether argv holds arg.
func (r Record) Has(arg string) bool {
	for _, a := range r.Argv {
		if a == arg {
			return true
		}
	}
	return false
}
