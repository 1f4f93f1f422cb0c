// urim's page: play, watch, replay and analyse games, follow training runs.
// Plain JavaScript, no build step; the server keeps no game state, so every
// request carries the game (rules, start, moves). docs/web.md has the API.
'use strict';

const $ = (sel) => document.querySelector(sel);
const el = (tag, cls, text) => {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// S is the page's state.
const S = {
  info: null,
  req: { rules: 'urim', moves: [] }, // the game request (gameRequest in the server)
  view: null,                         // the server's gameView of req
  cur: 0,                             // the position shown
  mode: 'play',                       // 'play' or 'replay'
  players: [null, null],              // agent spec of each seat, null for a person
  names: ['South', 'North'],
  seed: 1,
  analysis: null,                     // { spec, unit, plies: [], worst: [] }
  source: null,                       // replay source of the game, if any
  token: 0,                           // bumped by every new game, to drop stale agent answers
  busy: false,                        // an animation or an agent move is under way
  paused: false,
  sweep: null,                        // AbortController of the running sweep
  run: null, runTimer: null,
  single: null,                       // the last one-position analysis: { key, a, unit }
  kept: null,                         // a replayed record's { specs, seed, opening }
  searches: [],                       // searches[i]: the agent's own search for its move at position i { a, unit, spec }
};

// ---------- the API ----------

async function api(path, body) {
  const opt = body === undefined ? {} : {
    method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  };
  const res = await fetch(path, opt);
  let data = null;
  try { data = await res.json(); } catch (e) { data = null; }
  if (!res.ok) throw new Error((data && data.error) || (res.status + ' ' + res.statusText));
  return data;
}

function showError(err) {
  const box = $('#error');
  if (!err) { box.hidden = true; box.textContent = ''; return; }
  box.textContent = err.message || String(err);
  box.hidden = false;
}

// ---------- the board ----------

function P() { return S.view.rules.pits_per_row; }
function pos() { return S.view.positions[S.cur]; }
function lastIndex() { return S.view.positions.length - 1; }
function letter(pit) {
  const p = P();
  return pit < p ? String.fromCharCode(97 + pit) : String.fromCharCode(65 + pit - p);
}

// drawBoard draws pits (2P counts) and stores; marks is {pit: class}.
function drawBoard(pits, stores, marks, clickable) {
  const p = pits.length / 2;
  const board = $('#board');
  board.textContent = '';
  const store = (who, n, cls) => {
    const d = el('div', 'store ' + cls);
    d.dataset.store = who;
    d.append(el('span', 'count', String(n)), el('span', 'who', who));
    return d;
  };
  board.append(store('North', stores[1], 'north'));
  const north = el('div', 'row north');
  const south = el('div', 'row south');
  for (let k = 0; k < p; k++) {
    south.append(pitButton(k, pits[k], marks, clickable));
    north.append(pitButton(2 * p - 1 - k, pits[2 * p - 1 - k], marks, clickable));
  }
  board.append(north, south, store('South', stores[0], 'south'));
}

function pitButton(i, n, marks, clickable) {
  const b = el('button', 'pit');
  b.dataset.pit = i;
  b.dataset.count = n;
  b.append(el('span', 'letter', letter(i)), el('span', 'count', String(n)));
  const seeds = el('span', 'seeds');
  for (let k = 0; k < Math.min(n, 24); k++) seeds.append(el('span', 'seed'));
  b.append(seeds);
  if (marks && marks[i]) b.classList.add(...marks[i].split(' '));
  if (clickable && clickable.has(i)) {
    b.classList.add('legal');
    b.title = 'play ' + letter(i);
    b.addEventListener('click', () => playAction(i % P()));
  } else {
    b.disabled = true;
  }
  return b;
}

// humanToMove reports whether a person may move at the shown position.
function humanToMove() {
  const q = pos();
  return S.mode === 'play' && !q.terminal && S.players[q.player] === null && !S.busy;
}

function render() {
  if (!S.view) return;
  const q = pos();
  const p = P();
  const clickable = new Set();
  if (humanToMove()) for (const a of q.legal) clickable.add(q.player * p + a);
  const marks = {};
  if (q.trace) for (const i of q.trace.path.slice(-1)) marks[i] = 'lastmove';
  drawBoard(q.pits, q.stores, marks, clickable);
  $('#board').dataset.ply = S.cur;
  document.body.dataset.mode = S.mode;
  document.body.dataset.busy = S.busy;
  $('#board').dataset.legal = [...clickable].join(',');
  $('#ply').textContent = 'ply ' + S.cur + ' / ' + lastIndex();
  $('#players').textContent = '';
  $('#players').append(el('span', '', 'North: ' + S.names[1]), el('span', '', 'South: ' + S.names[0]));
  renderStatus();
  renderMoves();
  renderPlyAnalysis();
  drawGraph();
  $('#undo').disabled = S.mode !== 'play' || S.req.moves.length === 0;
  $('#pause').hidden = !(S.mode === 'play' && S.players[0] !== null && S.players[1] !== null && !S.view.positions[lastIndex()].terminal);
  $('#pause').textContent = S.paused ? 'Go on' : 'Pause';
  if (S.info && S.info.tablebase) probeTable();
}

function renderStatus() {
  const q = pos();
  const who = ['South', 'North'];
  const res = $('#result');
  const end = S.view.positions[lastIndex()];
  if (end.terminal) {
    const mp = end.match_points;
    const w = end.winner === -1 ? 'A draw' : who[end.winner] + ' (' + S.names[end.winner] + ') wins';
    res.textContent = w + ', ' + end.stores[0] + '–' + end.stores[1] + ' in seeds (' + end.reason.replace(/_/g, ' ') +
      ' after ' + lastIndex() + ' plies); match points ' + mp[0] + '–' + mp[1] + '.';
    res.hidden = false;
    res.dataset.winner = end.winner;
  } else {
    res.hidden = true;
  }
  let text;
  if (q.terminal) text = 'The game is over.';
  else {
    text = who[q.player] + ' (' + S.names[q.player] + ') to move';
    if (S.cur !== lastIndex()) text += ' — viewing ply ' + S.cur + (S.mode === 'play' ? '; a move here starts a new line' : '');
    else if (S.mode === 'play' && S.players[q.player] !== null) text += S.paused ? ' (paused)' : ' — thinking…';
  }
  $('#status').textContent = text;
}

function renderMoves() {
  const ol = $('#moves');
  ol.textContent = '';
  const worst = new Set((S.analysis && S.analysis.worst) || []);
  S.view.positions.forEach((q, i) => {
    if (i === 0) return;
    const prev = S.view.positions[i - 1];
    const li = el('li', '', i + '. ' + letter(prev.player * P() + q.action) + (q.trace && q.trace.taken ? '×' + q.trace.taken : ''));
    li.dataset.ply = i;
    if (worst.has(i - 1)) { li.classList.add('worst'); li.textContent += '?'; li.title = 'one of the worst moves by the analysis'; }
    if (i === S.cur) li.classList.add('current');
    li.addEventListener('click', () => goTo(i));
    ol.append(li);
  });
}

// ---------- moves and animation ----------

function speed() { return Number($('#speed').value); }

// animate sows the move that led to position `to` seed by seed from `from`.
async function animate(from, to) {
  const f = speed();
  const tr = to.trace;
  if (!f || !tr) return;
  const pits = from.pits.slice();
  const stores = from.stores.slice();
  pits[tr.origin] = 0;
  drawBoard(pits, stores, { [tr.origin]: 'origin' });
  const step = Math.max(25, Math.min(170, 1800 / tr.path.length)) * f;
  await sleep(step);
  for (const i of tr.path) {
    pits[i]++;
    drawBoard(pits, stores, { [tr.origin]: 'origin', [i]: 'sowing' });
    await sleep(step);
  }
  if (tr.captured.length) {
    const marks = {};
    for (const i of tr.captured) marks[i] = 'captured';
    drawBoard(pits, stores, marks);
    $('#status').textContent = 'Capture: ' + tr.taken + ' seeds from ' + tr.captured.map(letter).join(', ');
    await sleep(500 * f);
    for (const i of tr.captured) pits[i] = 0;
    stores[from.player] += tr.taken;
    drawBoard(pits, stores, marks);
    await sleep(250 * f);
  }
}

async function loadView() {
  S.view = await api('/api/game', S.req);
}

// playAction plays action a at the shown position (dropping the moves after
// it); search is the agent's report on its move, if an agent chose it.
async function playAction(a, search) {
  if (S.busy || S.mode !== 'play') return;
  const token = S.token;
  S.busy = true;
  render(); // no pit is clickable while the move is made
  try {
    const before = pos();
    S.req.moves = S.req.moves.slice(0, S.cur).concat([a]);
    S.searches.length = S.cur; // the searches of the line dropped go
    if (search) S.searches[S.cur] = search;
    if (S.analysis) S.analysis = null; // analysis of another line
    await loadView();
    if (token !== S.token) return;
    await animate(before, S.view.positions[S.cur + 1]);
    S.cur = lastIndex();
    showError(null);
  } catch (e) {
    showError(e);
  } finally {
    if (token === S.token) S.busy = false;
  }
  render();
  agentTurn();
}

// agentTurn asks the agent to move when it is an agent's turn at the end.
async function agentTurn() {
  if (S.mode !== 'play' || S.busy || S.paused || S.cur !== lastIndex()) return;
  const q = pos();
  if (q.terminal || S.players[q.player] === null) return;
  const token = S.token;
  S.busy = true;
  render();
  let action = null;
  let search = null;
  try {
    const watching = S.players[0] !== null && S.players[1] !== null;
    const [res] = await Promise.all([
      api('/api/move', { game: S.req, spec: S.players[q.player], seed: S.seed * 2 + q.player }),
      sleep(watching ? 300 * speed() : 0)]);
    action = res.action;
    search = { a: res.analysis, unit: res.unit, spec: res.spec };
  } catch (e) {
    showError(e);
  } finally {
    if (token === S.token) S.busy = false;
  }
  if (token !== S.token || action === null) { render(); return; }
  playAction(action, search);
}

function goTo(i) {
  if (S.busy || !S.view) return;
  S.cur = Math.max(0, Math.min(lastIndex(), i));
  render();
}

async function undo() {
  if (S.busy || S.mode !== 'play' || S.req.moves.length === 0) return;
  let moves = S.req.moves.slice(0, S.cur);
  // Take back to the last position where a person is to move.
  do {
    moves = moves.slice(0, -1);
  } while (moves.length > 0 && S.players[playerAt(moves.length)] !== null);
  S.token++;
  S.req.moves = moves;
  S.searches.length = moves.length;
  S.analysis = null;
  try { await loadView(); } catch (e) { showError(e); }
  S.cur = lastIndex();
  S.paused = S.players[0] !== null && S.players[1] !== null;
  render();
}

function playerAt(i) { return S.view.positions[i].player; }

async function newGame(ev) {
  if (ev) ev.preventDefault();
  const spec = (id) => { const v = $(id).value.trim(); return v === '' || v === 'human' ? null : v; };
  S.token++;
  S.busy = false;
  S.paused = false;
  S.mode = 'play';
  S.players = [spec('#south'), spec('#north')];
  S.names = S.players.map((p) => p === null ? 'you' : p);
  if (S.players[0] === null && S.players[1] === null) S.names = ['South', 'North'];
  S.seed = Number($('#seed').value) || 0;
  S.analysis = null;
  S.searches = [];
  S.kept = null;
  S.source = null;
  const req = { rules: $('#rules').value, start: $('#start').value.trim(), moves: [] };
  const file = $('#rules-file').files[0];
  if (file) req.rules_yaml = await file.text();
  S.req = req;
  try {
    await loadView();
    showError(null);
  } catch (e) {
    showError(e);
    return;
  }
  S.cur = 0;
  render();
  agentTurn();
}

// ---------- records ----------

async function download() {
  try {
    const kept = S.kept; // a replayed record's own players, specs, seed and opening
    const opening = kept && kept.opening.length <= S.req.moves.length &&
      kept.opening.every((a, i) => S.req.moves[i] === a) ? kept.opening : undefined;
    const rec = await api('/api/record', {
      game: S.req, players: S.names, specs: kept ? kept.specs : S.players.map((p) => p || 'human'),
      seed: kept ? kept.seed : S.seed, opening,
      analysis: S.analysis ? { ...S.analysis, kept: undefined } : undefined,
    });
    const blob = new Blob([JSON.stringify(rec, null, 1)], { type: 'application/json' });
    const a = el('a');
    a.href = URL.createObjectURL(blob);
    a.download = 'urim-game-' + rec.rules + '-' + rec.plies + '.json';
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  } catch (e) {
    showError(e);
  }
}

// showLoaded shows a record returned by the server (/api/record/load,
// /api/game) for replay; a kept analysis is shown as it is.
function showLoaded(l, source) {
  const r = l.record;
  S.token++;
  S.busy = false;
  S.mode = 'replay';
  S.req = { rules: r.rules, custom_rules: r.custom_rules, max_plies: r.max_plies, start: r.start, moves: r.moves };
  if (!S.req.custom_rules) delete S.req.custom_rules;
  S.view = l.view;
  S.players = [null, null];
  S.names = [r.players[0] || 'South', r.players[1] || 'North'];
  S.analysis = r.analysis || null;
  S.searches = [];
  S.kept = { specs: r.specs, seed: r.seed, opening: r.opening || [] };
  if (S.analysis) S.analysis.kept = true; // shown as loaded, never recomputed
  S.source = source || null;
  S.cur = 0;
  showError(null);
  render();
}

async function loadRecordFile() {
  const file = $('#load-record').files[0];
  if (!file) return;
  try {
    const l = await api('/api/record/load', await file.text());
    showLoaded(l);
  } catch (e) {
    showError(e);
  }
  $('#load-record').value = '';
}

// ---------- analysis ----------

function fmtValue(v, unit) {
  if (v === undefined || v === null) return '—';
  if (unit === 'seeds') {
    if (Math.abs(v) >= 1000) return (v > 0 ? 'win by ' : 'loss by ') + Math.abs(Math.abs(v) - 1000) + ' seeds';
    return (v > 0 ? '+' : '') + v + ' seeds';
  }
  return (v > 0 ? '+' : '') + v.toFixed(3);
}

function showPly(a, unit, into) {
  into.textContent = '';
  if (!a) return;
  const p = P();
  const t = el('table', 'kv');
  const row = (k, v) => { const tr = el('tr'); tr.append(el('td', '', k), el('td', '', v)); t.append(tr); };
  const mover = a.player;
  if (a.best !== undefined) row('best move', letter(mover * p + a.best) + ' (action ' + a.best + ')');
  row('value for the mover (' + ['South', 'North'][mover] + ')', fmtValue(a.value, unit));
  if (a.pv && a.pv.length) {
    let side = mover;
    row('principal variation', a.pv.map((x) => { const s = letter(side * p + x); side ^= 1; return s; }).join(' '));
  }
  if (a.depth) row(unit === 'seeds' ? 'depth' : 'simulations', String(a.depth));
  if (a.nodes) row('nodes', String(a.nodes));
  if (a.loss !== undefined && a.played !== undefined) row('move played', letter(mover * p + a.played) + ', loses ' + a.loss.toFixed(3));
  into.append(t);
  if (a.visits) {
    const most = Math.max(...a.visits, 1);
    const bars = el('div', 'visits');
    a.visits.forEach((v, i) => {
      const col = el('div', 'col' + (i === a.best ? ' best' : ''));
      const bar = el('div', 'bar');
      bar.style.height = Math.round(2 + 58 * v / most) + 'px';
      col.append(el('span', 'n', String(v)), bar, el('span', 'pitname', letter(mover * p + i)));
      bars.append(col);
    });
    into.append(el('div', 'hint', 'visits per move'), bars);
  }
}

function renderPlyAnalysis() {
  const box = $('#an-result');
  const a = S.analysis && S.analysis.plies[S.cur];
  if (S.analysis && a) {
    showPly(a, S.analysis.unit, box);
    box.prepend(el('div', 'hint', (S.analysis.kept ? 'kept analysis: ' : 'analysis: ') + S.analysis.spec));
  } else if (S.single && S.single.key === key()) {
    showPly(S.single.a, S.single.unit, box);
  } else if (S.searches[S.cur]) {
    const m = S.searches[S.cur];
    showPly(m.a, m.unit, box);
    box.prepend(el('div', 'hint', 'the search behind ' + m.spec + '\'s move'));
  } else {
    box.textContent = '';
  }
}

function key() { return JSON.stringify([S.req, S.cur]); }

async function analyseHere() {
  const k = key();
  try {
    $('#analyse').disabled = true;
    const res = await api('/api/analyse', { game: S.req, ply: S.cur, spec: $('#an-spec').value.trim(), seed: S.seed });
    S.single = { key: k, a: res.analysis, unit: res.unit };
    showError(null);
    if (key() === k) showPly(res.analysis, res.unit, $('#an-result'));
  } catch (e) {
    showError(e);
  } finally {
    $('#analyse').disabled = false;
  }
}

let tbKey = null;
async function probeTable() {
  const k = key();
  if (tbKey === k) return;
  tbKey = k;
  const box = $('#tb-result');
  try {
    const res = await api('/api/analyse', { game: S.req, ply: S.cur, spec: '' });
    if (tbKey !== k) return;
    box.textContent = '';
    const t = res.analysis.table;
    if (!t) { box.append(el('p', 'hint', 'The endgame table does not cover this position.')); return; }
    const q = pos();
    const p = P();
    const head = t.exact ? 'exact: the mover ends with ' + t.lower + ' of the ' + t.seeds + ' seeds on the board'
      : 'the mover ends with ' + t.lower + ' to ' + t.upper + ' of the ' + t.seeds + ' seeds on the board';
    box.append(el('h3', '', 'Endgame table'), el('p', '', head));
    if (t.best && t.best.length) {
      box.append(el('p', '', 'best moves: ' + t.best.map((a) => letter(q.player * p + a)).join(', ')));
    }
    box.dataset.best = (t.best || []).join(',');
  } catch (e) {
    box.textContent = '';
  }
}

async function sweep() {
  if (S.sweep) return;
  const spec = $('#an-spec').value.trim();
  const ctl = new AbortController();
  S.sweep = ctl;
  $('#cancel').disabled = false;
  $('#sweep').disabled = true;
  const n = S.view.positions.length;
  S.analysis = { spec, unit: 'value', plies: [], worst: [] };
  const bar = $('#sweep-progress');
  bar.max = n;
  bar.value = 0;
  $('#sweep-text').textContent = '0 / ' + n;
  try {
    const res = await fetch('/api/sweep', {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, signal: ctl.signal,
      body: JSON.stringify({ game: S.req, spec, seed: S.seed }),
    });
    if (!res.ok) {
      let msg = res.status + ' ' + res.statusText;
      try { msg = (await res.json()).error; } catch (e) { /* not JSON */ }
      throw new Error(msg);
    }
    const reader = res.body.getReader();
    const dec = new TextDecoder();
    let buf = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buf += dec.decode(value, { stream: true });
      let nl;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = JSON.parse(buf.slice(0, nl));
        buf = buf.slice(nl + 1);
        if (line.error) throw new Error(line.error);
        bar.value = line.done;
        $('#sweep-text').textContent = line.done + ' / ' + line.total;
        if (line.ply) S.analysis.plies[line.ply.ply] = line.ply;
        if (line.analysis) {
          S.analysis = line.analysis;
          $('#sweep-text').textContent = 'done: ' + line.total + ' positions';
        }
        renderMoves();
        renderPlyAnalysis();
        drawGraph();
      }
    }
    showError(null);
  } catch (e) {
    if (e.name === 'AbortError') $('#sweep-text').textContent = 'cancelled';
    else showError(e);
  } finally {
    S.sweep = null;
    $('#cancel').disabled = true;
    $('#sweep').disabled = false;
  }
}

