// A PNG of the board as shown: the 3D view's canvas (drawn again just
// before it is read), or the layered view drawn cell by cell onto a canvas
// from the page itself (each cell's colour and mark as the page shows it,
// the level names and labels, the men as the 3D view draws them). Saved as
// raum-{game}-{ply}.png, the ply being the position on screen.

import {pieceCanvas} from './pieces.js';

const clear = (color) => !color || color === 'transparent' || /rgba\(.*,\s*0\)$/.test(color);

/** The layered view on a canvas. */
function drawLayers(host) {
  const levels = host.querySelector('.levels');
  const box = levels.getBoundingClientRect();
  const pad = 12;
  const scale = Math.min(2, Math.max(1, window.devicePixelRatio || 1));
  const canvas = document.createElement('canvas');
  canvas.width = Math.ceil((box.width + 2 * pad) * scale);
  canvas.height = Math.ceil((box.height + 2 * pad) * scale);
  const g = canvas.getContext('2d');
  g.scale(scale, scale);
  const bg = getComputedStyle(document.body).backgroundColor;
  g.fillStyle = clear(bg) ? '#202124' : bg;
  g.fillRect(0, 0, box.width + 2 * pad, box.height + 2 * pad);
  const at = (node) => {
    const r = node.getBoundingClientRect();
    return [r.left - box.left + pad, r.top - box.top + pad, r.width, r.height];
  };
  g.textAlign = 'center';
  g.textBaseline = 'middle';
  for (const label of levels.querySelectorAll('.level-name, .rank-label, .file-label')) {
    const style = getComputedStyle(label);
    const [x, y, w, h] = at(label);
    g.fillStyle = style.color;
    g.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    g.fillText(label.textContent, x + w / 2, y + h / 2);
  }
  for (const cell of levels.querySelectorAll('.cell')) {
    const [x, y, w, h] = at(cell);
    g.fillStyle = getComputedStyle(cell).backgroundColor;
    g.fillRect(x, y, w, h);
    // the marks the page lays over a cell: last move, selection, premove, lines, ...
    const over = getComputedStyle(cell, '::before').backgroundColor;
    if (!clear(over)) {
      g.fillStyle = over;
      g.fillRect(x, y, w, h);
    }
    if (cell.classList.contains('check')) {
      const glow = g.createRadialGradient(x + w / 2, y + h / 2, 0, x + w / 2, y + h / 2, w * 0.6);
      glow.addColorStop(0, '#ff0000');
      glow.addColorStop(1, 'rgba(169, 0, 0, 0)');
      g.fillStyle = glow;
      g.fillRect(x, y, w, h);
    }
    if (cell.dataset.piece) g.drawImage(pieceCanvas(cell.dataset.piece), x, y, w, h);
    if (cell.classList.contains('dest')) {
      g.beginPath();
      g.arc(x + w / 2, y + h / 2, w * 0.16, 0, Math.PI * 2);
      g.fillStyle = 'rgba(20, 85, 30, 0.55)';
      g.fill();
    }
  }
  return canvas;
}

/** The board as shown, as a PNG. */
export function boardPng(app) {
  let canvas;
  const {mode, board2d, board3d} = app.views;
  if (mode === '3d' && board3d) {
    board3d.renderNow();
    canvas = board3d.renderer.domElement;
  } else {
    canvas = drawLayers(board2d.container);
  }
  return new Promise((resolve, reject) => canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('the board could not be drawn'))), 'image/png'));
}

/** Saves the board as shown: raum-{game}-{ply}.png. */
export async function downloadPng(app, gameId) {
  const blob = await boardPng(app);
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = `raum-${gameId}-${app.viewPly}.png`;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10000);
}
