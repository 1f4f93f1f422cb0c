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

// Grades: a move that loses at least this much of the value (on [-1, 1],
// the mover's) against the best is an inaccuracy, a mistake, a blunder
// (docs/web.md states them).
const GRADES = [[0.30, '??', 'blunder'], [0.12, '?', 'mistake'], [0.05, '?!', 'inaccuracy']];

// S is the page's state.
const S = {
  info: null,
  req: { rules: 'urim', moves: [] }, // the game request of the line shown (gameRequest in the server)
  view: null,                         // the server's gameView of req
  tree: { kids: [] },                 // every line explored: node { a, kids }; kids[0] continues the main line
  cur: 0,                             // the position shown
  mode: 'play',                       // 'play' or 'replay'
  players: [null, null],              // agent spec of each seat, null for a person
  names: ['South', 'North'],
  seed: 1,
  analysis: null,                     // the whole-game analysis { spec, unit, plies, worst, line }
  source: null,                       // replay source of the game, if any
  token: 0,                           // bumped by every new game, to drop stale agent answers
  busy: false,                        // an animation or an agent move is under way
  paused: false,
  stuck: null,                        // why the agent could not move
  gameRun: null,                       // AbortController of the running whole-game analysis
  deepen: null,                       // { stop } of the deepening single analysis
  run: null, runTimer: null,
  singles: {},                        // one-position analyses by line: key -> { moves, spec, unit, analysis }
  tables: {},                         // the endgame table's reports by line key, as probed
  kept: null,                         // a replayed record's { specs, seed, opening }
  searches: {},                       // the agent's own search for its move, by line key
  redo: [],                           // what Undo and Delete took: { prefix, node, idx, cur }
  hint: null,                         // { key, pit } the hinted move
  teach: false,
  offer: null,
  restoring: false,
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

// showError shows err in the error box on behalf of owner; showError(null,
// owner) clears the box only if owner put the error there, so that one
// part's success does not wipe another's error.
function showError(err, owner) {
  const box = $('#error');
  if (!err) {
    if (!owner || box.dataset.owner === owner) { box.hidden = true; box.textContent = ''; delete box.dataset.owner; }
    return;
  }
  box.textContent = err.message || String(err);
  box.dataset.owner = owner || '';
  box.hidden = false;
}

// ---------- the tree of lines ----------

function same(a, b, n) {
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return false;
  return true;
}
function lineKey(moves) { return moves.join(','); }
function nodeAt(moves, k) {
  let n = S.tree;
  for (let i = 0; i < k; i++) {
    n = n.kids.find((c) => c.a === moves[i]);
    if (!n) return null;
  }
  return n;
}
// addLine puts moves into the tree (as a new variation where it leaves the known lines).
function addLine(moves) {
  let n = S.tree;
  for (const a of moves) {
    let c = n.kids.find((k) => k.a === a);
    if (!c) { c = { a, kids: [] }; n.kids.push(c); }
    n = c;
  }
}
// extend continues moves along the tree's first children.
function extend(moves) {
  const out = moves.slice();
  let n = nodeAt(out, out.length);
  while (n && n.kids.length) { n = n.kids[0]; out.push(n.a); }
  return out;
}
function mainLine() { return extend([]); }
function variations() {
  const out = [];
  const walk = (n, path, main) => n.kids.forEach((c, i) => {
    const p = path.concat([c.a]);
    if (!(main && i === 0) && !c.kids.length) out.push(p);
    walk(c, p, main && i === 0);
  });
  walk(S.tree, [], true);
  return out;
}
function onMainLine(k) { return same(S.req.moves, mainLine(), k) && mainLine().length >= k; }

// ---------- the board ----------

function P() { return S.view.rules.pits_per_row; }
function pos() { return S.view.positions[S.cur]; }
function lastIndex() { return S.view.positions.length - 1; }
function letter(pit) {
  const p = P();
  return pit < p ? String.fromCharCode(97 + pit) : String.fromCharCode(65 + pit - p);
}
function moveName(player, a) { return letter(player * P() + a); }

// drawBoard draws pits (2P counts) and stores; marks is {pit: class}.
function drawBoard(pits, stores, marks, clickable) {
  const p = pits.length / 2;
  const board = $('#board');
  const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.pit : undefined;
  board.textContent = '';
  const store = (who, n, cls) => {
    const d = el('div', 'store ' + cls);
    d.dataset.store = who;
    d.setAttribute('aria-label', who + "'s store: " + n + ' seeds');
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
  // Keep the keyboard's place: the pit focused before is focused again.
  if (focused !== undefined) {
    const b = board.querySelector('[data-pit="' + focused + '"]');
    if (b) b.focus({ preventScroll: true });
  }
}

function pitButton(i, n, marks, clickable) {
  const b = el('button', 'pit');
  b.dataset.pit = i;
  b.dataset.count = n;
  const side = i < P() ? 'South' : 'North';
  b.append(el('span', 'letter', letter(i)), el('span', 'count', String(n)));
  const seeds = el('span', 'seeds');
  for (let k = 0; k < Math.min(n, 24); k++) seeds.append(el('span', 'seed'));
  if (n > 24) seeds.append(el('span', 'more', '+'));
  b.append(seeds);
  if (marks && marks[i]) b.classList.add(...marks[i].split(' '));
  const legal = clickable && clickable.has(i);
  b.setAttribute('aria-label', side + ' pit ' + letter(i) + ', ' + n + ' seed' + (n === 1 ? '' : 's') + (legal ? ', playable' : ''));
  if (legal) {
    b.classList.add('legal');
    b.title = 'play ' + letter(i);
    b.addEventListener('click', () => playAction(i % P()));
  } else {
    // Focusable still (for reading with a keyboard), but not playable.
    b.setAttribute('aria-disabled', 'true');
  }
  return b;
}

// canMove reports whether a person may move at the shown position: their
// turn at the end of a game being played, or any position of any game to
// explore a variation.
function canMove() {
  const q = pos();
  if (S.busy || q.terminal) return false;
  if (S.mode !== 'play') return true;
  return S.players[q.player] === null || S.cur !== lastIndex() || S.paused || S.stuck !== null;
}

// plyAnalysis returns the analysis of position i of the line shown: the
// whole-game analysis where its line agrees, or a single one, newest first.
function plyAnalysis(i) {
  const single = S.singles[lineKey(S.req.moves.slice(0, i))];
  const an = S.analysis;
  const whole = an && an.plies[i] && same(an.line, S.req.moves, i) ? an.plies[i] : null;
  if (single && (!whole || single.t > (an.t || 0))) return { a: single.analysis, unit: single.unit, spec: single.spec, kind: 'single' };
  if (whole) return { a: whole, unit: an.unit, spec: an.spec, kind: an.kept ? 'kept' : 'game' };
  const m = S.searches[lineKey(S.req.moves.slice(0, i))];
  if (m) return { a: m.a, unit: m.unit, spec: m.spec, kind: 'move' };
  return null;
}

// southValue is the value of an analysis for South, on [-1, 1].
function southValue(a) { return a.player === 0 ? a.norm : -a.norm; }

// tableBest returns the moves the endgame table's report t calls best: the
// stored best-move set (Table.BestSet) where the history is fresh, else
// the table's analysis of this position with its history.
function tableBest(t) {
  return t.quiet === 0 && t.stored_best ? { moves: t.stored_best, stored: true } : { moves: t.best || [], stored: false };
}

// tableGrade grades action a from position q by the table's report t, in
// seeds, or returns null where the table cannot tell: a move in the best
// set of an exact position is best; a move whose upper bound is below the
// position's lower bound loses the difference at least (exactly, when
// both are exact), and a blunder if it changes the result.
function tableGrade(t, q, a) {
  const b = tableBest(t);
  const best = b.moves.length ? moveName(q.player, b.moves[0]) : null;
  const src = b.stored ? 'the table\'s stored best moves' : 'the table';
  if (b.moves.includes(a)) return t.exact ? { loss: null, seeds: 0, mark: '', word: 'best (exact: ' + src + ')', best: null, exact: true } : null;
  const m = (t.moves || []).find((x) => x.action === a);
  if (!m || m.upper >= t.lower) return null;
  const lost = t.lower - m.upper;
  const sure = t.exact && m.lower === m.upper;
  const out = (x) => Math.sign(q.stores[q.player] + x - (q.stores[1 - q.player] + t.seeds - x));
  let mark, word;
  if (out(t.lower) > out(m.upper)) { mark = '??'; word = 'blunder: it changes the result'; } else if (lost >= 3) { mark = '?'; word = 'mistake'; } else { mark = '?!'; word = 'inaccuracy'; }
  word += sure ? ' (exact: ' + src + ')' : ' (by the table\'s bounds)';
  return { loss: null, seeds: lost, atLeast: !sure, mark, word, best, exact: true };
}

// grade grades the move from position i of the line shown: { loss, mark,
// word, best, exact } or null when the analyses do not cover it.
function grade(i) {
  if (i >= S.req.moves.length) return null;
  const played = S.req.moves[i];
  const before = plyAnalysis(i);
  const q = S.view.positions[i];
  // The endgame table's grade first, in seeds, where it knows.
  const t = (before && before.a.table) || S.tables[lineKey(S.req.moves.slice(0, i))];
  const tg = t && tableGrade(t, q, played);
  if (tg) return tg;
  const after = plyAnalysis(i + 1);
  if (!before || !after || before.a.best === undefined || before.unit !== after.unit) return null;
  const loss = Math.max(0, before.a.norm + after.a.norm);
  let mark = '', word = before.a.best === played ? 'the engine\'s move' : 'good';
  for (const [th, m, w] of GRADES) if (loss >= th) { mark = m; word = w; break; }
  return { loss, mark, word, best: before.a.best !== played ? moveName(q.player, before.a.best) : null, exact: false };
}

function render() {
  if (!S.view) return;
  const q = pos();
  const clickable = new Set();
  if (canMove()) for (const a of q.legal) clickable.add(q.player * P() + a);
  const marks = {};
  if (q.trace) for (const i of q.trace.path.slice(-1)) marks[i] = 'lastmove';
  if (S.hint && S.hint.key === lineKey(S.req.moves.slice(0, S.cur))) marks[S.hint.pit] = ((marks[S.hint.pit] || '') + ' hinted').trim();
  drawBoard(q.pits, q.stores, marks, clickable);
  $('#board').dataset.ply = S.cur;
  document.body.dataset.mode = S.mode;
  document.body.dataset.busy = S.busy;
  $('#board').dataset.legal = [...clickable].join(',');
  $('#ply').textContent = 'ply ' + S.cur + ' / ' + lastIndex();
  $('#notation').value = q.notation;
  $('#players').textContent = '';
  const rulesName = S.view.rules.name + (S.view.preset ? '' : ' (custom rules)');
  $('#players').append(el('span', '', 'North: ' + S.names[1]), el('span', 'rules-name', 'rules: ' + rulesName), el('span', '', 'South: ' + S.names[0]));
  renderStatus();
  renderMoves();
  renderPlyAnalysis();
  renderEval();
  drawGraph();
  $('#undo').disabled = S.busy || S.cur === 0;
  $('#redo').disabled = S.busy || S.redo.length === 0;
  $('#delete-var').disabled = S.busy || S.cur === 0;
  $('#promote').disabled = S.busy || onMainLine(S.req.moves.length);
  $('#hint').disabled = S.busy || q.terminal;
  $('#pause').hidden = !(S.mode === 'play' && S.players[0] !== null && S.players[1] !== null && !S.view.positions[lastIndex()].terminal);
  $('#pause').textContent = S.paused ? 'Go on' : 'Pause';
  if (S.info && S.info.tablebase) probeTable();
  updateURL();
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
      ' after ' + lastIndex() + ' plies); match points ' + mp[0] + '–' + mp[1] + '.' +
      (onMainLine(S.req.moves.length) ? '' : ' (in a variation)');
    res.hidden = false;
    res.dataset.winner = end.winner;
  } else {
    res.hidden = true;
  }
  let text;
  if (q.terminal) text = 'The game is over.';
  else {
    text = who[q.player] + ' (' + S.names[q.player] + ') to move';
    if (S.cur !== lastIndex()) text += ' — viewing ply ' + S.cur + '; a move here opens a variation (the line is kept)';
    else if (S.mode === 'play' && S.players[q.player] !== null) {
      if (S.stuck) text += ' — the agent could not move: ' + S.stuck;
      else text += S.paused ? ' (paused)' : ' — thinking…';
    }
  }
  $('#status').textContent = text;
}

function renderMoves() {
  const ol = $('#moves');
  ol.textContent = '';
  const counts = [{ '?!': 0, '?': 0, '??': 0 }, { '?!': 0, '?': 0, '??': 0 }];
  const main = mainLine();
  let graded = 0;
  S.view.positions.forEach((q, i) => {
    if (i === 0) return;
    const prev = S.view.positions[i - 1];
    const li = el('li', '', i + '. ' + moveName(prev.player, q.action) + (q.trace && q.trace.taken ? '×' + q.trace.taken : ''));
    li.dataset.ply = i;
    const g = grade(i - 1);
    if (g) graded++;
    if (g && g.mark) {
      li.textContent += g.mark;
      li.classList.add('g' + GRADES.findIndex((x) => x[1] === g.mark));
      li.dataset.grade = g.mark;
      li.title = g.word + (g.best ? '; best was ' + g.best : '');
      counts[prev.player][g.mark]++;
    }
    if (!same(S.req.moves, main, i)) li.classList.add('var');
    if (i === S.cur) { li.classList.add('current'); li.setAttribute('aria-current', 'step'); }
    li.tabIndex = 0;
    li.addEventListener('click', () => goTo(i, true));
    ol.append(li);
    // The other moves tried here: one click follows that line.
    const parent = nodeAt(S.req.moves, i - 1);
    const alts = parent ? parent.kids.filter((c) => c.a !== q.action) : [];
    if (alts.length) {
      const span = el('li', 'alts');
      span.append('(');
      alts.forEach((c, k) => {
        const b = el('button', 'alt', moveName(prev.player, c.a));
        b.title = 'follow the variation ' + moveName(prev.player, c.a) + ' at move ' + i;
        b.addEventListener('click', () => switchLine(extend(S.req.moves.slice(0, i - 1).concat([c.a])), i));
        if (k) span.append(' ');
        span.append(b);
      });
      span.append(')');
      ol.append(span);
    }
  });
  const box = $('#grades');
  box.textContent = '';
  const any = graded > 0 || S.analysis;
  if (any) {
    for (const side of [0, 1]) {
      const c = counts[side];
      box.append(el('span', 'count-' + side, ['South', 'North'][side] + ': ' + c['??'] + ' blunders, ' + c['?'] + ' mistakes, ' + c['?!'] + ' inaccuracies'));
    }
  }
}

// renderEval fills the eval bar with South's value at the position shown.
function renderEval() {
  const an = plyAnalysis(S.cur);
  const fill = $('#evalfill');
  const text = $('#evaltext');
  if (!an) { fill.style.height = '50%'; text.textContent = ''; $('#evalbar').dataset.value = ''; return; }
  const v = southValue(an.a);
  fill.style.height = Math.round(50 + 50 * v) + '%';
  text.textContent = (v > 0 ? '+' : '') + v.toFixed(2);
  $('#evalbar').dataset.value = v.toFixed(3);
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

// playAction plays action a at the shown position: along the line if it is
// the move there, else as a new variation (nothing is dropped); search is
// the agent's report on its move, if an agent chose it.
async function playAction(a, search) {
  if (S.busy) return;
  const token = S.token;
  const human = !search;
  S.busy = true;
  S.offer = null;
  renderOffer();
  render(); // no pit is clickable while the move is made
  try {
    const before = pos();
    const prefix = S.req.moves.slice(0, S.cur);
    if (search) S.searches[lineKey(prefix)] = search;
    addLine(prefix.concat([a]));
    S.req.moves = extend(prefix.concat([a]));
    await loadView();
    if (token !== S.token) return;
    await animate(before, S.view.positions[S.cur + 1]);
    S.cur++;
    S.stuck = null;
    showError(null, 'game');
    if (human && S.teach && S.mode === 'play') teachCheck(prefix, a);
  } catch (e) {
    showError(e, 'game');
  } finally {
    if (token === S.token) S.busy = false;
  }
  render();
  focusBoard();
  agentTurn();
}

// focusBoard keeps the keyboard on the board after a move.
function focusBoard() {
  const a = document.activeElement;
  if (a && a.classList && a.classList.contains('pit')) return;
  if (a && a !== document.body && a.closest && !a.closest('#board')) return;
  const b = $('#board .pit.legal') || $('#board .pit');
  if (b) b.focus({ preventScroll: true });
}

// agentTurn asks the agent to move when it is an agent's turn at the end.
async function agentTurn() {
  if (S.mode !== 'play' || S.busy || S.paused || S.stuck || S.cur !== lastIndex()) return;
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
    if (token === S.token) { S.stuck = e.message; showError(e, 'game'); }
  } finally {
    if (token === S.token) S.busy = false;
  }
  if (token !== S.token || action === null) { render(); return; }
  playAction(action, search);
}

function goTo(i, push) {
  if (S.busy || !S.view) return;
  S.cur = Math.max(0, Math.min(lastIndex(), i));
  S.pushURL = push !== false;
  render();
}

// switchLine shows another line of the tree at position cur.
async function switchLine(moves, cur) {
  if (S.busy) return;
  S.req.moves = moves;
  try { await loadView(); showError(null, 'game'); } catch (e) { showError(e, 'game'); return; }
  S.cur = Math.min(cur, lastIndex());
  S.pushURL = true;
  render();
  agentTurn();
}

// cut takes the move from position k of the line (and what follows it) out
// of the tree; Redo puts it back.
async function cut(k) {
  const prefix = S.req.moves.slice(0, k);
  const parent = nodeAt(prefix, k);
  const idx = parent ? parent.kids.findIndex((c) => c.a === S.req.moves[k]) : -1;
  if (idx < 0) return;
  S.redo.push({ prefix, node: parent.kids[idx], idx, cur: S.cur });
  parent.kids.splice(idx, 1);
  S.token++;
  S.busy = false;
  await switchLine(extend(prefix), k);
}

async function redo() {
  const r = S.redo.pop();
  if (!r || S.busy) return;
  const parent = nodeAt(r.prefix, r.prefix.length);
  if (!parent) return;
  parent.kids.splice(r.idx, 0, r.node);
  S.token++;
  await switchLine(extend(r.prefix.concat([r.node.a])), r.cur);
}

// undo takes back the last move (to the last position where a person is to
// move, in a game against an agent); Redo puts it back.
async function undo() {
  if (S.busy || S.cur === 0) return;
  let k = S.cur - 1;
  const humans = S.players.filter((p) => p === null).length;
  if (S.mode === 'play' && humans === 1) {
    while (k > 0 && S.players[S.view.positions[k].player] !== null) k--;
  }
  S.stuck = null;
  S.paused = S.mode === 'play' && humans === 0;
  await cut(k);
}

async function promote() {
  const m = S.req.moves;
  let n = S.tree;
  for (const a of m) {
    const i = n.kids.findIndex((c) => c.a === a);
    if (i < 0) break;
    const [c] = n.kids.splice(i, 1);
    n.kids.unshift(c);
    n = c;
  }
  render();
}

function specOf(id) { const v = $(id).value.trim(); return v === '' || v === 'human' ? null : v; }

// checkSetup checks the form before a game starts: the seed, and each
// agent spec with the server (so that a bad one fails now, not after the
// first move).
async function checkSetup(players) {
  const seed = $('#seed').value.trim();
  if (!/^\d{1,15}$/.test(seed)) throw new Error('seed: "' + seed + '" is not a whole number from 0 up');
  for (const [i, p] of players.entries()) {
    if (p === null) continue;
    try { await api('/api/check', { spec: p }); } catch (e) { throw new Error(['South', 'North'][i] + ': ' + e.message); }
  }
}

async function newGame(ev) {
  if (ev) ev.preventDefault();
  const players = [specOf('#south'), specOf('#north')];
  try { await checkSetup(players); } catch (e) { showError(e, 'game'); return false; }
  const req = { rules: $('#rules').value, start: $('#start').value.trim(), moves: [] };
  const file = $('#rules-file').files[0];
  if (file) req.rules_yaml = await file.text();
  try {
    await api('/api/game', req);
  } catch (e) {
    showError(e, 'game');
    return false;
  }
  S.token++;
  S.busy = false;
  S.paused = false;
  S.stuck = null;
  S.mode = 'play';
  S.players = players;
  const humans = players.filter((p) => p === null).length;
  S.names = players.map((p) => p === null ? (humans === 2 ? 'a person' : 'you') : p);
  S.seed = Number($('#seed').value);
  S.teach = $('#teach').checked;
  resetGame(req);
  try { await loadView(); showError(null, 'game'); } catch (e) { showError(e, 'game'); return false; }
  S.cur = 0;
  S.pushURL = true;
  render();
  agentTurn();
  return true;
}

function resetGame(req) {
  S.req = req;
  S.tree = { kids: [] };
  S.analysis = null;
  S.singles = {};
  S.tables = {};
  S.searches = {};
  S.redo = [];
  S.hint = null;
  S.offer = null;
  S.kept = null;
  S.source = null;
  renderOffer();
}

// ---------- teaching ----------

function analysisSpec() { return $('#an-spec').value.trim(); }

async function quick(moves) {
  const spec = analysisSpec();
  const res = await api('/api/analyse', { game: { ...S.req, moves }, ply: moves.length, spec, seed: S.seed });
  S.singles[lineKey(moves)] = { moves, spec: res.spec, unit: res.unit, analysis: res.analysis, t: Date.now() };
  return res.analysis;
}

// teachCheck grades the person's move a from the line prefix and offers a
// takeback after a mistake.
async function teachCheck(prefix, a) {
  const token = S.token;
  try {
    const before = S.singles[lineKey(prefix)] ? S.singles[lineKey(prefix)].analysis : await quick(prefix);
    const after = await quick(prefix.concat([a]));
    if (token !== S.token) return;
    const loss = Math.max(0, before.norm + after.norm);
    if (loss >= GRADES[1][0] && before.best !== undefined && before.best !== a) {
      S.offer = { ply: prefix.length, text: 'That move lost ' + loss.toFixed(2) + ' of the value; the best was ' +
        moveName(before.player, before.best) + '.' };
      renderOffer();
    }
    render();
  } catch (e) {
    showError(e, 'analysis');
  }
}

function renderOffer() {
  const box = $('#offer');
  box.textContent = '';
  if (!S.offer) { box.hidden = true; return; }
  const take = el('button', '', 'Take it back');
  take.id = 'takeback';
  take.addEventListener('click', async () => { const k = S.offer.ply; S.offer = null; renderOffer(); S.cur = Math.max(S.cur, k + 1); await cut(k); });
  const keep = el('button', '', 'Keep it');
  keep.addEventListener('click', () => { S.offer = null; renderOffer(); });
  box.append(el('span', '', S.offer.text + ' '), take, keep);
  box.hidden = false;
}

async function hint() {
  if (!S.view || pos().terminal) return;
  const prefix = S.req.moves.slice(0, S.cur);
  try {
    const have = plyAnalysis(S.cur);
    const a = have && have.a.best !== undefined ? have.a : await quick(prefix);
    if (a.best === undefined) return;
    S.hint = { key: lineKey(prefix), pit: a.player * P() + a.best };
    showError(null, 'analysis');
    render();
    $('#status').textContent = 'Hint: ' + moveName(a.player, a.best) + ' (' + analysisSpec() + ')';
  } catch (e) {
    showError(e, 'analysis');
  }
}

// ---------- records ----------

// recordRequest is the body of POST /api/record for the game shown: the
// main line, every variation, the whole-game analysis where it is of the
// main line, and every single analysis.
function recordRequest() {
  const kept = S.kept; // a replayed record's own players, specs, seed and opening
  const main = mainLine();
  const opening = kept && kept.opening.length <= main.length &&
    kept.opening.every((a, i) => main[i] === a) ? kept.opening : undefined;
  const an = S.analysis && same(S.analysis.line, main, S.analysis.plies.length - 1) ? { ...S.analysis, kept: undefined, line: undefined, t: undefined } : undefined;
  const singles = Object.values(S.singles).map((x) => ({ moves: x.moves, spec: x.spec, unit: x.unit, analysis: x.analysis }));
  return {
    game: { ...S.req, moves: main }, players: S.names, specs: kept ? kept.specs : S.players.map((p) => p || 'human'),
    seed: kept ? kept.seed : S.seed, opening, analysis: an, variations: variations(), singles,
  };
}

async function download() {
  try {
    const rec = await api('/api/record', recordRequest());
    const blob = new Blob([JSON.stringify(rec, null, 1)], { type: 'application/json' });
    const a = el('a');
    a.href = URL.createObjectURL(blob);
    a.download = 'urim-game-' + rec.rules + '-' + rec.plies + '.json';
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
    showError(null, 'record');
  } catch (e) {
    showError(e, 'record');
  }
}

// showLoaded shows a record returned by the server (/api/record/load,
// /api/game) for replay; a kept analysis is shown as it is.
function showLoaded(l, source, ply) {
  const r = l.record;
  S.token++;
  S.busy = false;
  S.stuck = null;
  S.mode = 'replay';
  const req = { rules: r.rules, custom_rules: r.custom_rules, max_plies: r.max_plies, start: r.start, moves: r.moves };
  if (!req.custom_rules) delete req.custom_rules;
  resetGame(req);
  addLine(r.moves);
  for (const v of r.variations || []) addLine(v);
  for (const x of r.singles || []) S.singles[lineKey(x.moves)] = { ...x, t: 0 };
  S.view = l.view;
  S.players = [null, null];
  S.names = [r.players[0] || 'South', r.players[1] || 'North'];
  S.analysis = r.analysis ? { ...r.analysis, line: r.moves.slice(), kept: true, t: 0 } : null; // shown as loaded, never recomputed
  S.kept = { specs: r.specs, seed: r.seed, opening: r.opening || [] };
  S.source = source || null;
  S.cur = Math.min(ply || 0, lastIndex());
  S.pushURL = true;
  showError(null, 'game');
  render();
}

async function loadRecordFile() {
  const file = $('#load-record').files[0];
  if (!file) return;
  try {
    const l = await api('/api/record/load', await file.text());
    showLoaded(l);
    showError(null, 'record');
  } catch (e) {
    showError(e, 'record');
  }
  $('#load-record').value = '';
}

// parseMoves reads moves as the page writes them ("1. c 2. E×3?") or as
// actions ("2,3,0"): a letter names a pit of the side to move, a number
// the action.
function parseMoves(text, pits) {
  const out = [];
  for (let tok of text.split(/[\s,;]+/)) {
    tok = tok.replace(/^\d+\.+/, '').replace(/×\d+/, '').replace(/[?!]+$/, '');
    if (tok === '') continue;
    if (/^\d+$/.test(tok)) out.push(Number(tok));
    else if (/^[a-z]$/i.test(tok)) {
      const c = tok.toLowerCase().charCodeAt(0) - 97;
      if (c >= pits) throw new Error('"' + tok + '": the rules have ' + pits + ' pits a row (a–' + String.fromCharCode(96 + pits) + ')');
      out.push(c);
    } else throw new Error('"' + tok + '" is neither a move (a pit letter or an action number) nor a position');
  }
  return out;
}

// pasteGame explores a pasted game: a position's notation, or moves.
async function pasteGame() {
  const text = $('#paste').value.trim();
  if (text === '') { showError(new Error('paste moves or a position first'), 'game'); return; }
  const rules = $('#rules').value;
  const notation = text.includes('/');
  let req;
  try {
    if (notation) req = { rules, start: text, moves: [] };
    else {
      const info = await api('/api/game', { rules, moves: [] });
      req = { rules, start: $('#start').value.trim(), moves: parseMoves(text, info.rules.pits_per_row) };
    }
    const view = await api('/api/game', req);
    S.token++;
    S.busy = false;
    S.stuck = null;
    S.mode = 'replay';
    S.players = [null, null];
    S.names = ['South', 'North'];
    resetGame(req);
    addLine(req.moves);
    S.view = view;
    S.cur = lastIndex();
    S.pushURL = true;
    showError(null, 'game');
    render();
  } catch (e) {
    showError(new Error('the pasted game: ' + e.message), 'game');
  }
}

// ---------- analysis ----------

// fmtValue writes a value for South.
function fmtValue(v, unit) {
  if (v === undefined || v === null) return '—';
  if (unit === 'seeds') {
    if (Math.abs(v) >= 1000) return (v > 0 ? 'South wins by ' : 'North wins by ') + Math.abs(Math.abs(v) - 1000) + ' seeds';
    return (v > 0 ? '+' : '') + v + ' seeds';
  }
  return (v > 0 ? '+' : '') + v.toFixed(3);
}

function showPly(an, into) {
  into.textContent = '';
  const { a, unit } = an;
  const t = el('table', 'kv');
  const row = (k, v) => { const tr = el('tr'); tr.append(el('td', '', k), el('td', '', v)); t.append(tr); return tr; };
  const mover = a.player;
  const sign = mover === 0 ? 1 : -1;
  row('value for South', fmtValue(a.value * sign, unit) + (unit === 'seeds' ? '' : ' (' + (50 + 50 * southValue(a)).toFixed(0) + '% for South)')).dataset.k = 'value';
  if (a.best !== undefined) row('best move', moveName(mover, a.best) + ' for ' + ['South', 'North'][mover]).dataset.k = 'best';
  if (a.pv && a.pv.length) {
    let side = mover;
    row('principal variation', a.pv.map((x) => { const s = moveName(side, x); side ^= 1; return s; }).join(' '));
  }
  if (a.depth) row(unit === 'seeds' ? 'depth' : 'simulations', String(a.depth));
  if (a.nodes) row('nodes', String(a.nodes));
  into.append(t);
  if (a.roots && a.roots.length) {
    // The engine's top moves, each with its own value, visits and line;
    // a click plays the move (a variation where it is not the line's).
    const total = a.roots.reduce((x, r) => x + (r.visits || 0), 0);
    const tb = el('table', 'top-moves');
    tb.id = 'top-moves';
    const head = el('tr');
    for (const h of ['', 'move', 'value for South', total ? 'visits' : '', 'line']) head.append(el('th', '', h));
    tb.append(head);
    a.roots.forEach((r, k) => {
      const tr = el('tr');
      tr.dataset.action = r.action;
      let side = mover;
      const line = r.pv.map((x) => { const s = moveName(side, x); side ^= 1; return s; }).join(' ');
      tr.append(el('td', '', String(k + 1)), el('td', 'mv', moveName(mover, r.action)), el('td', 'val', fmtValue(r.value * sign, unit)),
        el('td', '', total ? r.visits + ' (' + (100 * r.visits / total).toFixed(0) + '%)' : ''), el('td', 'line', line));
      tr.title = 'play ' + moveName(mover, r.action) + ' here';
      tr.addEventListener('click', () => { if (canMove() && pos().legal.includes(r.action) && pos().player === mover) playAction(r.action); });
      tb.append(tr);
    });
    into.append(el('div', 'hint', 'top moves (a click plays one)'), tb);
  } else if (a.visits) {
    // The engine's top moves by visits, most first.
    const total = a.visits.reduce((x, y) => x + y, 0) || 1;
    const top = a.visits.map((v, i) => [v, i]).filter((x) => x[0] > 0).sort((x, y) => y[0] - x[0]).slice(0, 3);
    const ol = el('ol', 'top-moves');
    for (const [v, i] of top) ol.append(el('li', '', moveName(mover, i) + ': ' + v + ' visits (' + (100 * v / total).toFixed(0) + '%)'));
    into.append(el('div', 'hint', 'top moves by visits'), ol);
  }
  if (a.visits) {
    const most = Math.max(...a.visits, 1);
    const bars = el('div', 'visits');
    a.visits.forEach((v, i) => {
      const col = el('div', 'col' + (i === a.best ? ' best' : ''));
      const bar = el('div', 'bar');
      bar.style.height = Math.round(2 + 58 * v / most) + 'px';
      col.append(el('span', 'n', String(v)), bar, el('span', 'pitname', moveName(mover, i)));
      bars.append(col);
    });
    into.append(el('div', 'hint', 'visits per move'), bars);
  }
}

function renderPlyAnalysis() {
  const box = $('#an-result');
  box.textContent = '';
  // The move that led here, graded.
  if (S.cur > 0) {
    const g = grade(S.cur - 1);
    const prev = S.view.positions[S.cur - 1];
    const name = moveName(prev.player, S.req.moves[S.cur - 1]);
    if (g) {
      const p = el('p', 'move-grade', 'Move ' + S.cur + ', ' + name + (g.mark ? g.mark : '') + ': ' + g.word +
        (g.exact ? (g.seeds ? ', ' + (g.atLeast ? 'at least ' : '') + g.seeds + ' seed' + (g.seeds === 1 ? '' : 's') + ' lost' : '') : ', lost ' + g.loss.toFixed(3)) + (g.best ? '; best was ' + g.best : ''));
      p.id = 'move-grade';
      box.append(p);
    }
  }
  const an = plyAnalysis(S.cur);
  if (!an) return;
  const where = el('div');
  showPly(an, where);
  const label = { single: 'analysis of this position by ', game: 'whole-game analysis by ', kept: 'kept analysis by ', move: 'the search behind the move of ' }[an.kind];
  const head = el('div', 'hint', label + an.spec);
  head.id = 'an-spec-shown';
  box.append(head, where);
}

function key() { return JSON.stringify([S.req, S.cur]); }

// analyseHere analyses the position shown, deepening (the spec's sims,
// depth or time doubled each round, up to the server's caps) until Stop.
async function analyseHere() {
  if (S.deepen) return;
  const prefix = S.req.moves.slice(0, S.cur);
  const k = lineKey(prefix);
  const game = { ...S.req, moves: S.req.moves.slice() };
  const ctl = { stop: false };
  S.deepen = ctl;
  $('#analyse').disabled = true;
  $('#stop').disabled = false;
  delete S.singles[k];
  render();
  let spec = analysisSpec();
  const text = $('#deepen-text');
  text.dataset.rounds = 0;
  try {
    let round = 0;
    for (; round < 8 && !ctl.stop; round++) {
      text.textContent = 'deepening: round ' + (round + 1) + ', ' + spec + '… (Stop keeps the last answer)';
      const res = await api('/api/analyse', { game, ply: prefix.length, spec, seed: S.seed });
      S.singles[k] = { moves: prefix, spec: res.spec, unit: res.unit, analysis: res.analysis, t: Date.now() };
      text.dataset.rounds = round + 1;
      showError(null, 'analysis');
      render();
      const next = deeper(spec);
      if (!next) { round++; break; }
      spec = next;
    }
    text.textContent = (ctl.stop ? 'stopped after ' : 'done: ') + round + ' round' + (round === 1 ? '' : 's');
  } catch (e) {
    // A refused deeper round keeps the last answer; a first refusal shows.
    if (!S.singles[k]) showError(e, 'analysis');
    text.textContent = S.singles[k] ? 'stopped: ' + e.message : '';
  } finally {
    S.deepen = null;
    $('#analyse').disabled = false;
    $('#stop').disabled = true;
    render();
  }
}

// deeper doubles a spec's budget within the server's caps, or returns null.
function deeper(spec) {
  const lim = (S.info && S.info.limits) || {};
  const m = spec.match(/^(\w+)(?::(.*))?$/);
  if (!m) return null;
  const params = (m[2] || '').split(',').filter((x) => x);
  const name = m[1];
  const keyOf = { mcts: ['sims', 1000, lim.max_sims], az: ['sims', 200, lim.max_sims], alphabeta: ['depth', 8, lim.max_depth] }[name];
  if (!keyOf) return null;
  const [kname, def, cap] = keyOf;
  let found = false;
  const out = params.map((p) => {
    const [kk, v] = p.split('=');
    if (kk !== kname) return p;
    found = true;
    const n = kname === 'depth' ? Number(v) + 2 : Number(v) * 2;
    return kk + '=' + Math.min(n, cap || n);
  });
  if (!found) out.push(kname + '=' + (kname === 'depth' ? def + 2 : def * 2));
  const s = name + ':' + out.join(',');
  return s === spec ? null : s;
}

function stopAnalysis() { if (S.deepen) S.deepen.stop = true; if (S.gameRun) S.gameRun.abort(); }

let tbKey = null;
async function probeTable() {
  const k = key();
  if (tbKey === k) return;
  tbKey = k;
  const box = $('#tb-result');
  const q = pos();
  // Figures of another position never stay on show (defect 10).
  delete box.dataset.seeds; delete box.dataset.store; delete box.dataset.best;
  if (q.terminal) { box.textContent = ''; return; }
  const line = lineKey(S.req.moves.slice(0, S.cur));
  try {
    const res = await api('/api/analyse', { game: S.req, ply: S.cur, spec: '' });
    if (tbKey !== k) return;
    box.textContent = '';
    const t = res.analysis.table;
    if (!t) { box.append(el('p', 'hint', 'The endgame table does not cover this position.')); return; }
    if (!S.tables[line]) {
      // The next move can now be graded by the table: draw the grades again.
      S.tables[line] = t;
      renderMoves();
      renderPlyAnalysis();
      drawGraph();
    }
    const who = ['South', 'North'][q.player];
    const mine = q.stores[q.player];
    const fin = t.exact ? String(mine + t.lower) : (mine + t.lower) + ' to ' + (mine + t.upper);
    const head = (t.exact ? 'exact: ' : '') + who + ' (to move) finishes with ' + fin + ' seeds: the ' + mine + ' in store now and ' +
      (t.exact ? t.lower : t.lower + '–' + t.upper) + ' of the ' + t.seeds + ' still on the board';
    box.append(el('h3', '', 'Endgame table'), el('p', '', head));
    const b = tableBest(t);
    if (b.moves.length) {
      box.append(el('p', '', (t.exact ? 'best moves: ' : 'moves that keep the bound: ') + b.moves.map((a) => moveName(q.player, a)).join(', ') +
        (b.stored ? ' (the stored best-move set)' : ' (the table\'s analysis with this history)')));
    }
    box.dataset.best = b.moves.join(',');
    box.dataset.seeds = t.seeds;
    box.dataset.store = mine;
  } catch (e) {
    box.textContent = '';
  }
}

async function analyseGame() {
  if (S.gameRun) return;
  const spec = analysisSpec();
  const ctl = new AbortController();
  S.gameRun = ctl;
  $('#cancel').disabled = false;
  $('#analyse-game').disabled = true;
  const n = S.view.positions.length;
  const line = S.req.moves.slice();
  const old = S.analysis;
  S.analysis = { spec, unit: 'value', plies: [], worst: [], line, t: Date.now() };
  const bar = $('#analyse-game-progress');
  bar.max = n;
  bar.value = 0;
  $('#analyse-game-text').textContent = '0 / ' + n;
  try {
    const res = await fetch('/api/analyse-game', {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, signal: ctl.signal,
      body: JSON.stringify({ game: { ...S.req, moves: line }, spec, seed: S.seed }),
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
        const ln = JSON.parse(buf.slice(0, nl));
        buf = buf.slice(nl + 1);
        if (ln.error) throw new Error(ln.error);
        bar.value = ln.done;
        $('#analyse-game-text').textContent = ln.done + ' / ' + ln.total;
        if (ln.ply) { S.analysis.plies[ln.ply.ply] = ln.ply; S.analysis.unit = S.analysis.unit || 'value'; }
        if (ln.analysis) {
          S.analysis = { ...ln.analysis, line, t: S.analysis.t };
          $('#analyse-game-text').textContent = 'done: ' + ln.total + ' positions by ' + ln.analysis.spec;
        }
        if (!S.busy) render();
      }
    }
    showError(null, 'analysis');
  } catch (e) {
    if (e.name === 'AbortError') $('#analyse-game-text').textContent = 'cancelled';
    else { showError(e, 'analysis'); if (!S.analysis.plies.length) S.analysis = old; $('#analyse-game-text').textContent = ''; }
  } finally {
    S.gameRun = null;
    $('#cancel').disabled = true;
    $('#analyse-game').disabled = false;
    if (!S.busy) render();
  }
}

function cancelGameAnalysis() { if (S.gameRun) S.gameRun.abort(); }

// fitCanvas sizes a canvas' drawing to its shown size (sharp on any screen).
function fitCanvas(c) {
  const r = c.getBoundingClientRect();
  const dpr = window.devicePixelRatio || 1;
  const w = Math.max(200, Math.round(r.width || c.width)), h = Math.round(r.height || c.height);
  if (c.width !== Math.round(w * dpr) || c.height !== Math.round(h * dpr)) { c.width = Math.round(w * dpr); c.height = Math.round(h * dpr); }
  const g = c.getContext('2d');
  g.setTransform(dpr, 0, 0, dpr, 0, 0);
  return { g, w, h };
}

const GRAPH = { left: 34, right: 8, top: 8, bottom: 18 };

// drawGraph draws South's value over the plies, with its axes.
function drawGraph() {
  const c = $('#graph');
  const { g, w, h } = fitCanvas(c);
  const { left, right, top, bottom } = GRAPH;
  g.clearRect(0, 0, w, h);
  g.font = '11px sans-serif';
  const n = S.view ? S.view.positions.length : 1;
  const x = (i) => left + (w - left - right) * (n > 1 ? i / (n - 1) : 0);
  const y = (v) => top + (h - top - bottom) * (1 - v) / 2;
  g.fillStyle = '#666';
  g.strokeStyle = '#e4e4e4';
  for (const v of [1, 0.5, 0, -0.5, -1]) {
    g.beginPath(); g.moveTo(left, y(v)); g.lineTo(w - right, y(v)); g.stroke();
    g.fillText((v > 0 ? '+' : '') + v, 2, y(v) + 4);
  }
  const step = Math.max(1, Math.ceil((n - 1) / Math.max(1, Math.floor((w - left) / 45)) / 5) * 5);
  for (let i = 0; i < n; i += step) g.fillText(String(i), x(i) - 4, h - 4);
  g.fillText('South', left + 3, top + 10);
  g.fillText('North', left + 3, h - bottom - 3);
  if (S.view) {
    g.strokeStyle = '#2f6fb3aa';
    g.beginPath(); g.moveTo(x(S.cur), 0); g.lineTo(x(S.cur), h - bottom); g.stroke();
  }
  let pts = 0;
  const vals = [];
  for (let i = 0; i < n; i++) { const an = S.view && plyAnalysis(i); if (an) { vals[i] = southValue(an.a); pts++; } }
  g.strokeStyle = '#222';
  g.lineWidth = 2;
  g.beginPath();
  let started = false;
  vals.forEach((v, i) => { if (v === undefined) return; if (!started) { g.moveTo(x(i), y(v)); started = true; } else g.lineTo(x(i), y(v)); });
  g.stroke();
  g.lineWidth = 1;
  // Each graded move is marked at the position it led to.
  const colors = ['#c0392b', '#e67e22', '#d4ac0d'];
  const marked = [];
  for (let i = 1; i < n; i++) {
    const gr = S.view && grade(i - 1);
    if (!gr || !gr.mark || vals[i] === undefined) continue;
    g.fillStyle = colors[GRADES.findIndex((z) => z[1] === gr.mark)];
    g.beginPath(); g.arc(x(i), y(vals[i]), 4.5, 0, 2 * Math.PI); g.fill();
    marked.push(i);
  }
  c.dataset.points = pts;
  c.dataset.marked = marked.join(',');
  c.dataset.worst = ((S.analysis && S.analysis.worst) || []).join(',');
  S.graphVals = vals;
}

function graphPly(ev) {
  const c = $('#graph');
  const r = c.getBoundingClientRect();
  const n = S.view.positions.length;
  const i = Math.round((ev.clientX - r.left - GRAPH.left) / (r.width - GRAPH.left - GRAPH.right) * (n - 1));
  return Math.max(0, Math.min(n - 1, i));
}
function graphClick(ev) { if (S.view) goTo(graphPly(ev)); }
function graphHover(ev) {
  if (!S.view) return;
  const i = graphPly(ev);
  const tip = $('#graph-tip');
  const v = S.graphVals && S.graphVals[i];
  const gr = i > 0 ? grade(i - 1) : null;
  tip.textContent = 'ply ' + i + (v !== undefined ? ': South ' + (v > 0 ? '+' : '') + v.toFixed(3) : ': no value') +
    (gr && gr.mark ? ' — move ' + i + ' ' + gr.mark + (gr.best ? ', best was ' + gr.best : '') : '');
  const r = $('#graph').getBoundingClientRect();
  tip.style.left = Math.min(r.width - 180, Math.max(0, ev.clientX - r.left + 10)) + 'px';
  tip.hidden = false;
}

// ---------- replay ----------

async function loadSources() {
  try {
    const src = await api('/api/sources');
    const sel = $('#source');
    const was = sel.value;
    sel.textContent = '';
    for (const s of src.games) {
      const o = el('option', '', s.ref + ' (' + s.kind + ')');
      o.value = s.ref;
      sel.append(o);
    }
    if (was) sel.value = was;
    if (!src.games.length) sel.append(el('option', '', 'no games served (urim serve --data DIR)'));
    const ul = $('#run-list');
    ul.textContent = '';
    for (const r of src.runs) {
      const li = el('li');
      const a = el('a', '', r.name);
      a.dataset.run = r.ref;
      a.href = '#';
      a.addEventListener('click', (ev) => { ev.preventDefault(); openRun(r.ref); });
      li.append(a);
      ul.append(li);
    }
    if (!src.runs.length) ul.append(el('li', 'hint', 'no runs served (urim serve --runs DIR)'));
    if (src.games.length && !S.listed) { S.listed = true; listGames(); }
    showError(null, 'sources');
  } catch (e) {
    showError(e, 'sources');
  }
}

async function loadNetworks() {
  try {
    const res = await api('/api/networks');
    const sel = $('#network');
    if (!res.networks.length) return;
    sel.textContent = '';
    for (const n of res.networks) { const o = el('option', '', n); o.value = n; sel.append(o); }
  } catch (e) {
    showError(e, 'sources');
  }
}

// playNetwork starts a teaching game against a network (you play South).
async function playNetwork(ref) {
  if (!ref) { showError(new Error('no network chosen: serve some with urim serve --models DIR or --runs DIR'), 'game'); return; }
  showTab('play');
  $('#south').value = 'human';
  $('#north').value = 'az:ckpt=' + ref + ',sims=200';
  $('#an-spec').value = 'az:ckpt=' + ref + ',sims=400';
  $('#teach').checked = true;
  await newGame();
}

function resultText(g) {
  return g.winner === -1 ? 'draw ' + g.stores.join('–') : ['South', 'North'][g.winner] + ' ' + g.stores.join('–');
}

// fillGameRows lists games; iterations adds the column of the training
// iteration that played each (a run's sampled games).
function fillGameRows(tbody, games, source, iterations) {
  tbody.textContent = '';
  for (const g of games) {
    const tr = el('tr', 'game-row');
    tr.dataset.n = g.n;
    if (iterations) tr.append(el('td', 'iteration', g.iteration === undefined ? '—' : String(g.iteration)));
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
    showError(null, 'list');
  } catch (e) {
    showError(e, 'list');
  }
}

async function openGame(source, n, ply) {
  try {
    const l = await api('/api/game?' + new URLSearchParams({ source, n: String(n) }));
    showTab('replay');
    showLoaded(l, { source, n }, ply);
  } catch (e) {
    showError(e, 'list');
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
    $('#run-play').hidden = !v.best;
    $('#run-play').dataset.ref = v.best || '';
    const c = v.columns;
    const it = c.iteration || [];
    const pick = (...names) => names.map((nm) => c[nm]).find((col) => col);
    S.charts = [
      [$('#chart-loss'), it, [{ name: 'policy loss', ys: c.policy_loss, color: '#2f6fb3' }, { name: 'value loss', ys: c.value_loss, color: '#c0392b' }]],
      [$('#chart-entropy'), it, [{ name: 'entropy', ys: c.entropy, color: '#2e8b57' }, { name: 'KL', ys: pick('kl', 'approx_kl'), color: '#8e44ad', right: true }]],
      [$('#chart-elo'), it, [{ name: 'Elo', ys: c.elo, color: '#1f4e79', lo: c.elo_lo95, hi: c.elo_hi95 }]],
      [$('#chart-speed'), it, [{ name: 'positions/s', ys: pick('positions_per_s', 'env_steps_per_s'), color: '#d35400' }]],
    ];
    drawCharts();
    fillGameRows($('#run-samples tbody'), v.samples.slice().reverse(), v.samples_ref, true);
    showError(null, 'run');
  } catch (e) {
    showError(e, 'run');
  }
  loadSources(); // a new run appears without a reload
  S.runTimer = setTimeout(refreshRun, 3000);
}

function drawCharts() { for (const [c, xs, series] of S.charts || []) chart(c, xs, series); }

// ticks returns about n round values from lo to hi.
function ticks(lo, hi, n) {
  const span = hi - lo || 1;
  const raw = span / n;
  const mag = Math.pow(10, Math.floor(Math.log10(raw)));
  const step = [1, 2, 5, 10].map((k) => k * mag).find((s) => s >= raw);
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) out.push(+v.toPrecision(12));
  return out;
}

