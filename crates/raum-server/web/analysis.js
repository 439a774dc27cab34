// The engine's help on the game page: a hint (the best move, marked on the
// board) or an evaluation (score, best move, line), for any game; the score
// is from the side the answer's `view` names (White's in two-player games,
// the side to move's, or its team's, in the others).

import {api, gamePath} from './api.js';
import {el, $, setChildren} from './util.js';
import {sideName} from './sides.js';

/** Asks the server; `app` gives the state and geometry, `showHint(cells)` marks the hint. */
export async function analyse(gameId, app, hint, showHint) {
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
      showHint(legal ? {from: legal.from, to: legal.to} : a.best ? app.geom.parseCoord(a.best.coord) : null);
      setChildren(box, el('div', {}, el('strong', {}, 'Hint: '), best || 'no move'));
    } else {
      const view = `${sideName(app.state, a.view || 'white')}’s view`;
      setChildren(
        box,
        el('div', {dataset: {testid: 'evaluation'}}, el('strong', {}, 'Evaluation: '), a.score ?? '?', a.depth ? el('span', {class: 'muted'}, ` (depth ${a.depth}, ${view})`) : null),
        best ? el('div', {}, el('strong', {}, 'Best: '), best) : null,
        a.line && a.line.length ? el('div', {class: 'line'}, el('strong', {}, 'Line: '), a.line.join(' ')) : null,
      );
    }
  } catch (e) {
    setChildren(box, el('span', {class: 'error-text'}, e.message));
  }
}
