// SMILE dashboard, one run: the tutorial rendered with every code block's
// mark, gaps beside their lines, the questions and the Mentor's notes, live
// from the controller's /ws events. Text from the run is set with
// textContent; the only HTML inserted is what the server rendered from
// Markdown with goldmark's safe renderer (the tutorial, the Mentor's notes).
(function () {
  'use strict';
  var h = smile.h, byId = smile.byId, clock = smile.clock;
  var params = new URLSearchParams(location.search);

  var view = { name: params.get('name') || '', gaps: new Map(), maxIterations: 0, terminal: false, phase: '',
    generation: 0, currentLine: 0, steps: [], viewTimer: null, epoch: 0, pending: null };

  var markLabels = { passed: 'passed', failed: 'failed', run: 'run', running: 'running now', skipped: 'skipped',
    not_reached: 'not reached', pending: 'not run yet', unknown: 'not recorded' };

  function lineLink(line, label) { return h('a', { href: '#L' + line }, label || 'line ' + line); }

  // --- header ---------------------------------------------------------------

  function setPhase(phase, status, terminal) {
    view.phase = phase || '';
    view.terminal = !!terminal;
    var el = byId('phase');
    el.textContent = phase || 'Pending';
    el.setAttribute('data-phase', phase || '');
    var st = byId('status');
    var value = terminal ? status : 'running';
    st.textContent = value.replace(/_/g, ' ');
    st.setAttribute('data-status', value);
    document.title = 'SMILE ' + view.name + ' · ' + (terminal ? value : (phase || 'Pending'));
    byId('stop').disabled = !!terminal;
    byId('rerun').disabled = !terminal;
    renderGapsEmpty();
    renderNotesEmpty();
  }

  function setIteration(n) {
    byId('iteration').textContent = n ? (view.maxIterations ? n + ' of ' + view.maxIterations : String(n)) : '–';
  }

  function setGeneration(g) { view.generation = g || 0; byId('generation').textContent = g ? String(g) : '–'; }

  function setSummary(text) { byId('summary').textContent = text || ''; }

  function showError(message) {
    var el = byId('error');
    el.textContent = message ? 'Error: ' + message : '';
    el.hidden = !message;
  }

  // --- the tutorial's blocks ---------------------------------------------------

  // blockFor is the element a line belongs to: the code block holding it,
  // else the last top-level block starting at or above it.
  function blockFor(line) {
    var code = null, top = null;
    document.querySelectorAll('#tutorial pre.code-block[data-line]').forEach(function (el) {
      var l = +el.getAttribute('data-line'), end = +el.getAttribute('data-end-line') || l;
      if (line >= l && line <= end) code = el;
    });
    var kids = byId('tutorial').children;
    for (var i = 0; i < kids.length; i++) {
      var l = +kids[i].getAttribute('data-line');
      if (l && l <= line) top = kids[i];
    }
    return code || top;
  }

  function goToLine(line, push) {
    var el = blockFor(line);
    if (!el) return false;
    if (push) history.pushState(null, '', '#L' + line);
    el.scrollIntoView({ block: 'center' });
    document.querySelectorAll('#tutorial .flash').forEach(function (x) { x.classList.remove('flash'); });
    el.classList.add('flash');
    return true;
  }

  document.addEventListener('click', function (ev) {
    var a = ev.target.closest && ev.target.closest('a[href^="#L"]');
    if (!a) return;
    var line = +a.getAttribute('href').slice(2);
    if (line && goToLine(line, true)) ev.preventDefault();
  });

  function loadTutorial() {
    var url = '/api/tutorial?name=' + encodeURIComponent(view.name);
    return smile.getJSON(url).then(function (t) {
      var box = byId('tutorial');
      box.innerHTML = t.html; // goldmark's safe rendering: no raw HTML, no script links
      box.setAttribute('data-lines', String(t.lineCount));
      byId('tutorial-path').textContent = t.path;
      box.querySelectorAll('[data-line]').forEach(function (el) { el.id = 'L' + el.getAttribute('data-line'); });
      placeReading(t.reading || []);
      decorate();
      var m = /^#L(\d+)$/.exec(location.hash);
      if (m) goToLine(+m[1], false);
    }).catch(function (err) {
      byId('tutorial').textContent = 'Could not load the tutorial: ' + err.message;
    });
  }

  // decorate puts on the rendered tutorial what the run says of it.
  function decorate() { applyMarks(); placeGaps(); markCurrentLine(view.currentLine); }

  // --- the reading: how the literal Student reads each block (smile plan) ----

  var actionLabels = { run: 'run', input: 'typed into', background: 'started in the background', write: 'written to',
    compare: 'compared as output', skip: 'skipped', omit: 'left out', ambiguous: 'not placed', try: 'tried alone', image: 'image' };

  // placeReading puts after each block (or paragraph, for a command in the
  // prose) what `smile plan` says of it: the action, its target, why, and
  // the rules the reading rests on. It is the page's reading, not the
  // run's outcome: the marks say what happened.
  function placeReading(readings) {
    document.querySelectorAll('#tutorial .reading').forEach(function (n) { n.remove(); });
    var groups = [], byEl = new Map();
    readings.forEach(function (r) {
      var el = blockFor(r.line);
      if (!el) return;
      if (!byEl.has(el)) { byEl.set(el, []); groups.push(el); }
      byEl.get(el).push(r);
    });
    groups.forEach(function (el) {
      var rs = byEl.get(el);
      var actions = [];
      rs.forEach(function (r) { var a = actionLabels[r.action] || r.action; if (actions.indexOf(a) < 0) actions.push(a); });
      var list = h('ul', {});
      rs.forEach(function (r) {
        var rules = (r.evidence || []).map(function (e) { return e.rule; }).filter(function (x, i, a) { return x && a.indexOf(x) === i; });
        list.appendChild(h('li', { 'data-action': r.action, 'data-reading-step': r.line },
          h('a', { href: '#L' + r.line }, 'line ' + r.line), ' ',
          h('strong', {}, actionLabels[r.action] || r.action),
          r.target ? h('code', {}, r.target) : null,
          (r.flags || []).length ? ' (' + r.flags.join(', ') + ')' : '',
          r.why ? h('span', { class: 'why' }, ' — ' + r.why) : null,
          rules.length ? h('span', { class: 'rules' }, ' [' + rules.join(', ') + ']') : null));
      });
      var box = h('details', { class: 'reading', 'data-reading-line': el.getAttribute('data-line') },
        h('summary', {}, 'SMILE reads: ' + actions.join(', ')), list);
      el.parentNode.insertBefore(box, el.nextSibling);
    });
  }

  // --- marks ---------------------------------------------------------------------

  function applyMarks() {
    document.querySelectorAll('#tutorial .mark').forEach(function (m) { m.remove(); });
    document.querySelectorAll('#tutorial [data-mark]').forEach(function (el) { el.removeAttribute('data-mark'); });
    var counts = {};
    view.steps.forEach(function (s) {
      var el = document.querySelector('#tutorial pre.code-block[data-line="' + s.line + '"]') || blockFor(s.line);
      if (!el) return;
      counts[s.mark] = (counts[s.mark] || 0) + 1;
      el.setAttribute('data-mark', s.mark);
      var text = markLabels[s.mark] || s.mark;
      if (s.reason) text += ': ' + s.reason;
      if (s.commands) text += ' · ' + smile.seconds(s.durationMs);
      el.parentNode.insertBefore(h('div', { class: 'mark', 'data-mark': s.mark, 'data-step-line': s.line,
        'data-duration-ms': s.commands ? s.durationMs : null }, text), el);
    });
    byId('steps-summary').textContent = Object.keys(markLabels).filter(function (k) { return counts[k]; })
      .map(function (k) { return counts[k] + ' ' + markLabels[k]; }).join(', ');
  }

  function markCurrentLine(line) {
    document.querySelectorAll('#tutorial .current').forEach(function (x) { x.classList.remove('current'); });
    view.currentLine = line || 0;
    var el = line && !view.terminal ? blockFor(line) : null;
    if (el) el.classList.add('current');
  }

  function setStep(step, line, where) {
    var el = byId('current-step');
    el.textContent = '';
    el.setAttribute('data-line', line || '');
    if (where) el.appendChild(h('span', { class: 'where' }, where));
    el.appendChild(h('span', { class: 'step' }, step || ''));
    if (line) { el.appendChild(document.createTextNode(' ')); el.appendChild(lineLink(line, '(line ' + line + ')')); }
    markCurrentLine(line);
  }

  // showView draws what the controller says of the run beside the
  // tutorial: the marks, the exchanges, the coverage.
  function showView(v) {
    view.steps = v.steps || [];
    applyMarks();
    markCurrentLine(view.currentLine);
    renderNotes(v.exchanges || []);
    byId('coverage').textContent = v.coverage ? v.coverage.replace(/^SMILE exercised /, '') : '–';
  }

  // refreshView reads the view again, once for a burst of events. The
  // transition that ends the run brings its own (its phase event's); a read
  // that started before one arrived is dropped, being older.
  function refreshView() {
    clearTimeout(view.viewTimer);
    view.viewTimer = setTimeout(function () {
      var epoch = view.epoch;
      smile.getJSON('/api/view?name=' + encodeURIComponent(view.name)).then(function (v) {
        if (epoch === view.epoch) showView(v);
      }).catch(function () {});
    }, 150);
  }

  function pushedView(v) {
    if (!v) return;
    view.epoch++;
    clearTimeout(view.viewTimer);
    showView(v);
  }

  // --- gaps -------------------------------------------------------------------------

  function gapKey(g) { return g.location.lineNumber + ':' + g.category; }

  function sortedGaps() {
    return Array.from(view.gaps.values()).sort(function (a, b) {
      return a.location.lineNumber - b.location.lineNumber || (a.category < b.category ? -1 : a.category > b.category ? 1 : 0);
    });
  }

  function renderGaps() {
    var list = byId('gaps');
    list.textContent = '';
    var gaps = sortedGaps();
    gaps.forEach(function (g, i) {
      var line = g.location.lineNumber;
      list.appendChild(h('li', { class: 'gap-item', id: 'gap-' + line + '-' + g.category, 'data-gap-id': g.id || i + 1,
        'data-gap-line': line, 'data-gap-category': g.category, 'data-severity': g.severity },
        h('p', null, h('span', { class: 'sev' }, g.severity), ' ', lineLink(line), ' ', h('strong', null, g.title || g.category)),
        g.location.quote ? h('p', null, h('code', null, g.location.quote)) : null,
        g.problem ? h('p', null, g.problem) : null,
        g.suggestedFix ? h('p', { class: 'fix' }, 'Fix: ' + g.suggestedFix) : null));
    });
    byId('gap-count').textContent = String(gaps.length);
    renderGapsEmpty();
    placeGaps();
  }

  // renderGapsEmpty says why there is no gap: none yet, or none at all in a
  // finished run.
  function renderGapsEmpty() {
    var el = byId('gaps-empty');
    el.hidden = view.gaps.size > 0;
    if (!view.terminal) el.textContent = 'No gaps yet.';
    else if (view.phase === 'Completed') el.textContent = 'No gaps: the Student followed the whole tutorial and found nothing to fix.';
    else el.textContent = 'No gaps found before the run ended (' + view.phase + ').';
    el.setAttribute('data-final', view.terminal ? 'true' : 'false');
  }

  // placeGaps puts each gap beside its block in the tutorial.
  function placeGaps() {
    document.querySelectorAll('#tutorial .gap-note').forEach(function (n) { n.remove(); });
    document.querySelectorAll('#tutorial .has-gap').forEach(function (el) {
      el.classList.remove('has-gap');
      el.removeAttribute('data-severity');
      el.removeAttribute('data-gap-lines');
    });
    var rank = { critical: 3, major: 2, minor: 1 };
    sortedGaps().forEach(function (g) {
      var line = g.location.lineNumber;
      var el = blockFor(line);
      if (!el) return;
      if (!el.classList.contains('has-gap') || (rank[g.severity] || 0) > (rank[el.getAttribute('data-severity')] || 0)) {
        el.setAttribute('data-severity', g.severity);
      }
      el.classList.add('has-gap');
      el.setAttribute('data-gap-lines', ((el.getAttribute('data-gap-lines') || '') + ' ' + line).trim());
      var notes = el.nextSibling;
      while (notes && notes.classList && notes.classList.contains('gap-note')) notes = notes.nextSibling;
      el.parentNode.insertBefore(h('aside', { class: 'gap-note', 'data-gap-line': line, 'data-severity': g.severity },
        h('span', { class: 'sev' }, g.severity), ' ', lineLink(line), ': ',
        h('a', { href: '#gap-' + line + '-' + g.category }, g.title || g.category)), notes);
    });
  }

  // --- questions and notes -------------------------------------------------------------

  function renderNotes(exchanges) {
    var list = byId('notes');
    list.textContent = '';
    exchanges.forEach(function (e) {
      var who = e.carried ? 'Student (an earlier generation)' : 'Student (iteration ' + e.iteration + ')';
      var q = h('p', { class: 'question' }, h('span', { class: 'who' }, who + (e.line ? ', ' : ': ')));
      if (e.line) { q.appendChild(lineLink(e.line)); q.appendChild(document.createTextNode(': ')); }
      q.appendChild(document.createTextNode(e.question || ''));
      var li = h('li', { 'data-iteration': e.iteration, 'data-line': e.line || null, 'data-carried': e.carried ? 'true' : null }, q);
      if (e.answerHtml) {
        var a = li.appendChild(h('div', { class: 'answer' }, h('span', { class: 'who' }, 'Mentor:')));
        a.appendChild(h('div', { class: 'markdown' })).innerHTML = e.answerHtml; // goldmark's safe rendering
      } else if (e.answer) {
        li.appendChild(h('div', { class: 'answer' }, h('span', { class: 'who' }, 'Mentor:'), h('p', { class: 'plain' }, e.answer)));
      } else if (e.waiting) {
        li.appendChild(h('p', { class: 'answer pending' }, 'Waiting for the Mentor…'));
      } else {
        li.appendChild(h('p', { class: 'answer none' }, 'No answer: the run ended first.'));
      }
      list.appendChild(li);
    });
    byId('notes-empty').hidden = exchanges.length > 0;
  }

  function renderNotesEmpty() {
    byId('notes-empty').textContent = view.terminal ? 'The Student asked the Mentor nothing.' : 'The Student has not asked anything yet.';
  }

  // --- timeline and report ------------------------------------------------------------------

  function addTimeline(e) {
    var list = byId('timeline');
    list.appendChild(h('li', { 'data-event': e.event, 'data-iteration': e.iteration },
      h('time', { datetime: e.timestamp }, clock(e.timestamp)), h('span', { class: 'ev' }, e.event), e.details || ''));
    list.scrollTop = list.scrollHeight;
  }

  function showReport(r) {
    var list = byId('report');
    list.textContent = '';
    [['Markdown', r.markdown, 'markdown'], ['JSON', r.json, 'json'], ['Audit log', r.auditLog, 'audit']].forEach(function (p) {
      if (!p[1]) return;
      var href = '/api/report?file=' + p[2] + '&name=' + encodeURIComponent(view.name);
      list.appendChild(h('li', { 'data-report': p[2] }, h('a', { href: href, target: '_blank', rel: 'noopener' }, p[0]), ': ', h('code', null, p[1])));
    });
    byId('report-panel').hidden = list.children.length === 0;
  }

  // --- actions ----------------------------------------------------------------------------------

  function act(what, button) {
    var out = byId('action-result');
    button.disabled = true;
    out.textContent = what === 'stop' ? 'Stopping…' : 'Starting again…';
    smile.post('/api/runs/' + encodeURIComponent(view.name) + '/' + what).then(function () {
      out.textContent = what === 'stop' ? 'Stop requested: the run ends after its current step.' : 'Run again as a new generation.';
      out.setAttribute('data-action', what);
    }).catch(function (err) {
      out.textContent = 'Could not ' + what + ': ' + err.message;
      button.disabled = false;
    });
  }
  byId('stop').addEventListener('click', function () { act('stop', byId('stop')); });
  byId('rerun').addEventListener('click', function () { act('rerun', byId('rerun')); });

  // --- events ----------------------------------------------------------------------------------------

  function applySnapshot(s) {
    view.name = s.name || view.name;
    view.maxIterations = s.maxIterations || 0;
    byId('run-name').textContent = view.name;
    setPhase(s.phase, s.state.status, s.terminal);
    setIteration(s.iteration);
    setGeneration(s.generation);
    setSummary(s.message);
    showError(s.phase === 'Error' ? s.message : s.lastError);
    view.gaps = new Map();
    (s.gaps || []).forEach(function (g) { view.gaps.set(gapKey(g), g); });
    renderGaps();
    byId('timeline').textContent = '';
    (s.timeline || []).forEach(addTimeline);
    if (s.progress && !s.terminal) {
      setStep(s.progress.step, s.progress.line, clock(s.progress.at));
    } else {
      var hist = s.state.history || [];
      if (hist.length) setStep(hist[hist.length - 1].studentOutput.currentStep, s.terminal ? 0 : hist[hist.length - 1].studentOutput.line);
      else setStep(s.attempt ? 'The ' + s.attempt.role + ' is starting…' : 'Waiting for the Student…', 0);
    }
    if (s.report) showReport(s.report); else byId('report-panel').hidden = true;
    view.pending = s.view || null;
    view.epoch++;
    loadTutorial().then(function () { if (view.pending) showView(view.pending); else refreshView(); });
  }

  var handlers = {
    connected: applySnapshot,
    snapshot: applySnapshot,
    phase: function (p) {
      setPhase(p.phase, p.status, p.terminal);
      setIteration(p.iteration);
      setGeneration(p.generation);
      setSummary(p.message);
      if (p.view) { view.pending = p.view; pushedView(p.view); } else refreshView();
    },
    timeline: addTimeline,
    iteration_start: function (p) { setIteration(p.iteration); setStep('Iteration ' + p.iteration + ' started', 0, clock(p.timestamp)); },
    progress: function (p) { setStep(p.step, p.line, clock(p.at)); refreshView(); },
    student_output: function (p) { setStep(p.currentStep, p.line, p.status.replace(/_/g, ' ') + ':'); },
    gap: function (g) { view.gaps.set(gapKey(g), g); renderGaps(); },
    mentor_output: function () {},
    error: function (p) { showError(p.message); },
    loop_complete: function (p) {
      setPhase(p.phase, p.status, true);
      setIteration(p.iterations);
      setSummary(p.summary);
      markCurrentLine(0);
      if (p.status !== 'error') showError('');
    },
    report: showReport
  };

  function start() {
    byId('run-name').textContent = view.name;
    var q = '?name=' + encodeURIComponent(view.name);
    smile.live('/ws' + q, function (event, p) { var fn = handlers[event]; if (fn) fn(p); }, smile.setConnection);
  }

  // Without a name, the only run; with several, the index names them.
  if (view.name) {
    start();
  } else {
    smile.getJSON('/api/runs').then(function (r) {
      if ((r.runs || []).length === 1) {
        view.name = r.runs[0].name;
        history.replaceState(null, '', smile.runURL(view.name) + location.hash);
        start();
      } else {
        location.replace('/');
      }
    }).catch(function (err) { showError(err.message); });
  }
}());
