// The move picker: a choice per legal move between the same two cells (a
// pawn's promotions, or which men of a shared cell move).

import {el, $, setChildren} from './util.js';
import {pieceElement, pieceName} from './pieces.js';
import {promotedMan} from './sides.js';

/**
 * Shows the choices among `candidates` (legal moves between the same two
 * cells): the pieces a pawn may promote to, or, where the moves differ in
 * which men move (a piece and its riding unicorn: `U-Dd2`, `W-Dd2`,
 * `W+U-Dd2`), each move as the move list writes it. `choose(coord)` plays one.
 */
export function showPromotion(state, variant, candidates, choose) {
  const modal = $('#promotion');
  const byPiece = candidates.every((m) => m.promotion) && new Set(candidates.map((m) => m.promotion)).size === candidates.length;
  $('#promotion h3').textContent = byPiece ? 'Promote to' : 'Which move?';
  setChildren(
    $('#promotion-choices'),
    candidates.map((m) => {
      const letter = m.promotion ? promotedMan(state, m.promotion) : null;
      const onclick = () => {
        hidePromotion();
        choose(m.coord);
      };
      const label = byPiece ? pieceName(variant, letter).replace(/^\S+ /, '') : m.san;
      return el(
        'button',
        {type: 'button', class: 'promo-choice', dataset: {promotion: m.promotion || '', coord: m.coord}, title: letter ? `${m.san}: ${pieceName(variant, letter)}` : m.san, onclick},
        letter ? pieceElement(letter, variant) : null,
        el('span', {class: 'promo-label'}, label),
      );
    }),
  );
  modal.hidden = false;
  modal.querySelector('button')?.focus();
}

export function hidePromotion() {
  $('#promotion').hidden = true;
}
