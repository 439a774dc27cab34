// Piece symbols: chess glyphs for K Q R B N P, lettered tokens for the rest
// (W wizard, G guard, U unicorn, E elephant, A airman, C commoner, ...).
// A cell holds a letter (upper case White, lower case Black), a piece with
// its riding unicorn ("WU"), or in a multi-player game a man of one of up to
// six sides: the side's letter then the piece's ("wK", "rP", "bQ"), drawn
// in the side's colour.

import {$, el, setChildren} from './util.js';

const GLYPHS = {K: '\u265A', Q: '\u265B', R: '\u265C', B: '\u265D', N: '\u265E', P: '\u265F'};
export const FONT_STACK = '"DejaVu Sans", "Noto Sans Symbols 2", "Segoe UI Symbol", "Apple Symbols", sans-serif';

export function isWhite(letter) {
  return letter === letter.toUpperCase();
}

/**
 * The six sides' colours (RULES.md's side letters): fill, outline, and the
 * letter drawn on a token. Chosen to stay apart on light and dark cells.
 */
export const SIDE_COLORS = {
  w: {fill: '#ffffff', stroke: '#1b1b1b', ink: '#111111'},
  k: {fill: '#161616', stroke: '#f2f2f2', ink: '#ffffff'},
  r: {fill: '#e0352b', stroke: '#3a0905', ink: '#ffffff'},
  b: {fill: '#2f6fe8', stroke: '#07173d', ink: '#ffffff'},
  g: {fill: '#1fa64a', stroke: '#05290f', ink: '#ffffff'},
  y: {fill: '#f5cc12', stroke: '#3d3000', ink: '#1a1400'},
};

/** A multi-player man ("bQ"): {side: 'b', kind: 'Q'}, or null. */
export function manOf(content) {
  const m = /^([a-z])([A-Z])$/.exec(String(content));
  return m && SIDE_COLORS[m[1]] ? {side: m[1], kind: m[2]} : null;
}

/** {kind, color, glyph|null} of one letter. */
export function pieceInfo(letter) {
  const kind = letter.toUpperCase();
  return {kind, color: isWhite(letter) ? 'white' : 'black', glyph: GLYPHS[kind] || null};
}

/** Splits a cell's content ("P", or "WU" for a piece carrying a unicorn). */
export function lettersOf(content) {
  return [...String(content)].filter((c) => /[A-Za-z]/.test(c));
}

/** The piece's name from the variant's piece list: "White knight", "Blue queen". */
export function pieceName(variant, letter) {
  const man = manOf(letter);
  const kind = man ? man.kind : letter.toUpperCase();
  const p = (variant.pieces || []).find((q) => q.letter.toUpperCase() === kind);
  let color = isWhite(letter) ? 'White' : 'Black';
  if (man) {
    const side = (variant.sides || []).find((s) => s.letter === man.side);
    color = side ? side.name : man.side;
  }
  return `${color} ${p ? p.name.toLowerCase() : kind}`;
}

/** A DOM symbol for a cell's content. */
export function pieceElement(content, variant) {
  const wrap = document.createElement('span');
  wrap.className = 'pieces';
  const man = manOf(content);
  if (man) {
    const glyph = GLYPHS[man.kind];
    const span = document.createElement('span');
    span.className = `piece side side-${man.side} ${glyph ? 'glyph' : 'token'}`;
    span.dataset.piece = content;
    span.textContent = glyph ? glyph + '\uFE0E' : man.kind;
    span.title = variant ? pieceName(variant, content) : content;
    wrap.appendChild(span);
    return wrap;
  }
  const letters = lettersOf(content);
  letters.forEach((letter, i) => {
    const info = pieceInfo(letter);
    const span = document.createElement('span');
    span.className = `piece ${info.color} ${info.glyph ? 'glyph' : 'token'}${i > 0 ? ' rider' : ''}`;
    span.dataset.piece = letter;
    span.textContent = info.glyph ? info.glyph + '\uFE0E' : info.kind;
    span.title = variant ? pieceName(variant, letter) : letter;
    wrap.appendChild(span);
  });
  return wrap;
}

const textureCanvases = new Map();

