package browser_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/smile-loop/smile/reconcile/events"
	"github.com/smile-loop/smile/test/browser"
)

type mark struct {
	Line            string
	Mark, Label     string
	Before          bool // the mark's label comes right before its block
	Current, HasGap bool
}

const marksJS = `Array.from(document.querySelectorAll('#tutorial pre.code-block')).map(function (pre) {
  var m = pre.previousElementSibling;
  return {line: pre.dataset.line, mark: pre.dataset.mark || '', label: m && m.classList.contains('mark') ? m.textContent : '',
    before: !!(m && m.classList.contains('mark') && m.dataset.stepLine === pre.dataset.line),
    current: pre.classList.contains('current'), hasGap: pre.classList.contains('has-gap')};
})`

func checkMarks(t *testing.T, ctx context.Context, want []mark) {
	t.Helper()
	var got []mark
	browser.Eval(t, ctx, marksJS, &got)
	if len(got) != len(want) {
		t.Fatalf("%d code blocks on the page, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		g := got[i]
		if g.Line != w.Line || g.Mark != w.Mark || !strings.HasPrefix(g.Label, w.Label) || !g.Before || g.Current != w.Current || g.HasGap != w.HasGap {
			t.Errorf("block %d = %+v, want %+v", i, g, w)
		}
	}
}

// checkRendered: the tutorial is Markdown rendered, not shown raw, and
// nothing of its raw HTML runs or shows.
func checkRendered(t *testing.T, ctx context.Context) {
	t.Helper()
	var page struct {
		H1, Code, Raw string
		Unsafe, Pwned int
		Text          string
	}
	browser.Eval(t, ctx, `({h1: (document.querySelector('#tutorial h1') || {}).textContent || '',
		code: (document.querySelector('#tutorial p code') || {}).textContent || '',
		unsafe: document.querySelectorAll('#tutorial script, #tutorial img, #tutorial [onerror], #notes script, #notes img, #notes [onerror], a[href^="javascript:"]').length,
		pwned: window.__pwned || 0, text: document.getElementById('tutorial').innerText})`, &page)
	if page.H1 != "Deploy the greeter" || page.Code != "greet.sh" {
		t.Errorf("the tutorial is not rendered: h1 %q, inline code %q", page.H1, page.Code)
	}
	if page.Unsafe != 0 || page.Pwned != 0 || strings.Contains(page.Text, "```") || strings.Contains(page.Text, "# Deploy") {
		t.Errorf("raw Markdown or HTML got through: %d unsafe elements, __pwned %d, text:\n%s", page.Unsafe, page.Pwned, page.Text)
	}
}

// TestRunPageFinishedWithGaps: a finished second generation with a gap
// and a note carried from the first: every block marked with its duration,
// the gap beside its line, each note with its own question, rerun offered.
func TestRunPageFinishedWithGaps(t *testing.T) {
	ctx := browser.Start(t)
	r, audits := finishedWithGaps("docs-deploy")
	f := newFixture(r)
	f.audits["docs-deploy"] = audits
	open(t, ctx, f.serve(t, "/run?name=docs-deploy"))
	browser.WaitFor(t, ctx, `document.querySelectorAll('#tutorial pre[data-mark]').length === 5 && document.querySelectorAll('#notes li').length === 2`, 10*time.Second)
	checkRendered(t, ctx)
	checkMarks(t, ctx, []mark{
		{Line: "5", Mark: "passed", Label: "passed · 1.1 s"},
		{Line: "11", Mark: "skipped", Label: "skipped: for macOS"},
		{Line: "17", Mark: "passed", Label: "passed"},
		{Line: "24", Mark: "failed", Label: "failed: critical gap: greet.sh is not executable · 20 ms", HasGap: true},
		{Line: "31", Mark: "passed", Label: "passed · 2.5 s"},
	})
	var gap struct {
		AfterBlock, Listed bool
		Text               string
	}
	browser.Eval(t, ctx, `(function () { var n = document.querySelector('#tutorial aside.gap-note[data-gap-line="25"]');
		return {afterBlock: !!n && n.previousElementSibling.dataset.line === '24', text: n ? n.textContent : '',
			listed: !!document.querySelector('#gaps li[data-gap-line="25"]')}; })()`, &gap)
	if !gap.AfterBlock || !gap.Listed || !strings.Contains(gap.Text, "greet.sh is not executable") {
		t.Errorf("the gap at line 25: %+v, want it beside block 24 and listed", gap)
	}
	var notes []struct {
		Carried, Iteration, Question, Answer, Code string
	}
	browser.Eval(t, ctx, `Array.from(document.querySelectorAll('#notes li')).map(function (li) { return {carried: li.dataset.carried || '',
		iteration: li.dataset.iteration, question: li.querySelector('.question').textContent, answer: li.querySelector('.answer').textContent,
		code: (li.querySelector('.answer pre code') || {}).textContent || ''}; })`, &notes)
	if !strings.Contains(notes[0].Question, "earlier generation") || !strings.Contains(notes[0].Question, "apt-get could not find jq") ||
		!strings.Contains(notes[0].Answer, "apt-get update") || notes[0].Carried != "true" {
		t.Errorf("the carried note: %+v", notes[0])
	}
	if notes[1].Iteration != "1" || !strings.Contains(notes[1].Question, "Permission denied") || !strings.Contains(notes[1].Code, "chmod +x greet.sh") {
		t.Errorf("the note of iteration 1: %+v", notes[1])
	}
	var side struct {
		GapsEmptyHidden, StopDisabled, RerunDisabled bool
		Coverage                                     string
		TutorialX, SideX                             float64
	}
	browser.Eval(t, ctx, `({gapsEmptyHidden: document.getElementById('gaps-empty').hidden, stopDisabled: document.getElementById('stop').disabled,
		rerunDisabled: document.getElementById('rerun').disabled, coverage: document.getElementById('coverage').textContent,
		tutorialX: document.getElementById('tutorial').getBoundingClientRect().x, sideX: document.getElementById('gaps').getBoundingClientRect().x})`, &side)
	if !side.GapsEmptyHidden || !side.StopDisabled || side.RerunDisabled || !strings.HasPrefix(side.Coverage, "4 of 5 code blocks (80%)") || side.TutorialX >= side.SideX {
		t.Errorf("the run's panels: %+v", side)
	}
	checkShot(t, ctx, "run-finished-gaps")

	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#rerun`))); err != nil {
		t.Fatal(err)
	}
	browser.WaitFor(t, ctx, `document.getElementById('action-result').dataset.action === 'rerun'`, 10*time.Second)
	if _, reruns := f.actions(); !slices.Equal(reruns, []string{"docs-deploy"}) {
		t.Errorf("reruns asked of the controller: %v", reruns)
	}
}

