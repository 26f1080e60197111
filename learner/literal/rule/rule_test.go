package rule

import "testing"

func TestEvidenceReads(t *testing.T) {
	r := Register(Rule{ID: "test.example", Doc: "an example rule", Scope: ScopeLine})
	if got := r.At(12, ">>> ").String(); got != `test.example (line 12: ">>> ")` {
		t.Errorf("String() = %s", got)
	}
	if got := Explain([]Evidence{r.At(3, ""), {Rule: "other"}}); got != "test.example (line 3); other" {
		t.Errorf("Explain = %s", got)
	}
	if got, ok := Lookup("test.example"); !ok || got.Doc != "an example rule" {
		t.Errorf("Lookup = %+v, %v", got, ok)
	}
	defer func() {
		if recover() == nil {
			t.Errorf("a second rule with one ID is accepted")
		}
	}()
	Register(Rule{ID: "test.example", Doc: "again"})
}
