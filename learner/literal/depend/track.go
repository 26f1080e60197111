package depend

import "strings"

// Tracker follows a walk of the steps: which failed, which could not be
// reached because of it, and which programs a failure found missing.
type Tracker struct {
	plan Plan
	// cause maps a step that failed or was not reached to the failed step
	// at the root (a failed step is its own).
	cause map[int]int
	// missing maps a name (Program, Variable) to the step that found it
	// missing.
	missing map[string]int
}

// NewTracker starts following a walk of the plan's steps.
func NewTracker(p Plan) *Tracker {
	return &Tracker{plan: p, cause: map[int]int{}, missing: map[string]int{}}
}

// Fail records that step i failed in a way that stops what depends on it;
// missing are the names (Program, Variable) it found missing: later steps
// that need one are not reached either.
func (t *Tracker) Fail(i int, missing ...string) {
	t.cause[i] = i
	for _, m := range missing {
		if _, ok := t.missing[m]; !ok && m != "" {
			t.missing[m] = i
		}
	}
}

// Failed reports whether any step failed so far.
func (t *Tracker) Failed() bool {
	for i, r := range t.cause {
		if i == r {
			return true
		}
	}
	return false
}

// Block says why a step is not reached: the step it needed (Dep) and the
// failed step at the root (Failed, an index; the same as Dep.Step when the
// step it needed failed itself).
type Block struct {
	Dep    Dep
	Failed int
}

// Blocked reports whether step i cannot be reached: a step it depends on
// failed or was not reached, or it starts a program a failure found
// missing. A blocked step counts as not reached for the steps after it.
func (t *Tracker) Blocked(i int) (Block, bool) {
	if i < 0 || i >= len(t.plan.Deps) {
		return Block{}, false
	}
	for _, d := range t.plan.Deps[i] {
		if r, ok := t.cause[d.Step]; ok {
			t.cause[i] = r
			return Block{Dep: d, Failed: r}, true
		}
	}
	for _, n := range t.plan.Names[i] {
		if j, ok := t.missing[n]; ok && j != i {
			t.cause[i] = j
			return Block{Dep: Dep{Step: j, Why: "needs `" + strings.TrimPrefix(n, "program ") + "`, which that line found missing"}, Failed: j}, true
		}
	}
	return Block{}, false
}
