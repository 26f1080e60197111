// Package runview is what the dashboard shows of runs, computed from their
// status alone: a row of the index per run, what became of each code block of
// the tutorial (its mark and duration), the Mentor's notes paired with the
// questions they answer, and the tutorial rendered from Markdown with every
// block's source line on it. It does no I/O; reconcile/server serves it.
package runview
