// SMILE dashboard: draws a run from the controller's /ws events.
// Everything is rendered with textContent: the tutorial and the Student's
// words are data, never markup.
(function () {
  'use strict';

  var byId = function (id) { return document.getElementById(id); };
  var params = new URLSearchParams(location.search);
  var runName = params.get('name') || '';

  var view = {
    name: runName,
    tutorialPath: null,
    gaps: new Map(),       // "line:category" -> gap
    maxIterations: 0,
    currentLine: 0,
    retry: 500
  };

  // h builds an element: h('li', {class: 'x', 'data-line': 3}, child, 'text').
  function h(tag, attrs) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (attrs[k] !== undefined && attrs[k] !== null && attrs[k] !== false) e.setAttribute(k, String(attrs[k]));
    });
    for (var i = 2; i < arguments.length; i++) {
      var c = arguments[i];
      if (c === null || c === undefined || c === '') continue;
      e.appendChild(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c);
    }
    return e;
  }

  function clock(ts) {
    var d = new Date(ts);
    return isNaN(d) ? '' : d.toLocaleTimeString([], { hour12: false });
  }

  function lineLink(line, label) {
    return h('a', { href: '#L' + line, 'data-goto-line': line }, label || 'line ' + line);
  }

  // --- header -------------------------------------------------------------

  function setPhase(phase, status, terminal) {
    var el = byId('phase');
    el.textContent = phase || 'Pending';
    el.setAttribute('data-phase', phase || '');
    var st = byId('status');
    var value = terminal ? status : 'running';
    st.textContent = value.replace(/_/g, ' ');
    st.setAttribute('data-status', value);
    document.title = 'SMILE ' + (view.name || '') + ' · ' + (terminal ? value : (phase || 'Pending'));
  }

  function setIteration(n) {
    byId('iteration').textContent = n ? (view.maxIterations ? n + ' of ' + view.maxIterations : String(n)) : '–';
  }

  function setGeneration(g) { byId('generation').textContent = g ? String(g) : '–'; }

  function setSummary(text) { byId('summary').textContent = text || ''; }

  function showError(message) {
    var el = byId('error');
    el.textContent = message ? 'Error: ' + message : '';
    el.hidden = !message;
  }

  function setConnection(state, label) {
    var el = byId('connection');
    el.setAttribute('data-state', state);
    el.textContent = label || state;
  }

  // --- current step -------------------------------------------------------

  function setStep(step, line, where) {
    var el = byId('current-step');
    el.textContent = '';
    el.setAttribute('data-line', line || '');
    if (where) el.appendChild(h('span', { class: 'where' }, where));
    el.appendChild(h('span', { class: 'step' }, step || ''));
    if (line) { el.appendChild(document.createTextNode(' ')); el.appendChild(lineLink(line, '(line ' + line + ')')); }
    markCurrentLine(line);
  }

  function markCurrentLine(line) {
    var old = document.querySelector('#tutorial .line.current');
    if (old) old.classList.remove('current');
    view.currentLine = line || 0;
    if (line) {
      var el = byId('L' + line);
      if (el) el.classList.add('current');
    }
  }

  // --- gaps ---------------------------------------------------------------

  function gapKey(g) { return g.location.lineNumber + ':' + g.category; }

  function putGap(g) {
    view.gaps.set(gapKey(g), g);
    renderGaps();
  }

  function renderGaps() {
    var list = byId('gaps');
    list.textContent = '';
    var gaps = Array.from(view.gaps.values()).sort(function (a, b) {
      return a.location.lineNumber - b.location.lineNumber || (a.category < b.category ? -1 : a.category > b.category ? 1 : 0);
    });
    gaps.forEach(function (g, i) {
      var line = g.location.lineNumber;
      var li = h('li', {
        class: 'gap-item', id: 'gap-' + line + '-' + g.category,
        'data-gap-line': line, 'data-gap-category': g.category, 'data-severity': g.severity
      },
        h('p', null, h('span', { class: 'sev' }, g.severity), ' ', lineLink(line), ' ', h('strong', null, g.title || g.category)),
        g.location.quote ? h('p', null, h('code', null, g.location.quote)) : null,
        g.problem ? h('p', null, g.problem) : null,
        g.suggestedFix ? h('p', { class: 'fix' }, 'Fix: ' + g.suggestedFix) : null);
      li.setAttribute('data-gap-id', g.id || i + 1);
      list.appendChild(li);
    });
    byId('gap-count').textContent = String(gaps.length);
    byId('gaps-empty').hidden = gaps.length > 0;
    highlightGapLines();
  }

  function highlightGapLines() {
    document.querySelectorAll('#tutorial .line.has-gap').forEach(function (el) {
      el.classList.remove('has-gap');
      el.removeAttribute('data-severity');
      el.removeAttribute('data-gap-line');
      var m = el.querySelector('.gap-marker');
      if (m) m.remove();
    });
    var rank = { critical: 3, major: 2, minor: 1 };
    view.gaps.forEach(function (g) {
      var line = g.location.lineNumber;
      var el = byId('L' + line);
      if (!el) return;
      var worse = !el.classList.contains('has-gap') || (rank[g.severity] || 0) > (rank[el.getAttribute('data-severity')] || 0);
      el.classList.add('has-gap');
      el.setAttribute('data-gap-line', line);
      if (worse) el.setAttribute('data-severity', g.severity);
      el.querySelector('.src').appendChild(h('a', {
        class: 'gap-marker', href: '#gap-' + line + '-' + g.category, title: g.title || g.category
      }, g.severity + ' gap'));
    });
  }

  // --- questions and notes --------------------------------------------------

  function noteItem(iteration) {
    var li = document.querySelector('#notes li[data-iteration="' + iteration + '"]');
    if (!li) {
      li = h('li', { 'data-iteration': iteration });
      byId('notes').appendChild(li);
      byId('notes-empty').hidden = true;
    }
    return li;
  }

  function putQuestion(iteration, question, line) {
    if (!question) return;
    var li = noteItem(iteration);
    var q = li.querySelector('.question') || li.insertBefore(h('p', { class: 'question' }), li.firstChild);
    q.textContent = '';
    q.appendChild(h('span', { class: 'who' }, 'Student (iteration ' + iteration + ')' + (line ? ', ' : ': ')));
    if (line) { q.appendChild(lineLink(line)); q.appendChild(document.createTextNode(': ')); }
    q.appendChild(document.createTextNode(question));
    if (!li.querySelector('.answer')) li.appendChild(h('p', { class: 'answer pending' }, 'Waiting for the Mentor…'));
  }

  // putAnswer shows a Mentor's notes: as the server rendered them from
  // Markdown (goldmark's safe renderer: no raw HTML, no script links), or as
  // text when there is no rendering.
  function putAnswer(n, html) {
    var li = noteItem(n.iteration);
    if (n.question && !li.querySelector('.question')) putQuestion(n.iteration, n.question, n.line);
    var old = li.querySelector('.answer');
    if (old) li.removeChild(old);
    var a = li.appendChild(h('div', { class: 'answer' }, h('span', { class: 'who' }, 'Mentor:')));
    html = html || n.notesHtml;
    if (html) {
      var body = a.appendChild(h('div', { class: 'markdown' }));
      body.innerHTML = html;
    } else {
      a.appendChild(h('p', { class: 'plain' }, n.notes || n.answer || ''));
    }
  }

  // --- timeline -------------------------------------------------------------

  function addTimeline(e) {
    var list = byId('timeline');
    list.appendChild(h('li', { 'data-event': e.event, 'data-iteration': e.iteration },
      h('time', { datetime: e.timestamp }, clock(e.timestamp)),
      h('span', { class: 'ev' }, e.event), e.details || ''));
    list.scrollTop = list.scrollHeight;
  }

  // --- report ---------------------------------------------------------------

  function showReport(r) {
    var list = byId('report');
    list.textContent = '';
    [['Markdown', r.markdown, 'markdown'], ['JSON', r.json, 'json'], ['Audit log', r.auditLog, 'audit']].forEach(function (p) {
      if (!p[1]) return;
      var href = '/api/report?file=' + p[2] + (view.name ? '&name=' + encodeURIComponent(view.name) : '');
      list.appendChild(h('li', { 'data-report': p[2] }, h('a', { href: href, target: '_blank', rel: 'noopener' }, p[0]), ': ', h('code', null, p[1])));
    });
    byId('report-panel').hidden = list.children.length === 0;
  }

  // --- tutorial ---------------------------------------------------------------

  function loadTutorial(name) {
    var url = '/api/tutorial' + (name ? '?name=' + encodeURIComponent(name) : '');
    return fetch(url, { cache: 'no-store' }).then(function (res) {
      if (!res.ok) throw new Error('GET ' + url + ': ' + res.status);
      return res.json();
    }).then(renderTutorial).catch(function (err) {
      byId('tutorial').textContent = 'Could not load the tutorial: ' + err.message;
    });
  }

  function renderTutorial(t) {
    var box = byId('tutorial');
    var lines = t.content.split('\n');
    if (lines.length > t.lineCount) lines.length = t.lineCount;
    var frag = document.createDocumentFragment();
    lines.forEach(function (text, i) {
      var n = i + 1;
      frag.appendChild(h('div', { class: 'line', id: 'L' + n, 'data-line': n },
        h('a', { class: 'ln', href: '#L' + n, 'aria-label': 'line ' + n }, String(n)),
        h('span', { class: 'src' }, text.replace(/\r$/, ''))));
    });
    box.textContent = '';
    box.appendChild(frag);
    box.setAttribute('data-lines', String(t.lineCount));
    view.tutorialPath = t.path;
    byId('tutorial-path').textContent = t.path;
    highlightGapLines();
    markCurrentLine(view.currentLine);
    var m = /^#L(\d+)$/.exec(location.hash);
    if (m) goToLine(+m[1], false);
  }

  function goToLine(line, push) {
    var el = byId('L' + line);
    if (!el) return false;
    if (push) history.pushState(null, '', '#L' + line);
    el.scrollIntoView({ block: 'center' });
    document.querySelectorAll('#tutorial .line.flash').forEach(function (x) { x.classList.remove('flash'); });
    el.classList.add('flash');
    var ln = el.querySelector('.ln');
    if (ln) ln.focus({ preventScroll: true });
    return true;
  }

  // A link to a line scrolls the tutorial panel (which has its own scroll)
  // and marks the line, also when the hash is already #L<line>.
  document.addEventListener('click', function (ev) {
    var a = ev.target.closest && ev.target.closest('a[href^="#L"]');
    if (!a) return;
    var line = +a.getAttribute('href').slice(2);
    if (line && goToLine(line, true)) ev.preventDefault();
  });
  window.addEventListener('hashchange', function () {
    var m = /^#L(\d+)$/.exec(location.hash);
    if (m) goToLine(+m[1], false);
  });

  // --- events -----------------------------------------------------------------

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

    byId('notes').textContent = '';
    byId('notes-empty').hidden = false;
    (s.state.history || []).forEach(function (rec) {
      var o = rec.studentOutput;
      if (o.status === 'ask_mentor') putQuestion(rec.iteration, o.questionForMentor, o.line);
    });
    (s.state.mentorNotes || []).forEach(function (n, i) { putAnswer(n, (s.mentorNotesHtml || [])[i]); });

    byId('timeline').textContent = '';
    (s.timeline || []).forEach(addTimeline);

    if (s.progress) {
      setStep(s.progress.step, s.progress.line, clock(s.progress.at));
    } else {
      var hist = s.state.history || [];
      if (hist.length) {
        var last = hist[hist.length - 1].studentOutput;
        setStep(last.currentStep, last.line);
      } else {
        setStep(s.attempt ? 'The ' + s.attempt.role + ' is starting…' : 'Waiting for the Student…', 0);
      }
    }
    if (s.report) showReport(s.report); else byId('report-panel').hidden = true;
    loadTutorial(view.name);
  }

  var handlers = {
    connected: applySnapshot,
    snapshot: applySnapshot,
    phase: function (p) {
      setPhase(p.phase, p.status, p.terminal);
      setIteration(p.iteration);
      setGeneration(p.generation);
      setSummary(p.message);
    },
    timeline: addTimeline,
    iteration_start: function (p) {
      setIteration(p.iteration);
      setStep('Iteration ' + p.iteration + ' started', 0, clock(p.timestamp));
    },
    progress: function (p) { setStep(p.step, p.line, clock(p.at)); },
    student_output: function (p) {
      setStep(p.currentStep, p.line, p.status.replace(/_/g, ' ') + ':');
      if (p.status === 'ask_mentor') putQuestion(p.iteration, p.questionForMentor, p.line);
    },
    gap: putGap,
    mentor_output: function (p) { putAnswer(p); },
    error: function (p) { showError(p.message); },
    loop_complete: function (p) {
      setPhase(p.phase, p.status, true);
      setIteration(p.iterations);
      setSummary(p.summary);
      if (p.status !== 'error') showError('');
    },
    report: showReport
  };

  function connect() {
    var proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    var ws = new WebSocket(proto + '//' + location.host + '/ws' + (runName ? '?name=' + encodeURIComponent(runName) : ''));
    ws.onopen = function () { view.retry = 500; setConnection('live'); };
    ws.onmessage = function (m) {
      var msg;
      try { msg = JSON.parse(m.data); } catch (e) { return; }
      var fn = handlers[msg.event];
      if (fn) fn(msg.payload || {});
    };
    ws.onclose = function () {
      setConnection('reconnecting', 'disconnected, retrying');
      setTimeout(connect, view.retry);
      view.retry = Math.min(view.retry * 2, 5000);
    };
  }

  connect();
}());