// chart draws line series over xs with ticked axes; a series with lo and
// hi gets a band, one with right its own scale (drawn on the right).
function chart(c, xs, series) {
  const { g, w, h } = fitCanvas(c);
  const left = 46, right = 46, top = 18, bottom = 22;
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
  g.strokeStyle = '#eee';
  g.fillStyle = '#666';
  for (const v of ticks(sl.lo, sl.hi, 4)) {
    g.beginPath(); g.moveTo(left, sl.Y(v)); g.lineTo(w - right, sl.Y(v)); g.stroke();
    g.fillText(fmtNum(v), 2, sl.Y(v) + 4);
  }
  for (const v of ticks(xmin, xmax, Math.max(2, Math.floor((w - left - right) / 70)))) {
    if (v !== Math.round(v)) continue;
    g.fillText(String(v), X(v) - 6, h - 8);
  }
  g.fillText('iteration', w - right - 46, h - 0.5);
  let lx = left + 4;
  for (const s of series) {
    if (!s.ys) continue;
    const sc = s.right ? sr : sl;
    if (s.right) { g.fillStyle = s.color; for (const v of ticks(sr.lo, sr.hi, 4)) g.fillText(fmtNum(v), w - right + 3, sr.Y(v) + 4); }
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
  c.chartData = { xv, series, X, left, right };
}

// chartHover shows the values of the iteration under the pointer.
function chartHover(ev) {
  const c = ev.currentTarget;
  const d = c.chartData;
  const tip = $('#chart-tip');
  if (!d || !d.xv.length) return;
  const r = c.getBoundingClientRect();
  const px = ev.clientX - r.left;
  let best = 0;
  d.xv.forEach((x, i) => { if (Math.abs(d.X(x) - px) < Math.abs(d.X(d.xv[best]) - px)) best = i; });
  tip.textContent = 'iteration ' + d.xv[best] + ': ' + d.series.filter((s) => s.ys).map((s) => s.name + ' ' +
    (s.ys[best] === null ? '—' : fmtNum(s.ys[best])) + (s.lo && s.lo[best] !== null ? ' (' + fmtNum(s.lo[best]) + '–' + fmtNum(s.hi[best]) + ')' : '')).join(', ');
  tip.style.left = (ev.pageX + 12) + 'px';
  tip.style.top = (ev.pageY + 12) + 'px';
  tip.hidden = false;
}

function fmtNum(v) {
  const a = Math.abs(v);
  if (a >= 10000) return (v / 1000).toFixed(0) + 'k';
  if (a >= 100) return v.toFixed(0);
  if (a >= 1) return v.toFixed(2);
  return v.toPrecision(2);
}


// ---------- links ----------

// urlParams writes the game shown and its ply as a query string.
function urlParams() {
  const q = new URLSearchParams();
  if (S.source) { q.set('source', S.source.source); q.set('n', String(S.source.n)); } else {
    if (S.req.rules && !S.req.rules_yaml && !S.req.custom_rules) q.set('rules', S.req.rules);
    if (S.req.start) q.set('start', S.req.start);
    if (S.mode === 'play') {
      q.set('south', S.players[0] || 'human');
      q.set('north', S.players[1] || 'human');
      q.set('seed', String(S.seed));
    } else q.set('explore', '1');
  }
  if (S.req.moves.length && !(S.source && same(S.req.moves, mainLine(), S.req.moves.length) && S.req.moves.length === mainLine().length)) q.set('moves', S.req.moves.join(','));
  q.set('ply', String(S.cur));
  return q;
}

function updateURL() {
  if (!S.view || S.busy) return;
  const q = '?' + urlParams().toString();
  if (q === location.search) return;
  if (S.pushURL && !S.restoring) history.pushState(null, '', q); else history.replaceState(null, '', q);
  S.pushURL = false;
}

function movesOf(q) {
  const m = q.get('moves');
  return m ? m.split(',').map(Number).filter((x) => Number.isInteger(x) && x >= 0) : null;
}

// applyURL shows the game and ply a query string names.
async function applyURL(q) {
  S.restoring = true;
  try {
    const ply = Number(q.get('ply') || 0);
    let moves = movesOf(q);
    if (q.has('source')) {
      showTab('replay');
      if (!S.source || S.source.source !== q.get('source') || String(S.source.n) !== q.get('n')) await openGame(q.get('source'), Number(q.get('n')), ply);
    } else {
      for (const id of ['south', 'north', 'rules', 'start', 'seed', 'speed']) if (q.has(id)) $('#' + id).value = q.get(id);
      const sameGame = S.view && !S.source && (S.req.start || '') === (q.get('start') || '') && (!q.has('rules') || S.req.rules === q.get('rules')) &&
        (q.has('explore') ? S.mode === 'replay' : S.mode === 'play' && (S.players[0] || 'human') === q.get('south') && (S.players[1] || 'human') === q.get('north'));
      if (!sameGame) {
        if (q.has('explore')) {
          S.mode = 'replay';
          const req = { rules: q.get('rules') || 'urim', start: q.get('start') || '', moves: [] };
          await api('/api/game', req).then((v) => {
            resetGame(req); S.players = [null, null]; S.names = ['South', 'North']; S.view = v; S.cur = 0;
          }).catch((e) => showError(e, 'game'));
        } else if (!(await newGame())) return;
      }
    }
    if (!S.view) return;
    // No moves: the main line (a link writes them only for another line).
    if (!moves) moves = mainLine();
    if (!same(moves, S.req.moves, Math.max(moves.length, S.req.moves.length))) {
      addLine(moves);
      S.req.moves = extend(moves);
      try { await loadView(); } catch (e) { showError(e, 'game'); return; }
    }
    S.cur = Math.max(0, Math.min(lastIndex(), ply));
    render();
    agentTurn();
  } finally {
    S.restoring = false;
  }
}

async function copyText(text, what) {
  try {
    await navigator.clipboard.writeText(text);
    $('#status').textContent = what + ' copied';
  } catch (e) {
    // No clipboard (an insecure page, a refused permission): select the
    // notation for Ctrl-C, or show the text to copy.
    if (text === $('#notation').value) $('#notation').select();
    $('#status').textContent = what + ': select and copy it (' + text + ')';
  }
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
  else if (k === '?') { const d = $('#help'); if (d.open) d.close(); else d.showModal(); }
  else if (k === 'u' || k === 'U') undo();
  else if (k === 'r' || k === 'R') redo();
  else if (k === 'h' || k === 'H') hint();
  else if (k.length === 1 && /[a-z]/i.test(k)) {
    const a = k.toLowerCase().charCodeAt(0) - 97;
    if (a < 0 || a >= P() || !canMove()) return;
    if (!pos().legal.includes(a)) {
      $('#status').textContent = moveName(pos().player, a) + ' cannot be played here (legal: ' +
        pos().legal.map((x) => moveName(pos().player, x)).join(', ') + ')';
      return;
    }
    playAction(a);
  } else return;
  ev.preventDefault();
}

async function start() {
  window.addEventListener('error', (e) => showError(new Error('the page failed: ' + e.message), 'page'));
  document.querySelectorAll('.tab').forEach((b) => b.addEventListener('click', () => showTab(b.dataset.tab)));
  $('#setup').addEventListener('submit', newGame);
  $('#filter').addEventListener('submit', listGames);
  $('#source').addEventListener('change', () => listGames());
  $('#first').addEventListener('click', () => goTo(0));
  $('#prev').addEventListener('click', () => goTo(S.cur - 1));
  $('#next').addEventListener('click', () => goTo(S.cur + 1));
  $('#last').addEventListener('click', () => goTo(lastIndex()));
  $('#undo').addEventListener('click', undo);
  $('#redo').addEventListener('click', redo);
  $('#delete-var').addEventListener('click', () => { if (S.cur > 0 && !S.busy) cut(S.cur - 1); });
  $('#promote').addEventListener('click', promote);
  $('#hint').addEventListener('click', hint);
  $('#help-button').addEventListener('click', () => $('#help').showModal());
  $('#pause').addEventListener('click', () => { S.paused = !S.paused; render(); agentTurn(); });
  $('#download').addEventListener('click', download);
  $('#load-record').addEventListener('change', loadRecordFile);
  $('#analyse').addEventListener('click', analyseHere);
  $('#stop').addEventListener('click', stopAnalysis);
  $('#analyse-game').addEventListener('click', analyseGame);
  $('#cancel').addEventListener('click', cancelGameAnalysis);
  $('#graph').addEventListener('click', graphClick);
  $('#graph').addEventListener('mousemove', graphHover);
  $('#graph').addEventListener('mouseleave', () => { $('#graph-tip').hidden = true; });
  for (const c of document.querySelectorAll('.charts canvas')) {
    c.addEventListener('mousemove', chartHover);
    c.addEventListener('mouseleave', () => { $('#chart-tip').hidden = true; });
  }
  $('#copy-notation').addEventListener('click', () => copyText(pos().notation, 'the notation'));
  $('#copy-link').addEventListener('click', () => copyText(location.href, 'the link'));
  $('#paste-load').addEventListener('click', pasteGame);
  $('#play-network').addEventListener('click', () => playNetwork($('#network').value));
  $('#run-play').addEventListener('click', () => playNetwork($('#run-play').dataset.ref));
  $('#rules').addEventListener('change', () => { $('#rules-file').value = ''; $('#rules-file-clear').hidden = true; });
  $('#rules-file').addEventListener('change', () => { $('#rules-file-clear').hidden = !$('#rules-file').files.length; });
  $('#rules-file-clear').addEventListener('click', () => { $('#rules-file').value = ''; $('#rules-file-clear').hidden = true; });
  $('#teach').addEventListener('change', () => { S.teach = $('#teach').checked; });
  document.addEventListener('keydown', onKey);
  window.addEventListener('popstate', () => applyURL(new URLSearchParams(location.search)));
  let resize = null;
  window.addEventListener('resize', () => { clearTimeout(resize); resize = setTimeout(() => { if (S.view) drawGraph(); drawCharts(); }, 100); });
  try {
    S.info = await api('/api/info');
  } catch (e) {
    showError(e, 'info');
    return;
  }
  const rules = $('#rules');
  for (const p of S.info.presets) { const o = el('option', '', p); o.value = p; rules.append(o); }
  const dl = $('#agent-list');
  for (const a of S.info.agents) { const o = el('option'); o.value = a.name; o.label = a.help; dl.append(o); }
  // The query string may preset the game: ?south=human&north=SPEC&rules=urim&start=...&speed=0.4&moves=2,3&ply=1
  const q = new URLSearchParams(location.search);
  if (q.has('rules') && !S.info.presets.includes(q.get('rules'))) {
    const o = el('option', '', q.get('rules') + ' (rules file)'); // served by urim play --web
    o.value = q.get('rules');
    rules.append(o);
  }
  showTab('play');
  loadSources();
  loadNetworks();
  await applyURL(q);
}

start();