function cancelSweep() { if (S.sweep) S.sweep.abort(); }

// drawGraph draws the analysis' values for South over the plies.
function drawGraph() {
  const c = $('#graph');
  const g = c.getContext('2d');
  const w = c.width, h = c.height, pad = 18;
  g.clearRect(0, 0, w, h);
  g.fillStyle = '#888';
  g.font = '11px sans-serif';
  g.strokeStyle = '#ddd';
  g.beginPath(); g.moveTo(pad, h / 2); g.lineTo(w - 4, h / 2); g.stroke();
  g.fillText('South', 2, 12);
  g.fillText('North', 2, h - 4);
  const n = S.view ? S.view.positions.length : 1;
  const x = (i) => pad + (w - pad - 6) * (n > 1 ? i / (n - 1) : 0);
  const y = (v) => h / 2 - v * (h / 2 - 8);
  if (S.view) {
    g.strokeStyle = '#2f6fb3aa';
    g.beginPath(); g.moveTo(x(S.cur), 0); g.lineTo(x(S.cur), h); g.stroke();
  }
  const plies = (S.analysis && S.analysis.plies) || [];
  let pts = 0;
  g.strokeStyle = '#222';
  g.lineWidth = 2;
  g.beginPath();
  let started = false;
  plies.forEach((a, i) => {
    if (!a) return;
    const v = a.player === 0 ? a.norm : -a.norm;
    if (!started) { g.moveTo(x(i), y(v)); started = true; } else g.lineTo(x(i), y(v));
    pts++;
  });
  g.stroke();
  g.lineWidth = 1;
  for (const i of (S.analysis && S.analysis.worst) || []) {
    const a = plies[i];
    if (!a) continue;
    g.fillStyle = '#c0392b';
    g.beginPath(); g.arc(x(i), y(a.player === 0 ? a.norm : -a.norm), 5, 0, 2 * Math.PI); g.fill();
  }
  c.dataset.points = pts;
  c.dataset.worst = ((S.analysis && S.analysis.worst) || []).join(',');
}