// TestRunPageFinishedWithoutGaps: a finished run with no gap says so, not
// "No gaps yet".
func TestRunPageFinishedWithoutGaps(t *testing.T) {
	ctx := browser.Start(t)
	r, audits := finishedClean("docs-clean")
	f := newFixture(r)
	f.audits["docs-clean"] = audits
	open(t, ctx, f.serve(t, "/run?name=docs-clean"))
	browser.WaitFor(t, ctx, `document.querySelectorAll('#tutorial pre[data-mark]').length === 5`, 10*time.Second)
	checkRendered(t, ctx)
	checkMarks(t, ctx, []mark{
		{Line: "5", Mark: "passed", Label: "passed · 900 ms"},
		{Line: "11", Mark: "skipped", Label: "skipped: for macOS"},
		{Line: "17", Mark: "passed", Label: "passed"},
		{Line: "24", Mark: "passed", Label: "passed · 30 ms"},
		{Line: "31", Mark: "passed", Label: "passed · 400 ms"},
	})
	var empty struct {
		Hidden bool
		Text   string
		Notes  string
	}
	browser.Eval(t, ctx, `({hidden: document.getElementById('gaps-empty').hidden, text: document.getElementById('gaps-empty').textContent,
		notes: document.getElementById('notes-empty').hidden ? '' : document.getElementById('notes-empty').textContent})`, &empty)
	if empty.Hidden || !strings.HasPrefix(empty.Text, "No gaps: the Student followed the whole tutorial") || empty.Notes != "The Student asked the Mentor nothing." {
		t.Errorf("a finished run without gaps says %+v", empty)
	}
	checkShot(t, ctx, "run-finished-clean")
}

