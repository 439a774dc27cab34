// The analysis board: /analysis?variant=ID&start=POSITION&moves=M1+M2...&ply=N
// (&game=ID: the game it came from). Any position of any game the app offers:
// moves made on it grow a tree of variations (tree.js); the engine's best
// lines and an evaluation bar follow the position on screen. The server
// knows the rules (POST /api/positions) and searches (POST /api/lines);
// nothing is stored.

import {api, ApiError, getVariant, getVariants, absolute} from './api.js';
import {Geometry} from './geometry.js';
import {BoardViews, savedView, clickOn} from './board-views.js';
import {el, $, setChildren, copyField} from './util.js';
import {showPromotion, hidePromotion} from './promotion.js';
import {renderPieceLegend} from './pieces.js';
import {Tree, treeTokens} from './tree.js';

/** The engine's expected score for White at a centipawn score: the server's model (raum_engine::wdl, k 0.42). */
export const whiteShare = (cp) => 1 / (1 + Math.pow(10, (-0.42 * cp) / 400));

// Searches: a quick look as soon as a position is shown, then a longer one.
const QUICK_MS = 400;
const DEEP_MS = 2500;

const app = {
  variantId: null,
  start: null, // a position string, or null: the variant's start
  gameId: null,
  variant: null,
  geom: null,
  views: null,
  tree: new Tree(),
  node: null,
  startPieces: new Map(),
  two: true,
  selected: null,
  hover: -1,
  // this page's board: its new search stops its last one, not another tab's
  boardId: Math.random().toString(36).slice(2, 12),
  engine: {on: localStorage.getItem('raum:engine') !== 'off', multipv: Number(localStorage.getItem('raum:multipv')) || 3, answer: null, timer: null, asked: 0},
};

let resolveReady;
let resolveReady3d;
const ready3d = new Promise((r) => (resolveReady3d = r));
window.raumTest = {
  ready: new Promise((r) => (resolveReady = r)),
  get node() {
    return app.node && {ply: app.node.ply, coords: app.tree.coords(app.node), fen: app.node.state && app.node.state.fen};
  },
  get lines() {
    return app.engine.answer;
  },
  metrics3d: () => app.views.board3d.metrics(),
  ready3d: () => ready3d,
  project: (cell) => app.views.board3d.project(cell),
  tree: () => treeTokens(app.tree, app.two).map((t) => (t.kind === 'move' ? t.label : t.kind === 'open' ? '(' : ')')).join(' '),
};

// ---- the server ---------------------------------------------------------------
function position(moves) {
  return api('POST', '/api/positions', {variant: app.variantId, start: app.start, moves});
}

/** The node's position from the server, asked once. */
async function ensureState(node) {
  if (node.state) return node.state;
  const state = await position(app.tree.coords(node));
  node.state = state;
  // (the moves' changes come with it: a line opened from a link knows them now)
  app.tree.path(node).forEach((n, i) => {
    if (!n.move.changes && state.moves[i]) n.move = state.moves[i];
  });
  return state;
}

// ---- moving -------------------------------------------------------------------
async function goTo(node) {
  if (!node) return;
  app.node = node;
  app.selected = null;
  hidePromotion();
  render();
  scheduleEngine();
  try {
    await ensureState(node);
  } catch (e) {
    showError(e.message);
  }
  if (app.node === node) render();
}

async function playCoord(coord) {
  const from = app.node;
  showError(null);
  try {
    const state = await position([...app.tree.coords(from), coord]);
    const node = app.tree.add(from, state.moves[state.moves.length - 1]);
    node.state = state;
    await goTo(node);
  } catch (e) {
    showError(e.message);
  }
}

function play(from, to) {
  const state = app.node.state;
  const candidates = state ? state.legal.filter((m) => m.from === from && m.to === to) : [];
  if (!candidates.length) return;
  app.selected = null;
  if (candidates.length === 1) playCoord(candidates[0].coord);
  else showPromotion(state, app.variant, candidates, (coord) => playCoord(coord));
}

function onCell(cell) {
  const state = app.node && app.node.state;
  if (!state || cell < 0) {
    if (app.selected !== null) {
      app.selected = null;
      renderBoard();
    }
    return null;
  }
  const click = clickOn(state.legal, app.selected, cell);
  if (click.play) {
    play(...click.play);
    return null;
  }
  app.selected = click.select;
  renderBoard();
  return click.drag ? 'drag' : null;
}

// ---- the engine -----------------------------------------------------------------
function scheduleEngine() {
  clearTimeout(app.engine.timer);
  const node = app.node;
  if (app.engine.answer && app.engine.answer.node !== node) app.engine.answer = null;
  renderEngine();
  if (!app.engine.on) return;
  app.engine.timer = setTimeout(() => search(node, QUICK_MS).then((ok) => ok && search(node, DEEP_MS)), 150);
}