/** A square canvas with the symbol drawn on it (for the 3D view's sprites). */
export function pieceCanvas(content, size = 128) {
  const key = `${content}/${size}`;
  if (textureCanvases.has(key)) return textureCanvases.get(key);
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = size;
  const g = canvas.getContext('2d');
  const man = manOf(content);
  if (man) {
    drawMan(g, size, man);
    textureCanvases.set(key, canvas);
    return canvas;
  }
  const letters = lettersOf(content);
  letters.forEach((letter, i) => {
    const info = pieceInfo(letter);
    const white = info.color === 'white';
    const scale = i === 0 ? 1 : 0.45;
    const cx = i === 0 ? size / 2 : size * 0.78;
    const cy = i === 0 ? size / 2 : size * 0.22;
    const s = size * scale;
    g.save();
    g.translate(cx, cy);
    // a soft disc behind every piece so both colours read on any background
    g.beginPath();
    g.arc(0, 0, s * 0.46, 0, Math.PI * 2);
    g.fillStyle = white ? 'rgba(40,40,40,0.55)' : 'rgba(235,235,235,0.55)';
    g.fill();
    if (info.glyph) {
      g.font = `${Math.round(s * 0.78)}px ${FONT_STACK}`;
      g.textAlign = 'center';
      g.textBaseline = 'middle';
      g.lineJoin = 'round';
      g.lineWidth = s * 0.06;
      g.strokeStyle = white ? '#1a1a1a' : '#f2f2f2';
      g.strokeText(info.glyph, 0, s * 0.04);
      g.fillStyle = white ? '#ffffff' : '#151515';
      g.fillText(info.glyph, 0, s * 0.04);
    } else {
      g.beginPath();
      g.arc(0, 0, s * 0.36, 0, Math.PI * 2);
      g.fillStyle = white ? '#fbfbfb' : '#1b1b1b';
      g.fill();
      g.lineWidth = s * 0.05;
      g.strokeStyle = white ? '#1a1a1a' : '#eeeeee';
      g.stroke();
      g.font = `bold ${Math.round(s * 0.42)}px ${FONT_STACK}`;
      g.textAlign = 'center';
      g.textBaseline = 'middle';
      g.fillStyle = white ? '#111111' : '#ffffff';
      g.fillText(info.kind, 0, s * 0.03);
    }
    g.restore();
  });
  textureCanvases.set(key, canvas);
  return canvas;
}

/** A multi-player man on a canvas, in its side's colours. */
function drawMan(g, size, man) {
  const c = SIDE_COLORS[man.side];
  const glyph = GLYPHS[man.kind];
  const dark = man.side === 'k';
  g.save();
  g.translate(size / 2, size / 2);
  g.beginPath();
  g.arc(0, 0, size * 0.46, 0, Math.PI * 2);
  g.fillStyle = dark ? 'rgba(235,235,235,0.55)' : 'rgba(30,30,30,0.5)';
  g.fill();
  if (glyph) {
    g.font = `${Math.round(size * 0.78)}px ${FONT_STACK}`;
    g.textAlign = 'center';
    g.textBaseline = 'middle';
    g.lineJoin = 'round';
    g.lineWidth = size * 0.07;
    g.strokeStyle = c.stroke;
    g.strokeText(glyph, 0, size * 0.04);
    g.fillStyle = c.fill;
    g.fillText(glyph, 0, size * 0.04);
  } else {
    g.beginPath();
    g.arc(0, 0, size * 0.36, 0, Math.PI * 2);
    g.fillStyle = c.fill;
    g.fill();
    g.lineWidth = size * 0.05;
    g.strokeStyle = c.stroke;
    g.stroke();
    g.font = `bold ${Math.round(size * 0.42)}px ${FONT_STACK}`;
    g.textAlign = 'center';
    g.textBaseline = 'middle';
    g.fillStyle = c.ink;
    g.fillText(man.kind, 0, size * 0.03);
  }
  g.restore();
}

/**
 * The legend of the pieces under the board: each piece of the variant drawn as
 * the boards draw it (in the first side's colour), its letter and its name
 * from GET /api/variants/{id}: the lettered tokens (W, G, U, A, ...) say what they are.
 */
export function renderPieceLegend(variant) {
  const box = $('#piece-legend');
  const pieces = variant.pieces || [];
  const first = variant.sides && variant.sides[0] ? variant.sides[0].letter : null;
  setChildren(
    box,
    pieces.map((p) =>
      el(
        'span',
        {class: 'piece-legend-item', dataset: {letter: p.letter}},
        pieceElement(first ? `${first}${p.letter.toUpperCase()}` : p.letter.toUpperCase(), variant),
        el('strong', {}, p.letter.toUpperCase()),
        ` ${p.name.charAt(0).toUpperCase()}${p.name.slice(1)}`,
      ),
    ),
  );
  box.hidden = pieces.length === 0;
}