function graphClick(ev) {
  if (!S.view) return;
  const c = $('#graph');
  const r = c.getBoundingClientRect();
  const px = (ev.clientX - r.left) * c.width / r.width;
  const n = S.view.positions.length;
  const i = Math.round((px - 18) / (c.width - 24) * (n - 1));
  goTo(i);
}

// ---------- replay ----------

async function loadSources() {
  try {
    const src = await api('/api/sources');
    const sel = $('#source');
    sel.textContent = '';
    for (const s of src.games) {
      const o = el('option', '', s.ref + ' (' + s.kind + ')');
      o.value = s.ref;
      sel.append(o);
    }
    if (!src.games.length) sel.append(el('option', '', 'no games served (urim serve --data DIR)'));
    const ul = $('#run-list');
    ul.textContent = '';
    for (const r of src.runs) {
      const li = el('li');
      const a = el('a', '', r.name);
      a.dataset.run = r.ref;
      a.addEventListener('click', () => openRun(r.ref));
      li.append(a);
      ul.append(li);
    }
    if (!src.runs.length) ul.append(el('li', 'hint', 'no runs served (urim serve --runs DIR)'));
    if (src.games.length) listGames();
  } catch (e) {
    showError(e);
  }
}

function resultText(g) {
  return g.winner === -1 ? 'draw ' + g.stores.join('–') : ['South', 'North'][g.winner] + ' ' + g.stores.join('–');
}

