// SMILE dashboard: what the index and the run page share. Text from runs
// (names, messages, questions) is always set with textContent: data, never
// markup. The only HTML the pages insert is what the server rendered from
// Markdown with goldmark's safe renderer (no raw HTML, no script links).
var smile = (function () {
  'use strict';

  var byId = function (id) { return document.getElementById(id); };

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

  // age says how long ago ts was, as kubectl does: 45s, 5m12s, 3h4m, 2d3h.
  function age(ts) {
    var t = new Date(ts).getTime();
    if (!ts || isNaN(t) || t <= 0) return '–';
    var s = Math.max(0, Math.floor((Date.now() - t) / 1000));
    if (s < 60) return s + 's';
    var m = Math.floor(s / 60);
    if (m < 60) return m + 'm' + (s % 60 ? (s % 60) + 's' : '');
    var hr = Math.floor(m / 60);
    if (hr < 24) return hr + 'h' + (m % 60 ? (m % 60) + 'm' : '');
    return Math.floor(hr / 24) + 'd' + (hr % 24 ? (hr % 24) + 'h' : '');
  }

  // seconds says a duration in milliseconds: 40 ms, 1.2 s, 3m4s.
  function seconds(ms) {
    if (ms < 1000) return ms + ' ms';
    if (ms < 60000) return (ms / 1000).toFixed(1) + ' s';
    return Math.floor(ms / 60000) + 'm' + Math.round((ms % 60000) / 1000) + 's';
  }

  function getJSON(url) {
    return fetch(url, { cache: 'no-store', credentials: 'same-origin' }).then(function (res) {
      return res.json().catch(function () { return {}; }).then(function (body) {
        if (!res.ok) throw new Error(body.error || ('GET ' + url + ': ' + res.status));
        return body;
      });
    });
  }

  var actionToken = null;

  // post calls one of the control API's run actions with the session's
  // action token.
  function post(url) {
    var token = actionToken ? Promise.resolve(actionToken) : getJSON('/api/session').then(function (s) {
      actionToken = s.actionToken;
      return actionToken;
    });
    return token.then(function (t) {
      return fetch(url, { method: 'POST', credentials: 'same-origin', headers: { 'X-Smile-Action': t, 'Content-Type': 'application/json' }, body: '{}' });
    }).then(function (res) {
      return res.json().catch(function () { return {}; }).then(function (body) {
        if (!res.ok) throw new Error(body.error || ('POST ' + url + ': ' + res.status));
        return body;
      });
    });
  }

  // live keeps a WebSocket open, reconnecting with backoff.
  function live(path, onEvent, onState) {
    var retry = 500;
    function connect() {
      var proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
      var ws = new WebSocket(proto + '//' + location.host + path);
      ws.onopen = function () { retry = 500; onState('live', 'live'); };
      ws.onmessage = function (m) {
        var msg;
        try { msg = JSON.parse(m.data); } catch (e) { return; }
        onEvent(msg.event, msg.payload || {});
      };
      ws.onclose = function () {
        onState('reconnecting', 'disconnected, retrying');
        setTimeout(connect, retry);
        retry = Math.min(retry * 2, 5000);
      };
    }
    connect();
  }

  function setConnection(state, label) {
    var el = byId('connection');
    if (!el) return;
    el.setAttribute('data-state', state);
    el.textContent = label || state;
  }

  function runURL(name) { return '/run?name=' + encodeURIComponent(name); }

  return { byId: byId, h: h, clock: clock, age: age, seconds: seconds, getJSON: getJSON, post: post, live: live, setConnection: setConnection, runURL: runURL };
}());
