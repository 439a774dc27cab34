// The promotion picker: a choice per legal promotion of a pawn's move.

import {el, $, setChildren} from './util.js';
import {pieceElement, pieceName} from './pieces.js';
import {promotedMan} from './sides.js';

/** Shows the choices among `candidates` (legal moves alike but for the promotion); `choose(coord)` plays one. */
export function showPromotion(state, variant, candidates, choose) {
  const modal = $('#promotion');
  setChildren(
    $('#promotion-choices'),
    candidates.map((m) => {
      const letter = m.promotion ? promotedMan(state, m.promotion) : null;
      const onclick = () => {
        hidePromotion();
        choose(m.coord);
      };
      return el(
        'button',
        {type: 'button', class: 'promo-choice', dataset: {promotion: m.promotion || '', coord: m.coord}, title: letter ? pieceName(variant, letter) : m.san, onclick},
        letter ? pieceElement(letter, variant) : null,
        el('span', {class: 'promo-label'}, letter ? pieceName(variant, letter).replace(/^\S+ /, '') : m.san),
      );
    }),
  );
  modal.hidden = false;
  modal.querySelector('button')?.focus();
}

export function hidePromotion() {
  $('#promotion').hidden = true;
}
