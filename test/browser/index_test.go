package browser_test

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/smile-loop/smile/status"
	"github.com/smile-loop/smile/test/browser"
)

// open loads a dashboard URL and waits for its live connection.
func open(t *testing.T, ctx context.Context, url string) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		t.Fatalf("open %s: %v", url, err)
	}
	browser.WaitFor(t, ctx, `document.getElementById('connection') && document.getElementById('connection').dataset.state === 'live'`, 20*time.Second)
}

// checkShot takes a screenshot and checks it is the window's size and not
// blank.
func checkShot(t *testing.T, ctx context.Context, name string) browser.Shot {
	t.Helper()
	shot := browser.Screenshot(t, ctx, name)
	b := shot.Image.Bounds()
	if b.Dx() != browser.WindowWidth || b.Dy() != browser.WindowHeight {
		t.Errorf("screenshot %s is %dx%d, want %dx%d", name, b.Dx(), b.Dy(), browser.WindowWidth, browser.WindowHeight)
	}
	if ink := shot.Inked(); ink < 0.02 {
		t.Errorf("screenshot %s is blank (%.3f of its pixels differ from the background)", name, ink)
	}
	return shot
}

type row struct {
	Name, Href, Phase, Result, Coverage, Gaps, Age string
	Top, Height                                    float64
}

const rowsJS = `Array.from(document.querySelectorAll('#runs-body tr[data-run]')).map(function (tr) {
  var r = tr.getBoundingClientRect();
  var text = function (c) { return tr.querySelector('.' + c).textContent.trim(); };
  return {name: tr.dataset.run, href: tr.querySelector('a').getAttribute('href'), phase: text('phase'), result: text('result'),
    coverage: text('coverage'), gaps: text('gaps'), age: text('age'), top: r.top, height: r.height};
})`

// TestIndexWithManyRuns: the address smile prints opens the index of the
// workspace's runs (it used to stay on "connecting" as soon as there were
// several), one row each, in name order, each linking to its page, and
// follows them live: a transition changes a row, a new run adds one.
func TestIndexWithManyRuns(t *testing.T) {
	ctx := browser.Start(t)
	gaps, _ := finishedWithGaps("docs-deploy")
	clean, _ := finishedClean("docs-clean")
	stopped := newRun("docs-stopped", status.PhaseStopped, 1)
	f := newFixture(gaps, clean, inProgress("docs-live"), stopped, newRun("docs-queued", status.PhaseQueued, 1))
	open(t, ctx, f.serve(t, "/"))
	browser.WaitFor(t, ctx, `document.querySelectorAll('#runs-body tr[data-run]').length === 5`, 10*time.Second)

	var rows []row
	browser.Eval(t, ctx, rowsJS, &rows)
	want := []row{
		{Name: "docs-clean", Phase: "Completed", Result: "Passed", Coverage: "4/5 (80%)", Gaps: "0"},
		{Name: "docs-deploy", Phase: "Completed", Result: "GapsFound", Coverage: "4/5 (80%)", Gaps: "1"},
		{Name: "docs-live", Phase: "WaitingForStudent", Result: "running", Coverage: "-", Gaps: "0"},
		{Name: "docs-queued", Phase: "Queued", Result: "running", Coverage: "-", Gaps: "0"},
		{Name: "docs-stopped", Phase: "Stopped", Result: "Stopped", Coverage: "-", Gaps: "0"},
	}
	for i, w := range want {
		g := rows[i]
		if g.Name != w.Name || g.Phase != w.Phase || g.Result != w.Result || g.Coverage != w.Coverage || g.Gaps != w.Gaps {
			t.Errorf("row %d = %+v, want %+v", i, g, w)
		}
		if g.Href != "/run?name="+w.Name {
			t.Errorf("row %s links to %q", w.Name, g.Href)
		}
		if !regexp.MustCompile(`^7m(\d+s)?$`).MatchString(g.Age) {
			t.Errorf("row %s is %q old, want 7m", w.Name, g.Age)
		}
		if i > 0 && g.Top < rows[i-1].Top+rows[i-1].Height-1 {
			t.Errorf("row %s (top %.0f) overlaps the row above it (top %.0f, height %.0f)", g.Name, g.Top, rows[i-1].Top, rows[i-1].Height)
		}
	}
	var counts struct{ Runs, Running string }
	browser.Eval(t, ctx, `({runs: document.getElementById('run-count').textContent, running: document.getElementById('running-count').textContent})`, &counts)
	if counts.Runs != "5" || counts.Running != "2" {
		t.Errorf("header counts %+v, want 5 runs, 2 running", counts)
	}
	shot := checkShot(t, ctx, "index-many")
	var table struct{ X, Y, W, H int }
	browser.Eval(t, ctx, `(function () { var r = document.getElementById('runs').getBoundingClientRect(); return {x: Math.round(r.x), y: Math.round(r.y), w: Math.round(r.width), h: Math.round(r.height)}; })()`, &table)
	if table.H < 5*20 || shot.InkedIn(table.X, table.Y, table.W, table.H) < 0.02 {
		t.Errorf("the runs' table %+v is not drawn", table)
	}

	// Live: the run at work completes, and a new run is applied.
	done, _ := finishedClean("docs-live")
	f.set(done)
	browser.WaitFor(t, ctx, `document.querySelector('#runs-body tr[data-run="docs-live"]').dataset.result === 'Passed'`, 10*time.Second)
	f.set(inProgress("docs-new"))
	browser.WaitFor(t, ctx, `!!document.querySelector('#runs-body tr[data-run="docs-new"]')`, 10*time.Second)
	if text := browser.Text(t, ctx); !strings.Contains(text, "6") {
		t.Errorf("the index does not count the new run:\n%s", text)
	}
}

// TestIndexWithOneRun: one run is one row; its link opens its page, and
// the run page without a name shows the only run.
func TestIndexWithOneRun(t *testing.T) {
	ctx := browser.Start(t)
	r, audits := finishedClean("quickstart")
	f := newFixture(r)
	f.audits["quickstart"] = audits
	url := f.serve(t, "/")
	open(t, ctx, url)
	browser.WaitFor(t, ctx, `document.querySelectorAll('#runs-body tr[data-run]').length === 1`, 10*time.Second)
	checkShot(t, ctx, "index-one")
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#runs-body tr[data-run="quickstart"] a`))); err != nil {
		t.Fatal(err)
	}
	browser.WaitFor(t, ctx, `location.pathname === '/run' && document.getElementById('run-name').textContent === 'quickstart' && document.querySelectorAll('#tutorial pre[data-mark]').length === 5`, 10*time.Second)

	base := strings.SplitN(url, "/?", 2)[0]
	open(t, ctx, base+"/run")
	browser.WaitFor(t, ctx, `location.search === '?name=quickstart' && document.getElementById('phase').dataset.phase === 'Completed'`, 10*time.Second)
}
