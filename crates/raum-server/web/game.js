// The game page: /g/{id}, the seat token (if any) in the fragment #t=TOKEN.

import {api, ApiError, NetworkError, getVariant, getGame, gamePath, readSeat, saveSeat, loadInvite, absolute} from './api.js';
import {Geometry} from './geometry.js';
import {BoardViews, savedView, clickOn} from './board-views.js';
import {el, $, setChildren, copyField, formatClock} from './util.js';
import * as sides from './sides.js';
import {Live, setConn} from './live.js';
import {showPromotion, hidePromotion} from './promotion.js';
import {analyse, renderAnalysis, hintCells} from './analysis.js';
import {Review, boardLink} from './review.js';
import {renderPieceLegend} from './pieces.js';
import * as sound from './sound.js';
import {Premove, ownMan} from './premove.js';
import {renderDrawOffer, renderTakeback, renderRematch, goToRematch, notePresence, notice} from './offers.js';
import {downloadPng} from './snapshot.js';

const gameId = decodeURIComponent(location.pathname.replace(/^\/g\//, '').split('/')[0] || '');
const other = (c) => (c === 'white' ? 'black' : 'white');

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
    return app.views ? app.views.mode : savedView();
  },
  get connected() {
    return !!(app.live && app.live.open);
  },
  ready3d: () => ready3d,
  /** Page coordinates of a cell's centre (index or name) in the 3D canvas. */
  project(cell) {
    const board3d = app.views && app.views.mode === '3d' && app.views.board3d;
    if (!board3d) throw new Error('the 3D view is not shown');
    const i = typeof cell === 'number' ? cell : app.geom.byName.get(cell);
    if (i === undefined || i < 0 || i >= app.geom.n) throw new Error(`no cell ${cell}`);
    return board3d.project(i);
  },
  /** The 3D view's tile colours: cell name -> 'light', 'dark', 'line', 'hovered', ... */
  tiles3d() {
    if (!app.views || !app.views.board3d) throw new Error('the 3D view is not shown');
    return app.views.board3d.tileColors();
  },
  /** The 3D view's layout and sizes (Board3D.metrics). */
  metrics3d() {
    if (!app.views || !app.views.board3d) throw new Error('the 3D view is not shown');
    return app.views.board3d.metrics();
  },
  /** The sounds played so far (move, capture, check, end), unless muted. */
  get sounds() {
    return sound.played.slice();
  },
  /** The premove being made or waiting: {from, to} (to null while choosing), or null. */
  get premove() {
    return app.premove.active ? {from: app.premove.from, to: app.premove.to} : null;
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
  premove: new Premove(),
  analysis: null, // the last hint or evaluation asked for, and the position it is for (analysis.js)
  hover: -1,
  flipped: false,
  showLines: localStorage.getItem('raum:lines') !== 'off',
  views: null, // the board's two views (board-views.js)
  live: null,
  review: null, // the game's review, once it is over (review.js)
  sending: false,
  receivedAt: 0,
  movesKey: null,
};

/** The seat's side ('white', 'blue'), 'both' (at one screen), or null (spectator / not known yet). */
function myColor() {
  const s = app.state;
  if (!app.seat || !s) return null;
  if (s.mode === 'local') return 'both';
  if (s.mode === 'engine') return (s.sides.find((x) => x.human) || {}).key || null;
  return app.seat.color || null;
}

function isLive() {
  return app.state && app.viewPly === app.state.ply;
}

function canMoveNow() {
  const s = app.state;
  if (!s || !app.seat || s.result || !isLive() || app.sending) return false;
  if (s.engine && s.engine.thinking) return false;
  if (!sides.personToMove(s)) return false;
  const me = myColor();
  if (me === 'both' || me === null) return true;
  return s.side === me;
}

/**
 * Whether the player may premove: their one side's seat in an online game
 * or against Raum, on the position now, while another side is to move (or
 * their own move is on its way).
 */
function canPremove() {
  const s = app.state;
  const me = myColor();
  if (!s || !app.seat || s.result || !isLive() || !me || me === 'both' || me === 'all') return false;
  return (s.mode === 'online' || s.mode === 'engine') && !canMoveNow();
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
  if (lastMove && lastMove.kind !== 'move') delete view.last;
  if (ply === s.ply) view.check = s.check || [];
  else if (lastMove) view.check = lastMove.checks || [];
  if (app.showLines && app.hover >= 0 && app.selected === null) view.lines = app.geom.lines(app.hover);
  if (canMoveNow()) {
    view.movable = new Set(s.legal.map((m) => m.from));
    if (app.selected !== null) {
      view.selected = app.selected;
      for (const m of s.legal) if (m.from === app.selected) view.dests.set(m.to, {capture: pieces.has(m.to)});
    }
  }
  const hint = hintCells(app);
  if (hint) view.hint = hint;
  if (app.premove.active && ply === s.ply) view.premove = {from: app.premove.from, to: app.premove.to};
  return view;
}

function renderBoard() {
  if (!app.state) return;
  const view = boardView();
  app.views.render(view);
  if (!raumTest.isReady) {
    raumTest.isReady = true;
    $('#loading').hidden = true;
    resolveReady(true);
  }
}

function renderMoves() {
  const s = app.state;
  const list = $('#moves');
  // (a resignation or a fallen flag adds an event in a multi-player game, only a result in a two-player one)
  const key = s.moves.map((m) => m.coord || m.san).join(' ') + (s.result ? ` ${s.result.score}` : '');
  if (key !== app.movesKey) {
    app.movesKey = key;
    const rows = sides.moveRows(s, goTo);
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
  followMoves();
  $('#nav-first').disabled = $('#nav-prev').disabled = app.viewPly === 0;
  $('#nav-next').disabled = $('#nav-last').disabled = app.viewPly === s.ply;
}

/**
 * Keeps the move shown in view inside the move list: the game's last move
 * (and its result) while the board shows the game now. Run again whenever the
 * list's box changes size (an evaluation or the export panel opening shrinks it).
 */
function followMoves() {
  const box = $('#moves').parentElement;
  const s = app.state;
  if (!s) return;
  if (app.viewPly === s.ply) {
    box.scrollTop = box.scrollHeight;
    return;
  }
  const active = box.querySelector('button.move.active');
  if (!active) {
    box.scrollTop = 0;
    return;
  }
  const b = box.getBoundingClientRect();
  const a = active.getBoundingClientRect();
  if (a.top < b.top || a.bottom > b.bottom) box.scrollTop += a.top - b.top - (box.clientHeight - a.height) / 2;
}

function renderPlayers() {
  const s = app.state;
  const me = myColor();
  if (app.multi) {
    setChildren($('#player-top'), sides.legend(s, me, app.receivedAt));
    $('#player-top').classList.add('player-legend');
    $('#player-bottom').hidden = true;
    return;
  }
  const bottom = app.flipped ? 'black' : 'white';
  for (const [id, color] of [['#player-bottom', bottom], ['#player-top', other(bottom)]]) {
    const box = $(id);
    box.dataset.color = color;
    box.classList.toggle('to-move', !s.result && s.side === color);
    setChildren(box, sides.playerBox(s, color, me, app.receivedAt));
  }
}

function tickClocks() {
  const s = app.state;
  if (!s || !s.clock) return;
  for (const node of document.querySelectorAll('.clock')) {
    const ms = sides.clockMs(s, node.dataset.color, app.receivedAt);
    node.textContent = formatClock(ms);
    node.classList.toggle('low', ms < 20000);
    if (ms === 0 && s.clock.running === node.dataset.color && !s.result && !app.flagCheck) {
      // the server keeps the clocks: ask it for the verdict
      app.flagCheck = true;
      setTimeout(() => refetch().finally(() => (app.flagCheck = false)), 300);
    }
  }
}

function renderStatus() {
  const s = app.state;
  const status = $('#status');
  const result = $('#result');
  if (s.result) {
    result.hidden = false;
    setChildren(result, el('div', {class: 'result-text', 'data-testid': 'result'}, s.result.text), el('div', {class: 'result-sub'}, sides.resultLine(s)));
  } else {
    result.hidden = true;
  }
  const parts = [];
  if (!s.result) {
    const me = myColor();
    let line = `${sides.sideName(s, s.side)} to move`;
    if (me && me !== 'both' && me === s.side) line = 'Your move';
    // with more than two sides a king may stand attacked when it is not its turn: the mover's counts
    const inCheck = !!s.in_check;
    if (inCheck) line += ' · check';
    parts.push(el('span', {class: inCheck ? 'in-check' : '', 'data-testid': 'turn'}, line));
    if (s.engine && s.engine.thinking) parts.push(el('span', {class: 'thinking'}, el('span', {class: 'spinner'}), ' Raum is thinking…'));
    if (!app.seat) parts.push(el('span', {class: 'muted'}, 'Spectating'));
  }
  // the game's last move, whatever the board shows: on a phone the move list is further down
  if (s.ply > 0) parts.push(el('span', {class: 'last-move', 'data-testid': 'last-move'}, el('span', {class: 'muted'}, 'Last: '), sides.moveLabel(s, s.ply)));
  if (!isLive()) parts.push(el('span', {class: 'viewing'}, `Viewing move ${app.viewPly} of ${s.ply} · `, el('button', {type: 'button', class: 'link', onclick: () => goTo(s.ply)}, 'back to now')));
  setChildren(status, parts.flatMap((p, i) => (i ? [' ', p] : [p])));
  status.hidden = parts.length === 0;

  const me = myColor();
  const seated = !!app.seat;
  renderDrawOffer(s, me, seated, drawAction);
  renderTakeback(s, me, seated, (action) => seatAction('/takeback', {action, ply: s.ply}));
  renderRematch(s, me, seated, () => goToRematch(gameId, app.seat, showError));
}

function renderActions() {
  const s = app.state;
  const seated = !!app.seat;
  const over = !!s.result;
  const show = (id, on) => ($(id).hidden = !on);
  const sidesIn = s.sides.filter((x) => x.in);
  // every side for itself, draws are agreed only when two sides are left; Raum takes no offers
  const drawable = (s.teams || sidesIn.length <= 2) && sidesIn.every((x) => x.human);
  // online, a take-back is asked of the opponent (two sides), once one's own move is on the board
  const asked = s.mode === 'online' && !app.multi && !s.takeback && s.moves.some((m) => m.color === myColor());
  show('#btn-undo', seated && !over && (s.mode === 'local' || s.mode === 'engine' || asked) && s.ply > 0);
  show('#btn-hint', seated && !over && s.mode !== 'online');
  show('#btn-eval', (seated && s.mode !== 'online') || over);
  show('#btn-draw', seated && !over && drawable && !s.draw_offer);
  show('#btn-resign', seated && !over);
  $('#move-form').hidden = !seated || over;
  // the analysis board, never during an online game
  show('#btn-board', over || s.mode !== 'online');
  $('#btn-board').href = boardLink(s, app.viewPly, gameId);
  $('#btn-undo').disabled = app.sending || (s.engine && s.engine.thinking);
  // one question to the engine at a time (the server answers a second one for the game with 429)
  $('#btn-hint').disabled = $('#btn-eval').disabled = !!(app.analysis && app.analysis.pending);
}

function renderInvite() {
  const s = app.state;
  const invite = loadInvite(gameId);
  const box = $('#invite');
  if (s.mode === 'online' && invite && app.seat && (!invite.color || invite.color === app.seat.color)) {
    box.hidden = false;
    const fields = $('#invite-fields');
    if (!fields.dataset.built) {
      fields.dataset.built = '1';
      setChildren(fields, sides.inviteFields(s, invite, copyField, absolute));
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

function renderReview() {
  if (!app.review) return;
  app.review.render(app.state, app.viewPly, renderReview);
  app.review.mark($('#moves'));
}

function renderAll() {
  renderBoard();
  renderMoves();
  renderReview();
  renderPlayers();
  renderStatus();
  renderActions();
  renderAnalysis(app);
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
    if (old) hidePromotion();
  }
  // a move arriving sounds (a step through the list does not come here)
  const sfx = sound.soundFor(old, s, (ply) => piecesAt(ply).size);
  if (sfx) sound.play(sfx);
  if (s.result || (old && s.ply < old.ply)) app.premove.clear();
  if (s.mode === 'online' && app.seat && !app.seat.color && s.moves.length && old && s.ply === old.ply + 1 && app.lastSentPly === old.ply) {
    // learn the seat's colour from the move it just made
    app.seat.color = s.moves[s.ply - 1].color;
    saveSeat(gameId, app.seat);
  }
  if (!old) {
    app.flipped = myColor() === 'black';
    app.views.setFlipped(app.flipped);
  }
  notePresence(old, s, myColor());
  renderAll();
  pollIfNeeded();
  playPremove();
}

/** The player's turn has come: the premove waiting is played if it is legal now, else dropped with a notice. */
function playPremove() {
  const pm = app.premove;
  if (!pm.active || !canMoveNow()) return;
  const s = app.state;
  if (!pm.ready) {
    // only a man was chosen: it stays chosen, for a move now
    if (s.legal.some((m) => m.from === pm.from)) app.selected = pm.from;
    pm.clear();
    renderBoard();
    return;
  }
  const move = pm.move(s);
  const name = (c) => app.geom.cells[c].name;
  const text = `${name(pm.from)}-${name(pm.to)}`;
  pm.clear();
  if (move) {
    sendMove(move.coord);
  } else {
    notice(`Premove ${text} dropped: it is not legal now.`);
    renderBoard();
  }
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
  // the answer to a move of Raum's may have come while this one was on its way
  playPremove();
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
  if (s && canPremove()) return premoveClick(cell);
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
  const click = clickOn(s.legal, app.selected, cell);
  if (click.play) {
    play(...click.play);
    return null;
  }
  app.selected = click.select;
  renderBoard();
  return click.drag ? 'drag' : null;
}

/** A click while another side is to move: choosing a premove (the man, then its cell), or cancelling it. */
function premoveClick(cell) {
  const pieces = piecesAt(app.state.ply);
  const own = (c) => ownMan(app.state, myColor(), pieces.get(c));
  const isKing = (c) => /k/i.test(String(pieces.get(c) || '').slice(-1));
  if (app.premove.click(cell, own, isKing)) renderBoard();
  return app.premove.active && !app.premove.ready && app.premove.from === cell ? 'drag' : null;
}

function play(from, to) {
  const candidates = app.state.legal.filter((m) => m.from === from && m.to === to);
  if (!candidates.length) return;
  if (candidates.length === 1) {
    app.selected = null;
    sendMove(candidates[0].coord);
    return;
  }
  showPromotion(app.state, app.variant, candidates, (coord) => {
    app.selected = null;
    sendMove(coord);
  });
}

function goTo(ply) {
  const s = app.state;
  if (!s) return;
  app.viewPly = Math.max(0, Math.min(s.ply, ply));
  app.selected = null;
  renderBoard();
  renderMoves();
  renderStatus();
  // an evaluation is shown with its own position only
  renderAnalysis(app);
  renderActions();
  renderReview();
}

function setFlipped(flipped) {
  app.flipped = flipped;
  app.views.setFlipped(flipped);
  renderBoard();
  renderPlayers();
}

async function setView(mode) {
  if (!(await app.views.setView(mode))) return;
  app.hover = -1;
  if (app.state) renderBoard();
}

// ---- start ----------------------------------------------------------------
function bindUi() {
  new ResizeObserver(followMoves).observe($('.moves-box'));
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
  // online the take-back is asked of the opponent
  $('#btn-undo').addEventListener('click', () => {
    const ply = app.state ? app.state.ply : undefined;
    if (app.state && app.state.mode === 'online') seatAction('/takeback', {action: 'request', ply});
    else seatAction('/undo', {ply}, {force: true});
  });
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
  // the position on screen is the one asked about, an earlier one too
  const analysed = () => {
    renderBoard();
    renderActions();
    renderAnalysis(app);
  };
  $('#btn-hint').addEventListener('click', () => analyse(gameId, app, true, analysed));
  $('#btn-eval').addEventListener('click', () => analyse(gameId, app, false, analysed));
  $('#promotion-cancel').addEventListener('click', hidePromotion);
  document.addEventListener('keydown', (e) => {
    if (e.target.closest && e.target.closest('input, textarea, select')) return;
    if (e.key === 'Escape') {
      hidePromotion();
      app.selected = null;
      app.premove.clear();
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
  // a right click or a click off the cells cancels a premove
  const cancelPremove = (e) => {
    if (!app.premove.active) return;
    if (e.type === 'contextmenu') e.preventDefault();
    else if (e.button !== 0 || app.views.mode !== '2d' || e.target.closest('.cell')) return;
    app.premove.clear();
    renderBoard();
  };
  $('#board-frame').addEventListener('contextmenu', cancelPremove);
  $('#board-frame').addEventListener('pointerdown', cancelPremove);
  bindSoundAndImage();
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

/** The mute switch (remembered) and the board's PNG. */
function bindSoundAndImage() {
  sound.bindMuteSwitch($('#sound-toggle'));
  $('#btn-png').addEventListener('click', () => downloadPng(app, gameId).catch((e) => showError(e.message)));
}

async function main() {
  bindUi();
  app.review = new Review(gameId, $('#review'), goTo);
  app.seat = readSeat(gameId);
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
  app.multi = sides.isMulti(state);
  // Savard's boards are RULES.md's reconstructions of lost pictures: say so wherever one is shown.
  const name = app.variant.name + (app.variant.reconstruction ? ' (reconstruction)' : '');
  const who = sides.players(state);
  $('#game-title').textContent = `${name} · ${who}`;
  document.title = `Raum · ${name} · ${who}`;
  $('#rules-link').href = `/rules/${encodeURIComponent(state.variant)}`;
  $('#move-input').placeholder = sides.placeholderFor(state);
  renderPieceLegend(app.variant);
  app.views = new BoardViews(app.geom, {
    onCell,
    onDrop: (from, to) => {
      if (canPremove() && app.premove.from === from) {
        app.premove.drop(from, to);
        renderBoard();
        return;
      }
      if (canMoveNow() && app.state.legal.some((m) => m.from === from && m.to === to)) play(from, to);
    },
    onHover: (cell) => {
      app.hover = cell;
      renderBoard();
    },
    onError: showError,
    on3dReady: () => resolveReady3d(true),
    help: {
      '3d': 'Click a piece, then a marked cell, or drag it there. Drag elsewhere to orbit, wheel to zoom, right-drag to pan; hover a cell to see its lines.',
      '2d': 'Click a piece, then a marked cell, or drag it there. Levels are drawn side by side, as in the seeds.',
    },
  });
  applyState(state, {force: true});
  if (!(await app.views.setView(savedView()))) await app.views.setView('2d');
  const conn = $('#conn');
  // In an online game a seat's socket names its seat, so that the other
  // players learn it is here.
  const online = app.state && app.state.mode === 'online';
  const seatQuery = online && app.seat && app.seat.token ? `?token=${encodeURIComponent(app.seat.token)}` : '';
  app.live = new Live(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${gamePath(gameId, '/ws')}${seatQuery}`, {
    open() {
      raumTest.wsOpens++;
      setConn(conn, 'live');
      pollIfNeeded();
    },
    message: () => raumTest.wsMessages++,
    state: (state, first) => applyState(state, {force: first}),
    closed() {
      setConn(conn, 'reconnecting');
      if (app.state) pollIfNeeded();
    },
  });
  setInterval(tickClocks, 100);
}

main();
