// A finished game's review on the game page (docs/api.md, "Review"): the
// server searches every position on its engine threads once and keeps the
// result with the game; the page shows an evaluation graph over the game
// (a click goes to that move), each side's inaccuracies, mistakes and
// blunders, marks them in the move list, and names the engine's move where
// the move on screen was not it.

import {api, ApiError, gamePath} from './api.js';
import {el, setChildren} from './util.js';
import {sideName} from './sides.js';

const SVG = 'http://www.w3.org/2000/svg';
const svg = (tag, attrs) => {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
};
const CLASSES = ['inaccuracy', 'mistake', 'blunder'];

export class Review {
  /** box: the panel; goTo(ply) shows the game after `ply` moves. */
  constructor(gameId, box, goTo) {
    this.gameId = gameId;
    this.box = box;
    this.goTo = goTo;
    this.status = null; // the server's answer: {status, done, total, review?}
    this.error = null;
    this.checked = false;
  }

  /** The review's verdict on move `ply` (from 1), or null. */
  moveAt(ply) {
    const r = this.status && this.status.review;
    return (r && r.moves[ply - 1]) || null;
  }

  /** Asks the server for the review (`start`: make it if it is not made), then again while it is made. */
  async ask(start, render) {
    clearTimeout(this.timer);
    this.error = null;
    const game = this.game;
    let status = null;
    try {
      status = await api(start ? 'POST' : 'GET', gamePath(this.gameId, '/review'));
    } catch (e) {
      if (game === this.game) this.error = e instanceof ApiError && e.status === 429 ? `Not now: ${e.message}` : e.message;
    }
    // an answer for a game since taken back is not this game's
    if (game !== this.game) return;
    this.status = status;
    this.checked = true;
    render();
    const s = this.status;
    if (s && (s.status === 'queued' || s.status === 'running')) this.timer = setTimeout(() => this.ask(false, render), 1000);
  }

  /** Draws the panel for `state` with `viewPly` on screen. */
  render(state, viewPly, render) {
    const over = !!state.result && state.kind === 'two';
    // A game taken back (and perhaps ended again) is another game: its review is asked anew.
    const game = over ? `${state.ply}:${state.result.score}:${state.moves.map((m) => m.coord || m.san).join(' ')}` : null;
    if (game !== this.game) {
      this.game = game;
      clearTimeout(this.timer);
      this.status = null;
      this.error = null;
      this.checked = false;
      this.asking = false;
    }
    this.box.hidden = !over;
    if (!over) return;
    if (!this.checked && !this.asking) {
      this.asking = true;
      this.ask(false, render);
    }
    const s = this.status;
    const parts = [el('h3', {}, 'Game review')];
    if (this.error) parts.push(el('p', {class: 'error-text'}, this.error));
    if (!s || s.status === 'none' || this.error) {
      parts.push(
        el('p', {class: 'muted'}, 'Raum searches every position of the game and marks the moves that gave the most away.'),
        el('button', {type: 'button', class: 'btn small primary', id: 'btn-review', onclick: () => this.ask(true, render)}, 'Review the game'),
      );
    } else if (s.status === 'queued' || s.status === 'running') {
      parts.push(el('p', {'data-testid': 'review-progress'}, el('span', {class: 'spinner'}), ` Reviewing… ${s.done} of ${s.total} positions`), el('progress', {max: s.total, value: s.done}));
    } else if (s.status === 'done') {
      parts.push(this.graph(s.review, viewPly), this.summary(state, s.review), this.best(state, viewPly));
    }
    setChildren(this.box, parts);
  }

  /** The evaluation graph: White's expected score after each move, the marked moves, the move on screen. */
  graph(review, viewPly) {
    const n = Math.max(1, review.positions.length - 1);
    const y = (white) => 100 - white * 100;
    const g = svg('svg', {class: 'review-graph', viewBox: `0 0 ${n} 100`, preserveAspectRatio: 'none', role: 'img', 'aria-label': 'Evaluation over the game', 'data-testid': 'review-graph'});
    const points = review.positions.map((p) => `${p.ply},${y(p.white)}`);
    g.append(
      svg('polygon', {class: 'white-area', points: `0,100 ${points.join(' ')} ${n},100`}),
      svg('line', {class: 'mid', x1: 0, x2: n, y1: 50, y2: 50, 'vector-effect': 'non-scaling-stroke'}),
      svg('line', {class: 'here', x1: viewPly, x2: viewPly, y1: 0, y2: 100, 'vector-effect': 'non-scaling-stroke'}),
    );
    for (const m of review.moves) {
      if (!CLASSES.includes(m.class)) continue;
      const p = review.positions[m.ply];
      g.append(svg('rect', {class: `mark-${m.class}`, x: m.ply - n / 200, y: Math.min(94, Math.max(0, y(p.white) - 3)), width: Math.max(n / 100, 0.3), height: 6, 'data-ply': m.ply}));
    }
    g.addEventListener('click', (e) => {
      const box = g.getBoundingClientRect();
      this.goTo(Math.round(((e.clientX - box.left) / box.width) * n));
    });
    return g;
  }

  /** Each side's count of inaccuracies, mistakes and blunders, and its mean loss. */
  summary(state, review) {
    const cells = [el('span'), el('span', {class: 'muted'}, '?!'), el('span', {class: 'muted'}, '?'), el('span', {class: 'muted'}, '??'), el('span', {class: 'muted'}, 'avg loss')];
    for (const [key, s] of Object.entries(review.sides)) {
      cells.push(
        el('span', {}, sideName(state, key)),
        el('span', {dataset: {testid: `${key}-inaccuracies`}}, String(s.inaccuracies)),
        el('span', {dataset: {testid: `${key}-mistakes`}}, String(s.mistakes)),
        el('span', {'data-testid': `${key}-blunders`}, String(s.blunders)),
        el('span', {}, `${(s.average_loss * 100).toFixed(1)}%`),
      );
    }
    return el('div', {class: 'review-sides'}, cells);
  }

  /** What the review says of the move on screen. */
  best(state, viewPly) {
    const m = this.moveAt(viewPly);
    if (!m) return el('p', {class: 'review-best muted'}, 'Click the graph or a move to see its verdict.');
    const name = {best: 'the best move', good: 'a good move', inaccuracy: 'an inaccuracy', mistake: 'a mistake', blunder: 'a blunder'}[m.class] || m.class;
    const loss = m.loss > 0 ? ` (${(m.loss * 100).toFixed(1)}% of the expected score given away)` : '';
    return el(
      'p',
      {class: 'review-best', 'data-testid': 'review-verdict'},
      `${m.san} was ${name}${loss}.`,
      m.best ? [' Best was ', el('strong', {}, m.best.san), '.'] : null,
    );
  }

  /** Marks the move list's buttons (`button.move[data-ply]`) with their class. */
  mark(list) {
    for (const b of list.querySelectorAll('button.move[data-ply]')) {
      const m = this.moveAt(Number(b.dataset.ply));
      for (const c of CLASSES) b.classList.toggle(c, !!m && m.class === c);
    }
  }
}

/** The analysis board's link for a game's state, at `ply`. */
export function boardLink(state, ply, gameId) {
  const p = new URLSearchParams({variant: state.variant});
  const moves = state.moves.slice(0, ply);
  if (moves.every((m) => m.kind === 'move' && m.coord)) {
    if (state.start) p.set('start', state.start);
    if (moves.length) p.set('moves', moves.map((m) => m.coord).join(' '));
  } else {
    // a side resigned or lost on time on the way: the position itself
    p.set('start', state.fen);
  }
  p.set('game', gameId);
  return `/analysis?${p}`;
}
