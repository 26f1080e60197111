package recovery

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestCloseTruncated(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"a": "b`, `{"a": "b"}`},
		{`{"a": ["x", "y`, `{"a": ["x", "y"]}`},
		{`{"a": 1, "b"`, `{"a": 1}`},
		{`{"a": 1, "b":`, `{"a": 1}`},
		{`{"a": 1,`, `{"a": 1}`},
		{`{"a": tru`, `{"a": null}`},
		{`{"a": 12`, `{"a": 12}`},
		{`{"a": "x\`, `{"a": "x"}`},
		{`{"a": {"b": [1, {"c": "d`, `{"a": {"b": [1, {"c": "d"}]}}`},
		{`{"a": "}"} trailing prose`, `{"a": "}"}`},
		{`{"a": ["x"],`, `{"a": ["x"]}`},
		{`{"b"`, `{}`},
	}
	for _, tt := range tests {
		got := closeTruncated(tt.in)
		var v any
		if err := json.Unmarshal([]byte(got), &v); err != nil || got != tt.want {
			t.Errorf("closeTruncated(%q) = %q (%v), want %q", tt.in, got, err, tt.want)
		}
	}
}

func TestLenient(t *testing.T) {
	got := lenient("{\"a\": [1, 2,], \"b\": True, \"c\": None, // note\n \"d\": \"x\ny\",}")
	var v map[string]any
	if err := json.Unmarshal([]byte(got), &v); err != nil {
		t.Fatalf("lenient = %q: %v", got, err)
	}
	if v["b"] != true || v["c"] != nil || v["d"] != "x\ny" {
		t.Errorf("lenient decoded %v", v)
	}
	// Inside strings nothing changes.
	if got := lenient(`{"a": "True, None,]"}`); got != `{"a": "True, None,]"}` {
		t.Errorf("lenient changed a string: %q", got)
	}
}

func TestStudentFillsRequiredFields(t *testing.T) {
	a, err := Student(`{"status":"ask_mentor","problem":"jq: command not found","quote":"jq . data.json"}`)
	if err != nil {
		t.Fatal(err)
	}
	if a.QuestionForMentor != "jq: command not found" || a.CurrentStep != "jq . data.json" || a.Summary == "" ||
		a.AttemptedActions == nil || a.FilesCreated == nil || a.CommandsRun == nil {
		t.Errorf("answer = %+v", a)
	}
	a, err = Student(`{"status":"cannot_complete","summary":"the server never starts"}`)
	if err != nil || a.Reason != "the server never starts" {
		t.Errorf("answer = %+v, %v", a, err)
	}
}

func TestStudentErrorsSayWhy(t *testing.T) {
	for in, want := range map[string]string{
		"I could not finish.":         "no JSON object found",
		`{"summary": "x"}`:            "has no status",
		`{"status": "working on it"}`: `status "working on it" is not completed, ask_mentor or cannot_complete`,
		"```json\n{\"status\": \n```": "has no status",
	} {
		_, err := Student(in)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Student(%q) error = %v, want %q", in, err, want)
		}
	}
}

func TestMentor(t *testing.T) {
	tests := []struct {
		in                     string
		notes, res, workaround string
	}{
		{`{"notes":"Install jq first.","resolution":"workaround","workaround":"apt-get install -y jq","quote":"jq . data.json"}`, "Install jq first.", "workaround", "apt-get install -y jq"},
		{"Here you go:\n```json\n{\"answer\": \"The step is wrong; go on.\", \"resolution\": \"Proceed\"}\n```", "The step is wrong; go on.", "proceed", ""},
		{`{"notes": "Needs a private key nobody can get.", "resolution": "unresolvable"}`, "Needs a private key nobody can get.", "unresolvable", ""},
		{`{"notes": "Run this first.", "workaround": "mkdir -p logs"}`, "Run this first.", "workaround", "mkdir -p logs"},
		{`{"mentor_output": "Use python3.", "resolution": "maybe"}`, "Use python3.", "proceed", ""},
	}
	for _, tt := range tests {
		a, err := Mentor(tt.in)
		if err != nil || a.Notes != tt.notes || a.Resolution != tt.res || a.Workaround != tt.workaround {
			t.Errorf("Mentor(%q) = %+v, %v", tt.in, a, err)
		}
	}
	if _, err := Mentor("Just install jq."); err == nil {
		t.Error("Mentor accepted prose without JSON")
	}
}

func FuzzObject(f *testing.F) {
	for _, s := range []string{`{"status":"completed"}`, "```json\n{\"a\":[1,", `{"a":"\`, "x{y}z", `"{\"a\":1}"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		obj, _, err := Object(s, nil)
		if err == nil && obj == nil {
			t.Fatal("no error and no object")
		}
		_, _ = Student(s)
		_, _ = Mentor(s)
	})
}