/** Searches `node` for `movetime` ms, if it is still on screen; whether an answer came. */
async function search(node, movetime) {
  if (app.node !== node || !app.engine.on) return false;
  const state = node.state || (await ensureState(node).catch(() => null));
  if (!state || state.result || app.node !== node) return false;
  const asked = ++app.engine.asked;
  app.engine.pending = true;
  renderEngine();
  try {
    const answer = await api('POST', '/api/lines', {variant: app.variantId, start: app.start, moves: app.tree.coords(node), movetime, multipv: app.engine.multipv, board: app.boardId});
    if (asked !== app.engine.asked || app.node !== node) return false;
    app.engine.answer = {...answer, node};
    return true;
  } catch (e) {
    if (asked !== app.engine.asked || app.node !== node) return false;
    // The engine is busy (or this board's last search has not let go yet): try again shortly.
    if (e instanceof ApiError && (e.status === 429 || e.status === 503)) {
      app.engine.timer = setTimeout(() => search(node, movetime).then((ok) => ok && movetime === QUICK_MS && search(node, DEEP_MS)), 800);
    } else {
      showError(e.message);
    }
    return false;
  } finally {
    if (asked === app.engine.asked) {
      app.engine.pending = false;
      renderEngine();
      renderBoard();
    }
  }
}

/** Plays the engine line's moves up to the `upto`th from the position on screen into the tree. */
async function playLine(moves, upto) {
  let node = app.node;
  try {
    const state = await position([...app.tree.coords(node), ...moves.slice(0, upto + 1)]);
    node = app.tree.addLine(node, state.moves.slice(node.ply));
    node.state = state;
    await goTo(node);
  } catch (e) {
    showError(e.message);
  }
}

// ---- rendering ----------------------------------------------------------------
function boardView() {
  const node = app.node;
  const state = node.state;
  let pieces = app.tree.pieces(app.startPieces, node);
  if (!pieces) pieces = state ? app.geom.parseBoard(state.fen) : new Map();
  const view = {pieces, dests: new Map(), check: [], selected: null, hover: app.hover};
  if (node.move) view.last = {from: node.move.from, to: node.move.to};
  view.check = state ? state.check : (node.move && node.move.checks) || [];
  if (state && !state.result) {
    view.movable = new Set(state.legal.map((m) => m.from));
    if (app.selected !== null) {
      view.selected = app.selected;
      for (const m of state.legal) if (m.from === app.selected) view.dests.set(m.to, {capture: pieces.has(m.to)});
    }
  }
  const answer = app.engine.answer;
  const best = answer && answer.node === node && answer.lines[0] && answer.lines[0].best;
  if (best) view.hint = {from: best.from, to: best.to};
  return view;
}

function renderBoard() {
  if (!app.node) return;
  app.views.render(boardView());
}

function renderStatus() {
  const state = app.node.state;
  const parts = [];
  if (!state) parts.push(el('span', {class: 'muted'}, 'Loading the position…'));
  else if (state.result) parts.push(el('span', {class: 'result-inline', 'data-testid': 'result'}, state.result.text));
  else {
    const side = state.sides.find((s) => s.key === state.side);
    parts.push(el('span', {class: state.in_check ? 'in-check' : '', 'data-testid': 'turn'}, `${side ? side.name : state.side} to move${state.in_check ? ' · check' : ''}`));
  }
  parts.push(el('span', {class: 'muted'}, app.node.ply ? `after ${app.node.ply} move${app.node.ply > 1 ? 's' : ''}` : 'the start'));
  setChildren($('#status'), parts.flatMap((p, i) => (i ? [' ', p] : [p])));
}

function renderTree() {
  const box = $('#tree');
  const container = el('div', {class: 'tree-line'});
  box.replaceChildren(container);
  const stack = [container];
  const children = [];
  for (const t of treeTokens(app.tree, app.two)) {
    if (t.kind === 'open') {
      const v = el('span', {class: 'variation'});
      stack[stack.length - 1].append(v);
      stack.push(v);
    } else if (t.kind === 'close') {
      stack.pop();
    } else {
      const active = t.node === app.node;
      const b = el('button', {type: 'button', class: `move tree-move${active ? ' active' : ''}`, dataset: {node: t.node.id, ply: t.node.ply}, 'aria-current': active ? 'true' : null, onclick: () => goTo(t.node)}, t.label);
      stack[stack.length - 1].append(b, ' ');
      children.push(b);
    }
  }
  if (!children.length) container.append(el('span', {class: 'muted'}, 'Make a move on the board, or type one below.'));
  const active = box.querySelector('.tree-move.active');
  if (active) active.scrollIntoView({block: 'nearest'});
  const n = app.node;
  $('#nav-first').disabled = $('#nav-prev').disabled = !n.parent;
  $('#nav-next').disabled = $('#nav-last').disabled = !n.children.length;
  $('#btn-promote').disabled = !n.parent || app.tree.onMainLine(n);
  $('#btn-delete').disabled = !n.parent;
}