// TestRunPageShowsTheReading: under each block, folded, is how the literal
// Student reads it (what `smile plan` prints): the action, its target, why,
// and the rules the reading rests on; a block the page shows for macOS says
// it is left out and by which rule; a command in a transcript says its
// output is compared.
func TestRunPageShowsTheReading(t *testing.T) {
	ctx := browser.Start(t)
	r, audits := finishedClean("docs-read")
	f := newFixture(r)
	f.audits["docs-read"] = audits
	open(t, ctx, f.serve(t, "/run?name=docs-read"))
	browser.WaitFor(t, ctx, `document.querySelectorAll('#tutorial details.reading').length >= 5`, 10*time.Second)
	type reading struct {
		Line, Summary, Text, After string
		Open                       bool
	}
	var got []reading
	browser.Eval(t, ctx, `Array.from(document.querySelectorAll('#tutorial details.reading')).map(function (d) {
		var prev = d.previousElementSibling;
		return {line: d.dataset.readingLine, summary: d.querySelector('summary').textContent, text: d.querySelector('ul').textContent,
			after: prev ? (prev.dataset.line || '') : '', open: d.open}; })`, &got)
	want := map[string][]string{
		"5":  {"SMILE reads: run", "apt-get install -y jq"},
		"11": {"SMILE reads: left out", "platform.label", "macOS"},
		"17": {"SMILE reads: written to", "greet.sh (replace)", "names greet.sh"},
		"24": {"SMILE reads: run", "./greet.sh world; its output (1 lines) compared, exact", "prompt.shell.dollar"},
		"31": {"SMILE reads: run", "./deploy.sh"},
	}
	seen := map[string]bool{}
	for _, g := range got {
		w, ok := want[g.Line]
		if !ok {
			continue
		}
		seen[g.Line] = true
		if g.After != g.Line || g.Open || !strings.HasPrefix(g.Summary, w[0]) {
			t.Errorf("the reading of block %s: %+v, want it folded right after its block, summary %q", g.Line, g, w[0])
		}
		for _, part := range w[1:] {
			if !strings.Contains(g.Text, part) {
				t.Errorf("the reading of block %s says %q, want %q in it", g.Line, g.Text, part)
			}
		}
	}
	for line := range want {
		if !seen[line] {
			t.Errorf("no reading under block %s: %+v", line, got)
		}
	}
	// Unfolded, it shows; the run's marks are still there above each block.
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#tutorial details.reading[data-reading-line="11"] summary`))); err != nil {
		t.Fatal(err)
	}
	var shown struct{ Visible, Marks int }
	browser.Eval(t, ctx, `({visible: Array.from(document.querySelectorAll('#tutorial details.reading[data-reading-line="11"] li')).filter(function (li) {
		return li.getBoundingClientRect().height > 0; }).length, marks: document.querySelectorAll('#tutorial .mark').length})`, &shown)
	if shown.Visible != 1 || shown.Marks != 5 {
		t.Errorf("after a click: %d reading lines of block 11 visible (want 1), %d marks (want 5)", shown.Visible, shown.Marks)
	}
}

// TestRunPageInProgress: a run at work shows its current step live: the
// blocks above it run, the block it is in running, those below not yet;
// a progress report moves it; stop asks the controller to stop the run.
func TestRunPageInProgress(t *testing.T) {
	ctx := browser.Start(t)
	f := newFixture(inProgress("docs-live"))
	f.progress["docs-live"] = &events.Progress{Step: "line 25: ./greet.sh world", Line: 25, At: time.Now()}
	open(t, ctx, f.serve(t, "/run?name=docs-live"))
	browser.WaitFor(t, ctx, `document.querySelectorAll('#tutorial pre[data-mark]').length === 5`, 10*time.Second)
	checkRendered(t, ctx)
	checkMarks(t, ctx, []mark{
		{Line: "5", Mark: "run", Label: "run"},
		{Line: "11", Mark: "run", Label: "run"},
		{Line: "17", Mark: "run", Label: "run"},
		{Line: "24", Mark: "running", Label: "running now", Current: true},
		{Line: "31", Mark: "pending", Label: "not run yet"},
	})
	var head struct {
		Step, Gaps  string
		Stop, Rerun bool
	}
	browser.Eval(t, ctx, `({step: document.getElementById('current-step').textContent, gaps: document.getElementById('gaps-empty').textContent,
		stop: document.getElementById('stop').disabled, rerun: document.getElementById('rerun').disabled})`, &head)
	if !strings.Contains(head.Step, "./greet.sh world") || head.Gaps != "No gaps yet." || head.Stop || !head.Rerun {
		t.Errorf("the run at work: %+v", head)
	}
	checkShot(t, ctx, "run-in-progress")

	f.say("docs-live", &events.Progress{Step: "line 32: ./deploy.sh", Line: 32, At: time.Now()})
	browser.WaitFor(t, ctx, `document.getElementById('current-step').textContent.indexOf('./deploy.sh') >= 0 &&
		document.querySelector('#tutorial pre[data-line="31"]').dataset.mark === 'running'`, 10*time.Second)
	checkMarks(t, ctx, []mark{
		{Line: "5", Mark: "run", Label: "run"},
		{Line: "11", Mark: "run", Label: "run"},
		{Line: "17", Mark: "run", Label: "run"},
		{Line: "24", Mark: "run", Label: "run"},
		{Line: "31", Mark: "running", Label: "running now", Current: true},
	})

	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#stop`))); err != nil {
		t.Fatal(err)
	}
	browser.WaitFor(t, ctx, `document.getElementById('action-result').dataset.action === 'stop'`, 10*time.Second)
	if stopped, _ := f.actions(); !slices.Equal(stopped, []string{"docs-live"}) {
		t.Errorf("stops asked of the controller: %v", stopped)
	}
}
