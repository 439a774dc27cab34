// The rules page: /rules/{variant}, drawn from GET /api/variants/{id}/rules.

import {api, getVariant, getVariants} from './api.js';
import {Geometry} from './geometry.js';
import {Board2D} from './board2d.js';
import {el, $, setChildren} from './util.js';
import {pieceElement} from './pieces.js';

const variantId = decodeURIComponent(location.pathname.replace(/^\/rules\//, '').split('/')[0] || 'five-up');

function staticBoard(container, geom, pieces, marks, maxCell) {
  const board = new Board2D(container, geom, {maxHeight: 100000, maxCell});
  board.render({pieces, marks: marks || new Map()});
  return board;
}

async function main() {
  let variant, rules;
  try {
    [variant, rules] = await Promise.all([getVariant(variantId), api('GET', `/api/variants/${encodeURIComponent(variantId)}/rules`)]);
  } catch (e) {
    $('#rules-error').hidden = false;
    $('#rules-error').textContent = `Could not load the rules of ${variantId}: ${e.message}`;
    return;
  }
  getVariants()
    .then((list) => {
      const select = $('#variant-switch');
      for (const v of list) select.appendChild(el('option', {value: v.id, selected: v.id === variant.id}, v.name));
      select.addEventListener('change', () => (location.href = `/rules/${encodeURIComponent(select.value)}`));
    })
    .catch(() => {});
  const geom = new Geometry(variant);
  document.title = `Raum · ${variant.name} rules`;
  $('#variant-name').textContent = variant.name;
  $('#rules-title').textContent = `${variant.name} · rules`;
  if (rules.reconstruction || variant.reconstruction) {
    const r = $('#reconstruction');
    r.hidden = false;
    setChildren(r, el('strong', {}, 'Reconstruction. '), 'The seed text leaves parts of these rules open or lost; Raum plays the rulings of RULES.md, and this page shows them.');
  }
  const levels = geom.levels.map((l) => l.name);
  $('#variant-facts').textContent = `${geom.n} cells on ${levels.length} levels (${levels.join(', ')}); files ${variant.files.join('')}, ranks ${variant.ranks[0]}–${variant.ranks[variant.ranks.length - 1]}${variant.wraps && variant.wraps.some(Boolean) ? `; wrapping axes: ${['files', 'ranks', 'levels'].filter((_, i) => variant.wraps[i]).join(', ')}` : ''}. Promotion to ${(variant.promotions || []).join(', ') || '—'}.`;
  staticBoard($('#start-board'), geom, geom.start, null, 46);

  setChildren($('#rule-texts'), (rules.rules || []).map((text) => el('li', {}, text)));

  const cards = (rules.pieces || []).map((p) => {
    const marks = new Map();
    const moves = new Set(p.moves || []);
    const captures = new Set(p.captures || []);
    for (const c of moves) marks.set(c, captures.has(c) ? 'both' : 'move');
    for (const c of captures) if (!moves.has(c)) marks.set(c, 'capture');
    const boardHost = el('div', {class: 'rules-board small'});
    const cellName = geom.cells[p.cell] ? geom.cells[p.cell].name : '';
    const card = el(
      'article',
      {class: 'piece-card', dataset: {piece: p.letter}},
      el('header', {}, pieceElement(p.letter, variant), el('h3', {}, p.name.charAt(0).toUpperCase() + p.name.slice(1)), el('span', {class: 'muted'}, ` ${p.letter} · on ${cellName} · ${moves.size} moves, ${captures.size} captures`)),
      el('p', {}, p.text || ''),
      boardHost,
    );
    return {card, boardHost, piece: p, marks};
  });
  setChildren($('#pieces'), cards.map((c) => c.card));
  for (const c of cards) staticBoard(c.boardHost, geom, new Map([[c.piece.cell, c.piece.letter]]), c.marks, 32);
  window.raumRulesReady = true;
}

main();
