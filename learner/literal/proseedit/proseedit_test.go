package proseedit

import "testing"

func TestRead(t *testing.T) {
	written := func(name string) bool { return name == "tr.sh" || name == "app.conf" }
	for _, tc := range []struct {
		sentence string
		want     Edit
		ok       bool
	}{
		{"Change `VAR=0` to `VAR=1` in `tr.sh`.", Edit{File: "tr.sh", Old: "VAR=0", New: "VAR=1"}, true},
		{"`tr.sh`内の`VAR=0`を`VAR=1`に書き換える。", Edit{File: "tr.sh", Old: "VAR=0", New: "VAR=1"}, true},
		{"Ersetze in app.conf `8080` durch `9090`.", Edit{File: "app.conf", Old: "8080", New: "9090"}, true},
		{"Run `bash tr.sh` and then `cat out.txt`.", Edit{}, false},       // no editing verb
		{"Change `VAR=0` to `VAR=1`.", Edit{}, false},                     // no file
		{"Change `VAR=0` to `VAR=1` in `other.sh`.", Edit{}, false},       // a file the page did not write
		{"Change the value in `tr.sh` to something else.", Edit{}, false}, // no old and new text
		{"Replace `a`, `b` or `c` in `tr.sh` with `d`.", Edit{}, false},   // too many spans
	} {
		got, ok := Read(tc.sentence, written)
		got.Verb = ""
		if ok != tc.ok || got != tc.want {
			t.Errorf("Read(%q) = %+v, %v; want %+v, %v", tc.sentence, got, ok, tc.want, tc.ok)
		}
	}
}

func TestApply(t *testing.T) {
	e := Edit{File: "tr.sh", Old: "VAR=0", New: "VAR=1"}
	if got, ok := e.Apply("#!/bin/bash\nVAR=0\necho $VAR\n"); !ok || got != "#!/bin/bash\nVAR=1\necho $VAR\n" {
		t.Errorf("Apply = %q, %v", got, ok)
	}
	if _, ok := e.Apply("echo hi\n"); ok {
		t.Error("Apply made an edit the file has no place for")
	}
}