function fillGameRows(tbody, games, source) {
  tbody.textContent = '';
  for (const g of games) {
    const tr = el('tr', 'game-row');
    tr.dataset.n = g.n;
    tr.append(el('td', '', String(g.index)), el('td', '', g.players[0]), el('td', '', g.players[1]),
      el('td', '', String(g.plies)), el('td', '', resultText(g)));
    tr.addEventListener('click', () => openGame(source, g.n));
    tbody.append(tr);
  }
}

// listSeq numbers the game-list requests, so that an answer that arrives
// after a later request's is dropped instead of replacing its list.
let listSeq = 0;

async function listGames(ev) {
  if (ev) ev.preventDefault();
  const source = $('#source').value;
  if (!source) return;
  const q = new URLSearchParams({ source, limit: '200' });
  const add = (k, id) => { const v = $(id).value.trim(); if (v !== '') q.set(k, v); };
  add('player', '#f-player'); add('result', '#f-result'); add('min', '#f-min'); add('max', '#f-max');
  const seq = ++listSeq;
  try {
    const res = await api('/api/games?' + q);
    if (seq !== listSeq) return;
    $('#game-list tbody').dataset.query = q.toString();
    $('#game-count').textContent = res.total + ' of ' + res.all + ' games' + (res.total > res.games.length ? ' (first ' + res.games.length + ' shown)' : '');
    fillGameRows($('#game-list tbody'), res.games, source);
    showError(null);
  } catch (e) {
    showError(e);
  }
}