function renderEngine() {
  const e = app.engine;
  const list = $('#engine-lines');
  const answer = e.answer && e.answer.node === app.node ? e.answer : null;
  const state = app.node && app.node.state;
  $('#engine-depth').textContent = e.on ? (answer ? `depth ${answer.depth}${e.pending ? ' · searching deeper…' : ''}` : e.pending ? 'searching…' : '') : 'off';
  if (!e.on) setChildren(list);
  else if (state && state.result) setChildren(list, el('li', {class: 'muted'}, 'The game is over here.'));
  else if (answer) {
    const view = (state && state.sides.find((s) => s.key === answer.view)) || {name: answer.view};
    setChildren(
      list,
      answer.lines.map((line, i) =>
        el(
          'li',
          {class: 'engine-line', dataset: {line: i + 1}},
          el('span', {class: 'engine-score', title: `from ${view.name}'s side`}, line.score),
          ' ',
          line.line.map((san, j) => [el('button', {type: 'button', class: 'line-move', title: 'Play the line to here', onclick: () => playLine(line.moves, j)}, san), ' ']),
        ),
      ),
    );
  }
  renderEvalBar(answer);
}

function renderEvalBar(answer) {
  const bar = $('#eval-bar');
  bar.hidden = !app.two || !app.engine.on;
  if (bar.hidden) return;
  const state = app.node && app.node.state;
  let white = 0.5;
  let text = '';
  const line = answer && answer.lines[0];
  if (state && state.result) {
    // White's points: 1, 0, 1/2, or Savard's 3/5 and 2/5
    const [n, d] = String((state.result.points || ['1/2'])[0]).split('/').map(Number);
    white = d ? n / d : n;
    text = state.result.score;
  } else if (line) {
    white = line.mate !== null ? Number(line.mate > 0) : whiteShare(line.cp);
    text = line.score;
  }
  $('#eval-bar-white').style.height = `${Math.round(white * 1000) / 10}%`;
  $('#eval-bar-text').textContent = text;
  bar.dataset.white = String(Math.round(white * 1000) / 1000);
  bar.setAttribute('aria-label', text ? `Evaluation ${text}` : 'Evaluation');
  bar.classList.toggle('flipped', app.views.flipped);
}

/** The link to this page at the node on screen: its game, start and moves. */
function linkTo(node) {
  const p = new URLSearchParams({variant: app.variantId});
  if (app.start) p.set('start', app.start);
  const moves = app.tree.coords(node);
  if (moves.length) p.set('moves', moves.join(' '));
  if (app.gameId) p.set('game', app.gameId);
  return `/analysis?${p}`;
}

function renderShare() {
  const state = app.node.state;
  const link = linkTo(app.node);
  history.replaceState(null, '', link);
  setChildren(
    $('#share-fields'),
    copyField('Link to this position', absolute(link), {testid: 'share-link'}),
    state ? copyField('Position string', state.fen, {testid: 'fen'}) : null,
  );
}

function render() {
  if (!app.node) return;
  renderBoard();
  renderStatus();
  renderTree();
  renderEngine();
  renderShare();
  const state = app.node.state;
  const m = state && state.legal[0];
  $('#move-input').placeholder = m ? `Type a move: ${m.san === m.coord ? m.coord : `${m.san} or ${m.coord}`}` : 'Type a move';
}

function showError(message) {
  const box = $('#error');
  box.hidden = !message;
  box.textContent = message || '';
}

