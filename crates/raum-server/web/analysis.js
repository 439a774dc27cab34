// The engine's help on the game page: a hint (the best move, marked on the
// board) or an evaluation (score, best move, line) of the position on
// screen, for any game; the score is from the side the answer's `view` names
// (White's in two-player games, the side to move's, or its team's, in the
// others). An answer belongs to the position it was asked for: it is shown
// only while that position is (docs/api.md: `POST .../analysis` with `ply`).

import {api, ApiError, gamePath} from './api.js';
import {el, $, setChildren} from './util.js';
import {sideName, moveLabel} from './sides.js';

/** The position after `ply` events: a key that changes with any event before it (a take-back and another move too). */
export function positionKey(state, ply) {
  return `${ply}:${state.moves
    .slice(0, ply)
    .map((m) => m.coord || m.san)
    .join(' ')}`;
}

/** "the start", "after 8. Cc2", "after 8… Cc4", "after 3. 5e3-5e4" */
export function positionName(state, ply) {
  return ply === 0 ? 'the start' : `after ${moveLabel(state, ply)}`;
}

/**
 * Asks the server about the position shown (`app.viewPly`); `render()` draws
 * the page again when the answer comes. `app.analysis` keeps the request:
 * {key, ply, hint, pending, answer, error}.
 */
export async function analyse(gameId, app, hint, render) {
  const ply = app.viewPly;
  const request = {key: positionKey(app.state, ply), ply, hint, pending: true, answer: null, error: null};
  app.analysis = request;
  render();
  try {
    request.answer = await api('POST', gamePath(gameId, '/analysis'), {movetime: 700, ply});
  } catch (e) {
    request.error = e;
  }
  request.pending = false;
  if (app.analysis === request) render();
}

/** Whether `app.analysis` was asked for the position on screen. */
function current(app) {
  const a = app.analysis;
  return !!(a && app.state && a.ply <= app.state.ply && a.key === positionKey(app.state, app.viewPly));
}

/** The cells of the hint to mark on the board, if a hint for the position shown is on screen. */
export function hintCells(app) {
  if (!current(app) || !app.analysis.hint || !app.analysis.answer) return null;
  const best = app.analysis.answer.best;
  if (!best) return null;
  if (Number.isInteger(best.from) && Number.isInteger(best.to)) return {from: best.from, to: best.to};
  return app.geom.parseCoord(best.coord);
}

/** A refusal in words for the page: a busy engine is "not now", not a failure. */
function refusal(e) {
  if (e instanceof ApiError && (e.status === 429 || e.status === 503)) {
    const wait = e.retryAfter ? ` Try again in ${e.retryAfter} s.` : ' Try again shortly.';
    const why = e.message.replace(/[.\s]+$/, '');
    return el('span', {class: 'notice', dataset: {testid: 'analysis-busy'}}, `Raum cannot look now: ${why}.${wait}`);
  }
  return el('span', {class: 'error-text'}, e.message);
}

/** Draws `#analysis` for the position on screen: the request's answer, or nothing when it was for another position. */
export function renderAnalysis(app) {
  const box = $('#analysis');
  const a = app.analysis;
  if (!current(app)) {
    box.hidden = true;
    delete box.dataset.ply;
    box.replaceChildren();
    return;
  }
  const s = app.state;
  box.hidden = false;
  box.dataset.ply = String(a.ply);
  const where = el('div', {class: 'analysis-where muted', dataset: {testid: 'analysis-position'}}, `Position ${positionName(s, a.ply)}`);
  if (a.pending) {
    setChildren(box, where, el('span', {class: 'thinking'}, el('span', {class: 'spinner'}), a.hint ? ' Looking for a hint…' : ' Evaluating…'));
    return;
  }
  if (a.error) {
    setChildren(box, where, refusal(a.error));
    return;
  }
  const r = a.answer || {};
  const best = r.best ? r.best.san || r.best.coord : null;
  if (a.hint) {
    setChildren(box, where, el('div', {}, el('strong', {}, 'Hint: '), best || 'no move'));
    return;
  }
  const view = `${sideName(s, r.view || 'white')}’s view`;
  setChildren(
    box,
    where,
    el('div', {dataset: {testid: 'evaluation'}}, el('strong', {}, 'Evaluation: '), r.score ?? '?', r.depth ? el('span', {class: 'muted'}, ` (depth ${r.depth}, ${view})`) : null),
    best ? el('div', {dataset: {testid: 'analysis-best'}}, el('strong', {}, 'Best: '), best) : null,
    r.line && r.line.length ? el('div', {class: 'line'}, el('strong', {}, 'Line: '), r.line.join(' ')) : null,
  );
}