async function openGame(source, n) {
  try {
    const l = await api('/api/game?' + new URLSearchParams({ source, n: String(n) }));
    showTab('replay');
    showLoaded(l, { source, n });
  } catch (e) {
    showError(e);
  }
}

// ---------- training runs ----------

async function openRun(ref) {
  S.run = ref;
  showTab('runs', true);
  await refreshRun();
}

async function refreshRun() {
  clearTimeout(S.runTimer);
  if (!S.run || $('#run-area').hidden) return;
  try {
    const v = await api('/api/run?' + new URLSearchParams({ run: S.run }));
    $('#run-title').textContent = 'Run ' + v.name;
    const live = v.modified && v.age_s < 120;
    $('#run-info').textContent = v.rows + ' iterations' + (v.modified ? ', metrics.csv written ' + Math.round(v.age_s) + ' s ago' : '') +
      (live ? ' — the run is going: the charts refresh' : '');
    const c = v.columns;
    const it = c.iteration || [];
    const pick = (...names) => names.map((nm) => c[nm]).find((col) => col);
    chart($('#chart-loss'), it, [{ name: 'policy loss', ys: c.policy_loss, color: '#2f6fb3' },
      { name: 'value loss', ys: c.value_loss, color: '#c0392b' }]);
    chart($('#chart-entropy'), it, [{ name: 'entropy', ys: c.entropy, color: '#2e8b57' },
      { name: 'KL', ys: pick('kl', 'approx_kl'), color: '#8e44ad', right: true }]);
    chart($('#chart-elo'), it, [{ name: 'Elo', ys: c.elo, color: '#1f4e79', lo: c.elo_lo95, hi: c.elo_hi95 }]);
    chart($('#chart-speed'), it, [{ name: 'positions/s', ys: pick('positions_per_s', 'env_steps_per_s'), color: '#d35400' }]);
    fillGameRows($('#run-samples tbody'), v.samples.slice().reverse(), v.samples_ref);
    showError(null);
  } catch (e) {
    showError(e);
  }
  S.runTimer = setTimeout(refreshRun, 3000);
}