// ---- start ----------------------------------------------------------------------
function bindUi() {
  $('#view-2d').addEventListener('click', () => setView('2d'));
  $('#view-3d').addEventListener('click', () => setView('3d'));
  $('#flip').addEventListener('click', flip);
  $('#nav-first').addEventListener('click', () => goTo(app.tree.root));
  $('#nav-prev').addEventListener('click', () => goTo(app.node.parent));
  $('#nav-next').addEventListener('click', () => goTo(app.node.children[0]));
  $('#nav-last').addEventListener('click', () => goTo(app.tree.lineEnd(app.node)));
  $('#btn-promote').addEventListener('click', () => {
    app.tree.promote(app.node);
    render();
  });
  $('#btn-delete').addEventListener('click', () => goTo(app.tree.remove(app.node)));
  $('#promotion-cancel').addEventListener('click', hidePromotion);
  $('#move-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const input = $('#move-input');
    const text = input.value.trim();
    if (!text) return;
    playCoord(text).then(() => {
      if ($('#error').hidden) input.value = '';
    });
  });
  const on = $('#engine-on');
  on.checked = app.engine.on;
  on.addEventListener('change', () => {
    app.engine.on = on.checked;
    localStorage.setItem('raum:engine', on.checked ? 'on' : 'off');
    app.engine.asked++;
    app.engine.pending = false;
    scheduleEngine();
    renderBoard();
  });
  const multipv = $('#multipv');
  multipv.value = String(app.engine.multipv);
  multipv.addEventListener('change', () => {
    app.engine.multipv = Number(multipv.value);
    localStorage.setItem('raum:multipv', multipv.value);
    app.engine.answer = null;
    scheduleEngine();
  });
  $('#setup-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const p = new URLSearchParams({variant: $('#setup-variant').value});
    const start = $('#setup-start').value.trim();
    const moves = $('#setup-moves').value.trim();
    if (start) p.set('start', start);
    if (moves) p.set('moves', moves);
    location.href = `/analysis?${p}`;
  });
  document.addEventListener('keydown', (e) => {
    if (e.target.closest && e.target.closest('input, textarea, select')) return;
    if (!app.node) return;
    if (e.key === 'ArrowLeft') goTo(app.node.parent);
    else if (e.key === 'ArrowRight') goTo(app.node.children[0]);
    else if (e.key === 'Home') goTo(app.tree.root);
    else if (e.key === 'End') goTo(app.tree.lineEnd(app.node));
    else if (e.key === 'f' && !e.ctrlKey && !e.metaKey) flip();
    else if (e.key === 'Escape') {
      app.selected = null;
      hidePromotion();
      renderBoard();
    } else return;
    e.preventDefault();
  });
}

function flip() {
  app.views.setFlipped(!app.views.flipped);
  renderBoard();
  renderEvalBar(app.engine.answer && app.engine.answer.node === app.node ? app.engine.answer : null);
}

async function setView(mode) {
  if (await app.views.setView(mode)) renderBoard();
}

async function fillSetup() {
  const select = $('#setup-variant');
  try {
    const variants = await getVariants();
    setChildren(select, variants.map((v) => el('option', {value: v.id}, v.name)));
  } catch {
    setChildren(select, el('option', {value: app.variantId}, app.variantId));
  }
  select.value = app.variantId;
  $('#setup-start').value = app.start || '';
}

function fail(message) {
  $('#loading').textContent = message;
  $('#loading').classList.add('failed');
}

async function main() {
  const params = new URLSearchParams(location.search);
  app.variantId = params.get('variant') || 'raumschach';
  app.start = params.get('start') || null;
  app.gameId = params.get('game');
  const moves = (params.get('moves') || '').split(/[\s,]+/).filter(Boolean);
  const ply = params.has('ply') ? Number(params.get('ply')) : null;
  bindUi();
  fillSetup();
  let state;
  try {
    app.variant = await getVariant(app.variantId);
    state = await position(moves).catch(async (e) => {
      // A line that does not play: the start, and why.
      if (!(e instanceof ApiError) || e.status !== 400 || !moves.length) throw e;
      showError(`The link's moves: ${e.message}`);
      return position([]);
    });
  } catch (e) {
    fail(e instanceof ApiError && e.status === 404 ? `There is no such game as "${app.variantId}".` : `Could not open the board: ${e.message}`);
    return;
  }
  app.two = state.kind === 'two';
  app.geom = new Geometry(app.variant);
  app.startPieces = new Map(state.start_pieces);
  const name = app.variant.name + (app.variant.reconstruction ? ' (reconstruction)' : '');
  $('#board-title').textContent = `Analysis board · ${name}`;
  document.title = `Raum · analysis · ${name}`;
  $('#rules-link').href = `/rules/${encodeURIComponent(app.variantId)}`;
  if (app.gameId) {
    $('#game-link').hidden = false;
    $('#game-link').href = `/g/${encodeURIComponent(app.gameId)}`;
  }
  renderPieceLegend(app.variant);
  app.views = new BoardViews(app.geom, {
    onCell,
    onDrop: (from, to) => play(from, to),
    onHover: (cell) => {
      app.hover = cell;
      renderBoard();
    },
    onError: showError,
    on3dReady: () => resolveReady3d(true),
    help: {
      '2d': 'Click a piece, then a marked cell, or drag it there: either side may move. Moves grow a tree of variations.',
      '3d': 'Click a piece, then a marked cell, or drag it there: either side may move. Drag elsewhere to orbit, wheel to zoom, right-drag to pan.',
    },
  });
  const last = app.tree.addLine(app.tree.root, state.moves);
  last.state = state;
  let node = last;
  if (ply !== null && Number.isInteger(ply) && ply >= 0) while (node.ply > ply) node = node.parent;
  $('#loading').hidden = true;
  if (!(await app.views.setView(savedView()))) await app.views.setView('2d');
  await goTo(node);
  resolveReady(true);
}

main();
