package prose

import (
	"reflect"
	"testing"
)

func TestSentences(t *testing.T) {
	got := Sentences("Run it. Does it work? Yes! Version 1.2 is fine")
	want := []string{"Run it", "Does it work", "Yes", "Version 1.2 is fine"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Sentences = %q, want %q", got, want)
	}
	if ends := SentenceEnds("One. Two"); len(ends) != 1 || ends[0][0] != 3 {
		t.Errorf("SentenceEnds = %v, want one end at byte 3", ends)
	}
}