// chart draws line series over xs; a series with lo and hi gets a band, one
// with right its own scale (drawn on the right).
function chart(c, xs, series) {
  const g = c.getContext('2d');
  const w = c.width, h = c.height, left = 44, right = 44, top = 18, bottom = 20;
  g.clearRect(0, 0, w, h);
  g.font = '11px sans-serif';
  let pts = 0;
  const xv = xs.map((x, i) => (x === null ? i : x));
  const xmin = Math.min(...xv, 0), xmax = Math.max(...xv, 1);
  const X = (x) => left + (w - left - right) * (x - xmin) / ((xmax - xmin) || 1);
  const scale = (list) => {
    let lo = Infinity, hi = -Infinity;
    for (const s of list) for (const arr of [s.ys, s.lo, s.hi]) for (const v of arr || []) if (v !== null) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
    if (lo === Infinity) { lo = 0; hi = 1; }
    if (lo === hi) { lo -= 1; hi += 1; }
    return { lo, hi, Y: (v) => top + (h - top - bottom) * (1 - (v - lo) / (hi - lo)) };
  };
  const sl = scale(series.filter((s) => !s.right && s.ys));
  const sr = scale(series.filter((s) => s.right && s.ys));
  g.strokeStyle = '#ccc';
  g.strokeRect(left, top, w - left - right, h - top - bottom);
  g.fillStyle = '#666';
  g.fillText(fmtNum(sl.hi), 2, top + 8);
  g.fillText(fmtNum(sl.lo), 2, h - bottom);
  g.fillText('iteration ' + xmin + '–' + xmax, left, h - 4);
  let lx = left + 4;
  for (const s of series) {
    if (!s.ys) continue;
    const sc = s.right ? sr : sl;
    if (s.right) { g.fillStyle = s.color; g.fillText(fmtNum(sr.hi), w - right + 3, top + 8); g.fillText(fmtNum(sr.lo), w - right + 3, h - bottom); }
    if (s.lo && s.hi) {
      g.fillStyle = s.color + '22';
      g.beginPath();
      const idx = s.ys.map((v, i) => i).filter((i) => s.lo[i] !== null && s.hi[i] !== null);
      idx.forEach((i, k) => (k ? g.lineTo(X(xv[i]), sc.Y(s.hi[i])) : g.moveTo(X(xv[i]), sc.Y(s.hi[i]))));
      idx.slice().reverse().forEach((i) => g.lineTo(X(xv[i]), sc.Y(s.lo[i])));
      g.closePath();
      g.fill();
    }
    g.strokeStyle = s.color;
    g.lineWidth = 2;
    g.beginPath();
    let started = false;
    s.ys.forEach((v, i) => {
      if (v === null) return;
      if (!started) { g.moveTo(X(xv[i]), sc.Y(v)); started = true; } else g.lineTo(X(xv[i]), sc.Y(v));
      pts++;
    });
    g.stroke();
    s.ys.forEach((v, i) => { if (v !== null) { g.fillStyle = s.color; g.fillRect(X(xv[i]) - 1.5, sc.Y(v) - 1.5, 3, 3); } });
    g.lineWidth = 1;
    g.fillStyle = s.color;
    g.fillText(s.name, lx, top - 5);
    lx += g.measureText(s.name).width + 14;
  }
  c.dataset.points = pts;
}

