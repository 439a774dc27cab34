// The game page: /g/{id}, the seat token (if any) in the fragment #t=TOKEN.

import {api, ApiError, NetworkError, getVariant, getGame, gamePath, loadSeat, saveSeat, loadInvite, seatLink, absolute} from './api.js';
import {Geometry} from './geometry.js';
import {Board2D} from './board2d.js';
import {el, $, setChildren, copyField, formatClock} from './util.js';
import {pieceElement, pieceName} from './pieces.js';
import * as multi from './multi.js';

const gameId = decodeURIComponent(location.pathname.replace(/^\/g\//, '').split('/')[0] || '');
const other = (c) => (c === 'white' ? 'black' : 'white');
const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);

// ---- test hooks -----------------------------------------------------------
let resolveReady;
let resolveReady3d;
const ready3d = new Promise((r) => (resolveReady3d = r));
const raumTest = {
  ready: new Promise((r) => (resolveReady = r)),
  isReady: false,
  wsOpens: 0,
  wsMessages: 0,
  get state() {
    return app.state;
  },
  get viewPly() {
    return app.viewPly;
  },
  get view() {
    return app.viewMode;
  },
  get connected() {
    return !!(app.live && app.live.open);
  },
  ready3d: () => ready3d,
  /** Page coordinates of a cell's centre (index or name) in the 3D canvas. */
  project(cell) {
    if (app.viewMode !== '3d' || !app.board3d) throw new Error('the 3D view is not shown');
    const i = typeof cell === 'number' ? cell : app.geom.byName.get(cell);
    if (i === undefined || i < 0 || i >= app.geom.n) throw new Error(`no cell ${cell}`);
    return app.board3d.project(i);
  },
  /** The 3D view's tile colours: cell name -> 'light', 'dark', 'line', 'hovered', ... */
  tiles3d() {
    if (!app.board3d) throw new Error('the 3D view is not shown');
    return app.board3d.tileColors();
  },
  /** Closes the WebSocket as a network drop would; the page reconnects. */
  dropSocket() {
    if (app.live) app.live.drop();
  },
};
window.raumTest = raumTest;

// ---- state ----------------------------------------------------------------
const app = {
  state: null,
  variant: null,
  geom: null,
  seat: null,
  viewPly: 0,
  selected: null,
  hint: null,
  hover: -1,
  flipped: false,
  viewMode: localStorage.getItem('raum:view') === '3d' ? '3d' : '2d',
  showLines: localStorage.getItem('raum:lines') !== 'off',
  board2d: null,
  board3d: null,
  live: null,
  sending: false,
  receivedAt: 0,
  movesKey: null,
};

function readSeat() {
  const fragment = new URLSearchParams(location.hash.replace(/^#/, ''));
  const token = fragment.get('t');
  const color = fragment.get('c');
  let seat = loadSeat(gameId);
  // a side: 'white', 'black', or in a multi-player game 'red', 'blue', ...; 'both'/'all' at one screen
  const side = /^[a-z]+$/.test(color || '') && color !== 'both' && color !== 'all' ? color : null;
  if (token) {
    if (!seat || seat.token !== token) seat = {token, color: side};
    else if (side) seat.color = side;
    saveSeat(gameId, seat);
  }
  return seat;
}

/** 'white', 'black', 'both' (local), or null (spectator / not known yet). */
function myColor() {
  const s = app.state;
  if (!app.seat || !s) return null;
  if (s.mode === 'local') return 'both';
  if (s.mode === 'engine' && s.engine && s.engine.color) return other(s.engine.color);
  return app.seat.color || null;
}

function isLive() {
  return app.state && app.viewPly === app.state.ply;
}

function canMoveNow() {
  const s = app.state;
  if (!s || !app.seat || s.result || !isLive() || app.sending) return false;
  if (s.mode === 'engine' && s.engine && s.engine.thinking) return false;
  if (app.multi && !multi.personToMove(s)) return false;
  const me = myColor();
  if (me === 'both' || me === null) return true;
  return s.side === me;
}

function royalCells(pieces, color) {
  const royal = new Set((app.variant.pieces || []).filter((p) => p.role === 'king').map((p) => p.letter.toUpperCase()));
  const out = [];
  for (const [cell, letters] of pieces) {
    const l = letters[0];
    const white = l === l.toUpperCase();
    if (royal.has(l.toUpperCase()) && white === (color === 'white')) out.push(cell);
  }
  return out;
}

/** The pieces after `ply` moves: the start's, with each move's changes applied. */
function piecesAt(ply) {
  const s = app.state;
  if (!s.start_pieces) return ply === s.ply ? app.geom.parseBoard(s.fen) : new Map();
  const pieces = Geometry.piecesOf(s.start_pieces);
  for (const m of s.moves.slice(0, ply)) {
    for (const [cell, letter] of m.changes || []) {
      if (letter) pieces.set(cell, letter);
      else pieces.delete(cell);
    }
  }
  return pieces;
}

// ---- rendering ------------------------------------------------------------
function boardView() {
  const s = app.state;
  const ply = app.viewPly;
  const pieces = piecesAt(ply);
  const view = {pieces, dests: new Map(), check: [], selected: null, hover: app.hover};
  const lastMove = ply > 0 ? s.moves[ply - 1] : null;
  if (lastMove) view.last = {from: lastMove.from, to: lastMove.to};
  if (lastMove && lastMove.kind === 'resign') delete view.last;
  if (ply === s.ply) view.check = s.check || [];
  else if (lastMove && Array.isArray(lastMove.check)) view.check = lastMove.check;
  else if (lastMove && lastMove.check) view.check = royalCells(pieces, other(lastMove.color));
  if (app.showLines && app.hover >= 0 && app.selected === null) view.lines = app.geom.lines(app.hover);
  if (canMoveNow()) {
    view.movable = new Set(s.legal.map((m) => m.from));
    if (app.selected !== null) {
      view.selected = app.selected;
      for (const m of s.legal) if (m.from === app.selected) view.dests.set(m.to, {capture: pieces.has(m.to)});
    }
  }
  if (app.hint && isLive()) view.hint = app.hint;
  return view;
}

function renderBoard() {
  if (!app.state) return;
  const view = boardView();
  if (app.viewMode === '3d' && app.board3d) app.board3d.render(view);
  else app.board2d.render(view);
  if (!raumTest.isReady) {
    raumTest.isReady = true;
    $('#loading').hidden = true;
    resolveReady(true);
  }
}

/** Two players' moves, a row per move number. */
function pairRows(s) {
  const rows = [];
  let row = null;
  s.moves.forEach((m, i) => {
    if (!row || m.color === 'white') {
      row = el('li', {class: 'move-row'}, el('span', {class: 'move-num'}, `${m.number}.`));
      if (m.color === 'black') row.append(' ', el('span', {class: 'move empty'}, '…'));
      rows.push(row);
    }
    row.append(' ', el('button', {type: 'button', class: 'move', dataset: {ply: i + 1}, onclick: () => goTo(i + 1)}, m.san));
  });
  return rows;
}

function renderMoves() {
  const s = app.state;
  const list = $('#moves');
  // (a resignation adds an event in a multi-player game, only a result in a two-player one)
  const key = s.moves.map((m) => m.coord || m.san).join(' ') + (s.result ? ` ${s.result.score}` : '');
  if (key !== app.movesKey) {
    app.movesKey = key;
    const rows = app.multi ? multi.moveRows(s, goTo) : pairRows(s);
    if (s.result) rows.push(el('li', {class: 'move-result'}, s.result.score));
    if (!rows.length) rows.push(el('li', {class: 'move-none muted'}, 'No moves yet.'));
    setChildren(list, rows);
  }
  for (const b of list.querySelectorAll('button.move')) {
    const active = Number(b.dataset.ply) === app.viewPly;
    b.classList.toggle('active', active);
    if (active) b.setAttribute('aria-current', 'true');
    else b.removeAttribute('aria-current');
  }
  const active = list.querySelector('button.move.active');
  if (active) {
    const box = list.parentElement;
    const top = active.offsetTop - box.offsetTop;
    if (top < box.scrollTop || top > box.scrollTop + box.clientHeight - 30) box.scrollTop = top - box.clientHeight / 2;
  } else if (app.viewPly === 0) {
    list.parentElement.scrollTop = 0;
  }
  $('#nav-first').disabled = $('#nav-prev').disabled = app.viewPly === 0;
  $('#nav-next').disabled = $('#nav-last').disabled = app.viewPly === s.ply;
}

function clockMs(color) {
  const c = app.state.clock;
  if (!c) return null;
  let ms = c[`${color}_ms`];
  if (c.running === color && !app.state.result) ms -= performance.now() - app.receivedAt;
  return Math.max(0, ms);
}

function renderPlayers() {
  const s = app.state;
  const me = myColor();
  if (app.multi) {
    setChildren($('#player-top'), multi.legend(s, me));
    $('#player-top').classList.add('player-legend');
    $('#player-bottom').hidden = true;
    return;
  }
  const bottom = app.flipped ? 'black' : 'white';
  for (const [id, color] of [['#player-bottom', bottom], ['#player-top', other(bottom)]]) {
    const box = $(id);
    const name = (s.names && s.names[color]) || cap(color);
    const you = me === color;
    const toMove = !s.result && s.side === color;
    const thinking = s.engine && s.engine.thinking && s.engine.color === color;
    box.dataset.color = color;
    box.classList.toggle('to-move', toMove);
    const clock = s.clock ? el('span', {class: 'clock', dataset: {color}}, formatClock(clockMs(color))) : null;
    if (clock) clock.classList.toggle('running', s.clock.running === color && !s.result);
    setChildren(
      box,
      el('span', {class: `chip ${color}`, title: cap(color)}),
      el('span', {class: 'player-name', dataset: {color}}, name),
      you ? el('span', {class: 'tag'}, 'you') : null,
      thinking ? el('span', {class: 'thinking'}, el('span', {class: 'spinner'}), 'thinking…') : null,
      clock,
    );
  }
}

function tickClocks() {
  const s = app.state;
  if (!s || !s.clock) return;
  for (const node of document.querySelectorAll('.clock')) {
    const ms = clockMs(node.dataset.color);
    node.textContent = formatClock(ms);
    node.classList.toggle('low', ms < 20000);
    if (ms === 0 && s.clock.running === node.dataset.color && !s.result && !app.flagCheck) {
      // the server keeps the clocks: ask it for the verdict
      app.flagCheck = true;
      setTimeout(() => refetch().finally(() => (app.flagCheck = false)), 300);
    }
  }
}

// Who scored what, from the server's points (White's first) and winner: a
// whole point is a win; Savard's stalemate is 3/5 to 2/5, not a win.
function resultLine(r) {
  const [white, black] = r.points || [];
  if (!r.winner) return 'Draw';
  if (white === '1' || black === '1') return `${cap(r.winner)} wins`;
  return `White ${white}, Black ${black}`;
}

function renderStatus() {
  const s = app.state;
  const status = $('#status');
  const result = $('#result');
  if (s.result) {
    result.hidden = false;
    setChildren(result, el('div', {class: 'result-text', 'data-testid': 'result'}, s.result.text), el('div', {class: 'result-sub'}, app.multi ? multi.resultLine(s) : resultLine(s.result)));
  } else {
    result.hidden = true;
  }
  const parts = [];
  if (!s.result) {
    const me = myColor();
    let line = `${cap(s.side)} to move`;
    if (me && me !== 'both' && me === s.side) line = 'Your move';
    // with more than two sides a king may stand attacked when it is not its turn: the mover's counts
    const inCheck = app.multi ? !!s.in_check : !!(s.check && s.check.length);
    if (inCheck) line += ' · check';
    parts.push(el('span', {class: inCheck ? 'in-check' : '', 'data-testid': 'turn'}, line));
    if (s.engine && s.engine.thinking) parts.push(el('span', {class: 'thinking'}, el('span', {class: 'spinner'}), ' Raum is thinking…'));
    if (!app.seat) parts.push(el('span', {class: 'muted'}, 'Spectating'));
  }
  if (!isLive()) parts.push(el('span', {class: 'viewing'}, `Viewing move ${app.viewPly} of ${s.ply} · `, el('button', {type: 'button', class: 'link', onclick: () => goTo(s.ply)}, 'back to now')));
  setChildren(status, parts.flatMap((p, i) => (i ? [' ', p] : [p])));
  status.hidden = parts.length === 0;

  const offer = $('#draw-offer');
  const me = myColor();
  if (s.draw_offer && !s.result) {
    offer.hidden = false;
    const mine = me === s.draw_offer;
    const canAnswer = app.seat && (me === 'both' || (me && me !== s.draw_offer) || me === null);
    setChildren(
      offer,
      el('span', {}, mine ? 'You offered a draw.' : `${cap(s.draw_offer)} offers a draw.`),
      canAnswer && !mine ? el('button', {type: 'button', class: 'btn small primary', id: 'btn-draw-accept', onclick: () => drawAction('accept')}, 'Accept') : null,
      canAnswer && !mine ? el('button', {type: 'button', class: 'btn small', id: 'btn-draw-decline', onclick: () => drawAction('decline')}, 'Decline') : null,
    );
  } else {
    offer.hidden = true;
  }
}

function renderActions() {
  const s = app.state;
  const seated = !!app.seat;
  const over = !!s.result;
  const show = (id, on) => ($(id).hidden = !on);
  show('#btn-undo', seated && !over && (s.mode === 'local' || s.mode === 'engine') && s.ply > 0);
  // multi-player games: no engine analysis, no draw offers (the rules' draws only)
  show('#btn-hint', seated && !over && s.mode !== 'online' && !app.multi);
  show('#btn-eval', ((seated && s.mode !== 'online') || over) && !app.multi);
  show('#btn-draw', seated && !over && s.mode !== 'engine' && !s.draw_offer && !app.multi);
  show('#btn-resign', seated && !over);
  $('#move-form').hidden = !seated || over;
  $('#btn-undo').disabled = app.sending || (s.engine && s.engine.thinking);
}

function renderInvite() {
  const s = app.state;
  const invite = loadInvite(gameId);
  const box = $('#invite');
  if (s.mode === 'online' && invite && app.seat && (!invite.color || invite.color === app.seat.color)) {
    box.hidden = false;
    const fields = $('#invite-fields');
    if (!fields.dataset.built && app.multi) {
      fields.dataset.built = '1';
      setChildren(fields, multi.inviteFields(s, invite, copyField, absolute));
    } else if (!fields.dataset.built) {
      fields.dataset.built = '1';
      setChildren(
        fields,
        copyField(`Opponent's link (plays ${invite.opponentColor || 'the other side'})`, absolute(invite.opponent), {testid: 'opponent-link'}),
        copyField('Spectators’ link', absolute(invite.spectate), {testid: 'spectator-link'}),
      );
    }
  } else {
    box.hidden = true;
  }
}

function renderExport() {
  const s = app.state;
  const fields = $('#export-fields');
  const fen = s.fen;
  if (fields.dataset.fen !== fen) {
    fields.dataset.fen = fen;
    setChildren(
      fields,
      copyField('Position string', fen, {testid: 'fen'}),
      copyField('Spectators’ link', absolute(`/g/${encodeURIComponent(gameId)}`), {testid: 'watch-link'}),
    );
  }
  $('#pgn-link').href = gamePath(gameId, '/pgn');
  $('#pgn-link').setAttribute('download', `raum-${gameId}.pgn`);
}

function renderAll() {
  renderBoard();
  renderMoves();
  renderPlayers();
  renderStatus();
  renderActions();
  renderInvite();
  renderExport();
}

// ---- state updates --------------------------------------------------------
function isNewer(s) {
  const old = app.state;
  if (!old) return true;
  if (typeof s.version === 'number' && typeof old.version === 'number') return s.version >= old.version;
  return s.ply >= old.ply;
}

/** force: take it whatever its ply (the first message after connecting, an undo). */
function applyState(s, {force = false} = {}) {
  if (!s || typeof s !== 'object' || !Array.isArray(s.moves)) return;
  if (!force && !isNewer(s)) return;
  const old = app.state;
  const following = !old || app.viewPly >= old.ply;
  const changed = !old || old.ply !== s.ply || old.fen !== s.fen;
  app.state = s;
  app.receivedAt = performance.now();
  if (following) app.viewPly = s.ply;
  app.viewPly = Math.min(app.viewPly, s.ply);
  if (changed) {
    app.selected = null;
    app.hint = null;
    if (old) hidePromotion();
  }
  if (s.mode === 'online' && app.seat && !app.seat.color && s.moves.length && old && s.ply === old.ply + 1 && app.lastSentPly === old.ply) {
    // learn the seat's colour from the move it just made
    app.seat.color = s.moves[s.ply - 1].color;
    saveSeat(gameId, app.seat);
  }
  if (!old) {
    app.flipped = myColor() === 'black';
    app.board2d.setFlipped(app.flipped);
    if (app.board3d) app.board3d.setFlipped(app.flipped);
  }
  renderAll();
  pollIfNeeded();
}

async function refetch() {
  try {
    applyState(await getGame(gameId), {force: true});
  } catch (e) {
    showError(e.message);
  }
}

function pollIfNeeded() {
  clearTimeout(app.pollTimer);
  const s = app.state;
  const waiting = s.engine && s.engine.thinking;
  if (waiting && !(app.live && app.live.open)) {
    app.pollTimer = setTimeout(async () => {
      try {
        applyState(await getGame(gameId));
      } catch {
        /* try again */
      }
      pollIfNeeded();
    }, 1000);
  }
}

// ---- actions --------------------------------------------------------------
function showError(message) {
  const box = $('#error');
  if (!message) {
    box.hidden = true;
    box.textContent = '';
    return;
  }
  box.hidden = false;
  box.textContent = message;
  clearTimeout(app.errorTimer);
  app.errorTimer = setTimeout(() => (box.hidden = true), 12000);
}

async function sendMove(move) {
  if (app.sending) return false;
  const s = app.state;
  app.sending = true;
  app.lastSentPly = s.ply;
  showError(null);
  renderActions();
  let ok = false;
  try {
    const next = await api('POST', gamePath(gameId, '/moves'), {token: app.seat ? app.seat.token : '', ply: s.ply, move});
    app.sending = false;
    // (a newer state may have come first over the socket: applyState keeps it)
    applyState(next);
    ok = true;
  } catch (e) {
    app.sending = false;
    if (e instanceof NetworkError) {
      // the move may or may not have been played: ask, never resend blindly
      showError('Connection problem: checking whether the move was played…');
      await refetch();
    } else {
      showError(e.message);
      if (e instanceof ApiError && e.status === 409) await refetch();
    }
  } finally {
    app.sending = false;
    renderAll();
  }
  return ok;
}

async function seatAction(path, body = {}, {force = false} = {}) {
  showError(null);
  try {
    const next = await api('POST', gamePath(gameId, path), {token: app.seat ? app.seat.token : '', ...body});
    if (next && Array.isArray(next.moves)) applyState(next, {force});
    else await refetch();
  } catch (e) {
    showError(e.message);
    if (e instanceof NetworkError) await refetch();
  }
}

function drawAction(action) {
  return seatAction('/draw', {action});
}

function onCell(cell) {
  const s = app.state;
  if (!s || cell < 0) {
    if (app.selected !== null) {
      app.selected = null;
      renderBoard();
    }
    return null;
  }
  if (!canMoveNow()) {
    if (app.viewPly !== s.ply && app.seat && !s.result) showError('You are looking at an earlier move: press End (or ⏭) to play.');
    return null;
  }
  if (app.selected !== null && app.selected !== cell && s.legal.some((m) => m.from === app.selected && m.to === cell)) {
    play(app.selected, cell);
    return null;
  }
  if (s.legal.some((m) => m.from === cell)) {
    app.selected = app.selected === cell ? null : cell;
    renderBoard();
    return 'drag';
  }
  app.selected = null;
  renderBoard();
  return null;
}

function play(from, to) {
  const candidates = app.state.legal.filter((m) => m.from === from && m.to === to);
  if (!candidates.length) return;
  if (candidates.length === 1) {
    app.selected = null;
    sendMove(candidates[0].coord);
    return;
  }
  showPromotion(candidates);
}

function showPromotion(candidates) {
  const modal = $('#promotion');
  const color = app.state.side;
  setChildren(
    $('#promotion-choices'),
    candidates.map((m) => {
      const letter = !m.promotion ? null : app.multi ? multi.promotedMan(app.state, m.promotion) : color === 'white' ? m.promotion.toUpperCase() : m.promotion.toLowerCase();
      return el(
        'button',
        {type: 'button', class: 'promo-choice', dataset: {promotion: m.promotion || '', coord: m.coord}, title: letter ? pieceName(app.variant, letter) : m.san, onclick: () => {
          hidePromotion();
          app.selected = null;
          sendMove(m.coord);
        }},
        letter ? pieceElement(letter, app.variant) : null,
        el('span', {class: 'promo-label'}, letter ? pieceName(app.variant, letter).replace(/^\S+ /, '') : m.san),
      );
    }),
  );
  modal.hidden = false;
  modal.querySelector('button')?.focus();
}

function hidePromotion() {
  $('#promotion').hidden = true;
}

function goTo(ply) {
  const s = app.state;
  if (!s) return;
  app.viewPly = Math.max(0, Math.min(s.ply, ply));
  app.selected = null;
  renderBoard();
  renderMoves();
  renderStatus();
}

function setFlipped(flipped) {
  app.flipped = flipped;
  app.board2d.setFlipped(flipped);
  if (app.board3d) app.board3d.setFlipped(flipped);
  renderBoard();
  renderPlayers();
}

async function setView(mode) {
  if (mode === '3d' && !app.board3d) {
    $('#board3d').hidden = false;
    try {
      const {Board3D} = await import('./board3d.js');
      app.board3d = new Board3D($('#board3d'), app.geom, {
        onClick: (cell) => onCell(cell),
        onHover: (cell) => {
          app.hover = cell;
          renderBoard();
        },
      });
      app.board3d.onRendered = () => {
        if (!app.board3d.announced) {
          app.board3d.announced = true;
          resolveReady3d(true);
        }
      };
      app.board3d.setFlipped(app.flipped);
      setup3dControls();
    } catch (e) {
      console.error(e);
      $('#board3d').hidden = true;
      showError(`The 3D view needs WebGL, which this browser does not offer (${e.message}).`);
      return;
    }
  }
  app.viewMode = mode;
  app.hover = -1;
  localStorage.setItem('raum:view', mode);
  $('#board-frame').classList.toggle('view-2d', mode === '2d');
  $('#board-frame').classList.toggle('view-3d', mode === '3d');
  $('#board2d').hidden = mode !== '2d';
  $('#board3d').hidden = mode !== '3d';
  $('#controls-3d').hidden = mode !== '3d';
  $('#view-2d').setAttribute('aria-pressed', String(mode === '2d'));
  $('#view-3d').setAttribute('aria-pressed', String(mode === '3d'));
  $('#board-help').textContent =
    mode === '3d'
      ? 'Click a piece, then a marked cell. Drag to orbit, wheel to zoom, right-drag to pan; hover a cell to see its lines.'
      : 'Click a piece, then a marked cell, or drag it there. Levels are drawn side by side, as in the seeds.';
  if (mode === '2d') app.board2d.layout();
  if (mode === '3d') {
    app.board3d.resize();
    app.board3d.requestRender();
  }
  if (app.state) renderBoard();
}

function setup3dControls() {
  const b = app.board3d;
  const spacing = $('#spacing');
  spacing.value = String(b.spacing);
  spacing.addEventListener('input', () => b.setSpacing(Number(spacing.value)));
  const isolate = $('#isolate');
  for (const level of app.geom.levels) isolate.appendChild(el('option', {value: String(level.z)}, `Level ${level.name}`));
  isolate.addEventListener('change', () => b.setIsolated(isolate.value === 'all' ? null : Number(isolate.value)));
  $('#reset-camera').addEventListener('click', () => {
    spacing.value = String(b.defaultSpacing);
    b.setSpacing(b.defaultSpacing);
    b.resetCamera();
  });
}

// ---- live updates ---------------------------------------------------------
class Live {
  constructor() {
    this.delay = 250;
    this.open = false;
    this.stopped = false;
    this.connect();
    window.addEventListener('online', () => this.retryNow());
  }

  connect() {
    clearTimeout(this.timer);
    const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${gamePath(gameId, '/ws')}`;
    let ws;
    try {
      ws = new WebSocket(url);
    } catch {
      this.scheduleRetry();
      return;
    }
    this.ws = ws;
    let first = true;
    ws.onopen = () => {
      this.open = true;
      this.delay = 250;
      raumTest.wsOpens++;
      setConn('live');
      pollIfNeeded();
    };
    ws.onmessage = (event) => {
      let msg;
      try {
        msg = JSON.parse(event.data);
      } catch {
        return;
      }
      raumTest.wsMessages++;
      if (msg && msg.type === 'state') {
        // the first message after (re)connecting is the whole truth
        applyState(msg.state, {force: first});
        first = false;
      }
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.open = false;
      this.ws = null;
      if (this.stopped) return;
      setConn('reconnecting');
      this.scheduleRetry();
      if (app.state) pollIfNeeded();
    };
    ws.onerror = () => {};
  }

  scheduleRetry() {
    clearTimeout(this.timer);
    const wait = this.delay * (0.8 + Math.random() * 0.4);
    this.delay = Math.min(this.delay * 2, 8000);
    this.timer = setTimeout(() => this.connect(), wait);
  }

  retryNow() {
    if (!this.open) {
      this.delay = 250;
      this.connect();
    }
  }

  /** As a network drop: the socket closes and the page reconnects. */
  drop() {
    if (this.ws) this.ws.close(4000, 'dropped');
  }
}

function setConn(state) {
  const conn = $('#conn');
  conn.dataset.state = state;
  conn.querySelector('.conn-text').textContent = {live: 'live', reconnecting: 'reconnecting…', connecting: 'connecting', offline: 'offline'}[state] || state;
  conn.title = state === 'live' ? 'Live: moves arrive as they are made' : 'Connection lost: reconnecting';
}

// ---- start ----------------------------------------------------------------
function bindUi() {
  $('#view-2d').addEventListener('click', () => setView('2d'));
  $('#view-3d').addEventListener('click', () => setView('3d'));
  $('#flip').addEventListener('click', () => setFlipped(!app.flipped));
  $('#nav-first').addEventListener('click', () => goTo(0));
  $('#nav-prev').addEventListener('click', () => goTo(app.viewPly - 1));
  $('#nav-next').addEventListener('click', () => goTo(app.viewPly + 1));
  $('#nav-last').addEventListener('click', () => goTo(app.state.ply));
  $('#move-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    const input = $('#move-input');
    const text = input.value.trim();
    if (!text) return;
    if (!isLive()) goTo(app.state.ply);
    if (await sendMove(text)) input.value = '';
  });
  // The ply makes a take-back sent twice (a retry) take back once.
  $('#btn-undo').addEventListener('click', () => seatAction('/undo', {ply: app.state ? app.state.ply : undefined}, {force: true}));
  $('#btn-draw').addEventListener('click', () => drawAction('offer'));
  const resign = $('#btn-resign');
  resign.addEventListener('click', () => {
    if (resign.dataset.confirm) {
      delete resign.dataset.confirm;
      resign.textContent = '⚑ Resign';
      seatAction('/resign');
    } else {
      resign.dataset.confirm = '1';
      resign.textContent = 'Really resign?';
      setTimeout(() => {
        delete resign.dataset.confirm;
        resign.textContent = '⚑ Resign';
      }, 4000);
    }
  });
  $('#btn-hint').addEventListener('click', () => analyse(true));
  $('#btn-eval').addEventListener('click', () => analyse(false));
  $('#promotion-cancel').addEventListener('click', hidePromotion);
  document.addEventListener('keydown', (e) => {
    if (e.target.closest && e.target.closest('input, textarea, select')) return;
    if (e.key === 'Escape') {
      hidePromotion();
      app.selected = null;
      renderBoard();
    } else if (!app.state) {
      return;
    } else if (e.key === 'ArrowLeft') goTo(app.viewPly - 1);
    else if (e.key === 'ArrowRight') goTo(app.viewPly + 1);
    else if (e.key === 'Home') goTo(0);
    else if (e.key === 'End') goTo(app.state.ply);
    else if (e.key === 'f' && !e.ctrlKey && !e.metaKey) setFlipped(!app.flipped);
    else return;
    e.preventDefault();
  });
  const lines = $('#show-lines');
  if (lines) {
    lines.checked = app.showLines;
    lines.addEventListener('change', () => {
      app.showLines = lines.checked;
      localStorage.setItem('raum:lines', lines.checked ? 'on' : 'off');
      renderBoard();
    });
  }
}

async function analyse(hint) {
  const box = $('#analysis');
  box.hidden = false;
  setChildren(box, el('span', {class: 'thinking'}, el('span', {class: 'spinner'}), hint ? ' Looking for a hint…' : ' Evaluating…'));
  const ply = app.state.ply;
  try {
    const a = await api('POST', gamePath(gameId, '/analysis'), {movetime: 700});
    if (app.state.ply !== ply) {
      box.hidden = true;
      return;
    }
    const best = a.best ? a.best.san || a.best.coord : null;
    if (hint) {
      const legal = a.best && app.state.legal.find((m) => m.coord === a.best.coord);
      const cells = legal ? {from: legal.from, to: legal.to} : a.best ? app.geom.parseCoord(a.best.coord) : null;
      app.hint = cells;
      renderBoard();
      setChildren(box, el('div', {}, el('strong', {}, 'Hint: '), best || 'no move'));
    } else {
      setChildren(
        box,
        el('div', {}, el('strong', {}, 'Evaluation: '), a.score ?? '?', a.depth ? el('span', {class: 'muted'}, ` (depth ${a.depth}, White’s view)`) : null),
        best ? el('div', {}, el('strong', {}, 'Best: '), best) : null,
        a.line && a.line.length ? el('div', {class: 'line'}, el('strong', {}, 'Line: '), a.line.join(' ')) : null,
      );
    }
  } catch (e) {
    setChildren(box, el('span', {class: 'error-text'}, e.message));
  }
}

async function main() {
  bindUi();
  app.seat = readSeat();
  let state;
  try {
    state = await getGame(gameId);
  } catch (e) {
    $('#loading').textContent = e instanceof ApiError && e.status === 404 ? 'There is no such game.' : `Could not load the game: ${e.message}`;
    $('#loading').classList.add('failed');
    document.querySelector('.side').hidden = true;
    document.querySelector('.board-toolbar').hidden = true;
    $('#board-help').hidden = true;
    $('#conn').hidden = true;
    return;
  }
  app.variant = await getVariant(state.variant);
  app.geom = new Geometry(app.variant);
  app.multi = multi.isMulti(state);
  const names = state.names || {};
  // Savard's boards are RULES.md's reconstructions of lost pictures: say so wherever one is shown.
  const name = app.variant.name + (app.variant.reconstruction ? ' (reconstruction)' : '');
  const who = app.multi ? multi.players(state) : `${names.white || 'White'} vs ${names.black || 'Black'}`;
  $('#game-title').textContent = `${name} · ${who}`;
  document.title = `Raum · ${name} · ${who}`;
  $('#rules-link').href = `/rules/${encodeURIComponent(state.variant)}`;
  $('#move-input').placeholder = placeholderFor(state);
  app.board2d = new Board2D($('#board2d'), app.geom, {
    onDown: (cell) => onCell(cell),
    onDrop: (from, to) => {
      if (canMoveNow() && app.state.legal.some((m) => m.from === from && m.to === to)) play(from, to);
    },
    onHover: (cell) => {
      app.hover = cell;
      renderBoard();
    },
  });
  applyState(state, {force: true});
  await setView(app.viewMode);
  app.live = new Live();
  setInterval(tickClocks, 100);
}

function placeholderFor(state) {
  const m = state.legal && state.legal[0];
  if (m && multi.isMulti(state)) return `Type a move: ${m.coord}`;
  return m ? `Type a move: ${m.san} or ${m.coord}` : 'Type a move';
}

main();
