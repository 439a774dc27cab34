// Piece symbols: chess glyphs for K Q R B N P, lettered tokens for the rest
// (W wizard, G guard, U unicorn, E elephant, A airman, C commoner, ...).

const GLYPHS = {K: '\u265A', Q: '\u265B', R: '\u265C', B: '\u265D', N: '\u265E', P: '\u265F'};
export const FONT_STACK = '"DejaVu Sans", "Noto Sans Symbols 2", "Segoe UI Symbol", "Apple Symbols", sans-serif';

export function isWhite(letter) {
  return letter === letter.toUpperCase();
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

/** The piece's name from the variant's piece list. */
export function pieceName(variant, letter) {
  const kind = letter.toUpperCase();
  const p = (variant.pieces || []).find((q) => q.letter.toUpperCase() === kind);
  const color = isWhite(letter) ? 'White' : 'Black';
  return `${color} ${p ? p.name.toLowerCase() : kind}`;
}

/** A DOM symbol for a cell's content. */
export function pieceElement(content, variant) {
  const letters = lettersOf(content);
  const wrap = document.createElement('span');
  wrap.className = 'pieces';
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