function fmtNum(v) {
  const a = Math.abs(v);
  if (a >= 10000) return (v / 1000).toFixed(0) + 'k';
  if (a >= 100) return v.toFixed(0);
  if (a >= 1) return v.toFixed(2);
  return v.toPrecision(2);
}

// ---------- tabs, keys, start-up ----------

function showTab(tab, runView) {
  document.querySelectorAll('.tab').forEach((b) => b.classList.toggle('active', b.dataset.tab === tab));
  $('#panel-play').hidden = tab !== 'play';
  $('#panel-replay').hidden = tab !== 'replay';
  $('#panel-runs').hidden = tab !== 'runs';
  const runs = tab === 'runs' && (runView || S.run !== null);
  $('#run-area').hidden = !runs;
  $('#game-area').hidden = runs;
  if (runs) refreshRun(); else clearTimeout(S.runTimer);
}

function onKey(ev) {
  const t = ev.target;
  if (t && (t.tagName === 'INPUT' || t.tagName === 'SELECT' || t.tagName === 'TEXTAREA')) return;
  if (!S.view || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const k = ev.key;
  if (k === 'ArrowLeft') goTo(S.cur - 1);
  else if (k === 'ArrowRight') goTo(S.cur + 1);
  else if (k === 'Home') goTo(0);
  else if (k === 'End') goTo(lastIndex());
  else if (k === 'u' || k === 'U') undo();
  else if (k.length === 1) {
    const a = k.toLowerCase().charCodeAt(0) - 97;
    if (a < 0 || a >= P() || !humanToMove()) return;
    if (!pos().legal.includes(a)) {
      $('#status').textContent = letter(pos().player * P() + a) + ' cannot be played here (legal: ' +
        pos().legal.map((x) => letter(pos().player * P() + x)).join(', ') + ')';
      return;
    }
    playAction(a);
  } else return;
  ev.preventDefault();
}

async function start() {
  document.querySelectorAll('.tab').forEach((b) => b.addEventListener('click', () => showTab(b.dataset.tab)));
  $('#setup').addEventListener('submit', newGame);
  $('#filter').addEventListener('submit', listGames);
  $('#source').addEventListener('change', () => listGames());
  $('#first').addEventListener('click', () => goTo(0));
  $('#prev').addEventListener('click', () => goTo(S.cur - 1));
  $('#next').addEventListener('click', () => goTo(S.cur + 1));
  $('#last').addEventListener('click', () => goTo(lastIndex()));
  $('#undo').addEventListener('click', undo);
  $('#pause').addEventListener('click', () => { S.paused = !S.paused; render(); agentTurn(); });
  $('#download').addEventListener('click', download);
  $('#load-record').addEventListener('change', loadRecordFile);
  $('#analyse').addEventListener('click', analyseHere);
  $('#sweep').addEventListener('click', sweep);
  $('#cancel').addEventListener('click', cancelSweep);
  $('#graph').addEventListener('click', graphClick);
  document.addEventListener('keydown', onKey);
  try {
    S.info = await api('/api/info');
  } catch (e) {
    showError(e);
    return;
  }
  const rules = $('#rules');
  for (const p of S.info.presets) { const o = el('option', '', p); o.value = p; rules.append(o); }
  const dl = $('#agent-list');
  for (const a of S.info.agents) { const o = el('option'); o.value = a.name; o.label = a.help; dl.append(o); }
  // The query string may preset the game: ?south=human&north=SPEC&rules=urim&start=...&speed=0.4
  const q = new URLSearchParams(location.search);
  if (q.has('rules') && !S.info.presets.includes(q.get('rules'))) {
    const o = el('option', '', 'the rules file of urim play'); // served by urim play --web
    o.value = q.get('rules');
    rules.append(o);
  }
  for (const id of ['south', 'north', 'rules', 'start', 'seed', 'speed']) if (q.has(id)) $('#' + id).value = q.get(id);
  showTab('play');
  loadSources();
  await newGame();
}

start();
