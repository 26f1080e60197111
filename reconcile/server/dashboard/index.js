// SMILE dashboard, the index: every run of the workspace, live from /ws/runs.
(function () {
  'use strict';
  var h = smile.h, byId = smile.byId;
  var rows = new Map(); // name -> row

  function cell(cls, content) { return h('td', { class: cls }, content); }

  function render() {
    var body = byId('runs-body');
    body.textContent = '';
    var names = Array.from(rows.keys()).sort();
    var running = 0;
    names.forEach(function (name) {
      var r = rows.get(name);
      var result = r.terminal ? r.result : 'running';
      if (!r.terminal) running++;
      var phase = r.phase || 'Pending';
      body.appendChild(h('tr', { 'data-run': name, 'data-phase': phase, 'data-result': result },
        h('th', { scope: 'row', class: 'name' }, h('a', { href: smile.runURL(name) }, name)),
        cell('phase', h('span', { class: 'badge', 'data-phase': phase }, phase)),
        cell('result', h('span', { class: 'badge result', 'data-result': result, title: r.message || '' }, result)),
        cell('coverage', r.coverage + (r.coveragePercent >= 0 ? ' (' + r.coveragePercent + '%)' : '')),
        cell('gaps', String(r.gaps)),
        cell('iteration', r.iteration ? String(r.iteration) : '–'),
        cell('age', h('time', { datetime: r.createdAt, 'data-age': r.createdAt }, smile.age(r.createdAt)))));
      if (r.error) body.appendChild(h('tr', { class: 'row-error' }, h('td', { colspan: 7 }, 'Error: ' + r.error)));
    });
    byId('run-count').textContent = String(names.length);
    byId('running-count').textContent = String(running);
    byId('runs-empty').hidden = names.length > 0;
    byId('runs').hidden = names.length === 0;
    document.title = 'SMILE · ' + names.length + ' run' + (names.length === 1 ? '' : 's');
  }

  smile.live('/ws/runs', function (event, p) {
    if (event === 'runs') {
      rows = new Map();
      (p.runs || []).forEach(function (r) { rows.set(r.name, r); });
    } else if (event === 'run') {
      rows.set(p.name, p);
    }
    render();
  }, smile.setConnection);

  setInterval(function () {
    document.querySelectorAll('time[data-age]').forEach(function (t) { t.textContent = smile.age(t.getAttribute('data-age')); });
  }, 5000);
}());
