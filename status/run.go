package status

// Copy returns a copy of the run that later changes to the original's
// slices and pointers do not reach (what observers are handed).
func (r *Run) Copy() *Run {
	c := *r
	st := &c.Status
	st.MentorNotes = append([]MentorNote(nil), st.MentorNotes...)
	st.History = append([]IterationRecord(nil), st.History...)
	st.Conditions = append([]Condition(nil), st.Conditions...)
	st.Gaps = append([]Gap(nil), st.Gaps...)
	st.Timeline = append([]TimelineEntry(nil), st.Timeline...)
	if st.Attempt != nil {
		a := *st.Attempt
		st.Attempt = &a
	}
	if st.Report != nil {
		rep := *st.Report
		st.Report = &rep
	}
	if st.FinishedAt != nil {
		f := *st.FinishedAt
		st.FinishedAt = &f
	}
	return &c
}

// Finished reports whether the run has ended (report written) for the
// inputs of digest ("" for whatever it last applied), or stopped on invalid
// inputs.
func (r *Run) Finished(digest string) bool {
	st := r.Status
	if st.Reason == ReasonInvalidSpec && st.Phase.Terminal() {
		return true
	}
	if digest != "" && r.Metadata.InputDigest != digest {
		return false
	}
	return st.Phase.Terminal() && st.ObservedGeneration == r.Metadata.Generation &&
		st.InputDigest == r.Metadata.InputDigest && st.Report != nil
}
