// The seeds' layered view: every level a grid, side by side (wrapping into
// rows when there are many), ranks numbered, files lettered, highest rank at
// the top from White's side. Cells that do not exist stay blank.

import {el} from './util.js';
import {pieceElement} from './pieces.js';

const GAP = 18; // px between levels

export class Board2D {
  /**
   * options: {onDown(cell, event), onDrop(from, to), onHover(cell|-1), canDrag(cell)}
   */
  constructor(container, geom, options = {}) {
    this.container = container;
    this.geom = geom;
    this.options = options;
    this.flipped = false;
    this.cellEls = new Array(geom.n);
    this.view = {pieces: new Map()};
    this.container.classList.add('board2d');
    this.build();
    this.resizeObserver = new ResizeObserver(() => {
      // only the width (and, where the host fixes it, the height) decides the layout
      const w = this.container.clientWidth;
      const h = this.options.maxHeight ? 0 : this.container.clientHeight;
      if (w === this.seenWidth && h === this.seenHeight) return;
      this.seenWidth = w;
      this.seenHeight = h;
      this.layout();
    });
    this.resizeObserver.observe(this.container);
    this.bindPointer();
  }

  setFlipped(flipped) {
    if (this.flipped === flipped) return;
    this.flipped = flipped;
    this.build();
    this.render(this.view);
  }

  build() {
    const g = this.geom;
    const levels = this.levels = el('div', {class: 'levels'});
    for (const level of g.levels) {
      const cols = level.maxX - level.minX + 1;
      const rows = level.maxY - level.minY + 1;
      const grid = el('div', {class: 'grid', style: {gridTemplateColumns: `var(--label) repeat(${cols}, var(--cell))`, gridTemplateRows: `repeat(${rows}, var(--cell)) var(--label)`}});
      const colOf = (x) => (this.flipped ? level.maxX - x : x - level.minX) + 2;
      const rowOf = (y) => (this.flipped ? y - level.minY : level.maxY - y) + 1;
      for (let y = level.minY; y <= level.maxY; y++) {
        grid.appendChild(el('span', {class: 'rank-label', style: {gridColumn: '1', gridRow: String(rowOf(y))}}, g.rankName(y)));
      }
      for (let x = level.minX; x <= level.maxX; x++) {
        grid.appendChild(el('span', {class: 'file-label', style: {gridColumn: String(colOf(x)), gridRow: String(rows + 1)}}, g.fileName(x)));
      }
      for (const i of level.cells) {
        const c = g.cells[i];
        const shade = (c.x + c.y + c.z) % 2 === 0 ? 'dark' : 'light';
        const cell = el('div', {class: `cell ${shade}`, dataset: {cell: i, name: c.name}, title: c.name, style: {gridColumn: String(colOf(c.x)), gridRow: String(rowOf(c.y))}});
        this.cellEls[i] = cell;
        grid.appendChild(cell);
      }
      levels.appendChild(el('div', {class: 'level', dataset: {level: level.name}}, el('div', {class: 'level-name'}, level.name), grid));
    }
    this.container.replaceChildren(levels);
    this.layout();
  }

  /** Picks the number of levels per row that gives the largest cells. */
  layout() {
    const g = this.geom;
    const width = this.container.clientWidth || 800;
    // on a narrow screen the page scrolls: the board may be taller than the window
    const narrow = window.matchMedia && window.matchMedia('(max-width: 900px)').matches;
    const maxHeight = this.options.maxHeight || (narrow ? width * 2.6 : Math.max(240, this.container.clientHeight || window.innerHeight * 0.7));
    const maxCell = this.options.maxCell || 64;
    const L = g.levels.length;
    const label = 0.55; // label column/row, in cells
    const options = [];
    for (let rowCount = 1; rowCount <= L; rowCount++) {
      const perRow = Math.ceil(L / rowCount);
      if (rowCount > 1 && Math.ceil(L / (rowCount - 1)) === perRow) continue;
      const rows = [];
      for (let i = 0; i < L; i += perRow) rows.push(g.levels.slice(i, i + perRow));
      // every column of the grid is as wide as its widest level
      const colWidths = [];
      g.levels.forEach((l, i) => {
        const c = i % perRow;
        colWidths[c] = Math.max(colWidths[c] || 0, l.maxX - l.minX + 1 + label);
      });
      const widest = colWidths.reduce((a, b) => a + b, 0);
      const heights = rows.map((row) => Math.max(...row.map((l) => l.maxY - l.minY + 1 + label)) + 1.1);
      const total = heights.reduce((a, b) => a + b, 0);
      const byWidth = (width - GAP * (perRow - 1) - 32) / widest;
      const byHeight = (maxHeight - GAP * (rows.length - 1) - 28) / total;
      options.push({cell: Math.min(byWidth, byHeight, maxCell), perRow, rows: rows.length});
    }
    // the seeds draw the levels in one row: keep as few rows as give cells
    // nearly as large as the largest layout
    const largest = Math.max(...options.map((o) => o.cell));
    const best = options.find((o) => o.cell >= 40 || o.cell >= largest * 0.85) || options[options.length - 1];
    const cell = Math.max(14, Math.floor(best.cell));
    this.container.style.setProperty('--cell', `${cell}px`);
    this.container.style.setProperty('--label', `${Math.round(cell * label)}px`);
    this.levels.style.gridTemplateColumns = `repeat(${best.perRow}, auto)`;
    this.levels.style.gap = `${GAP}px`;
  }

  /**
   * Draws a view: {pieces: Map cell->letters, selected, dests: Map to->{capture},
   * last: {from, to}, check: [cells], hint: {from, to}, hover: cell, lines: Set}
   */
  render(view) {
    this.view = view;
    const dests = view.dests || new Map();
    const check = new Set(view.check || []);
    const lines = view.lines || new Set();
    for (let i = 0; i < this.cellEls.length; i++) {
      const cell = this.cellEls[i];
      if (!cell) continue;
      const content = view.pieces.get(i);
      if (cell.dataset.piece !== (content || '')) {
        cell.replaceChildren();
        if (content) cell.appendChild(pieceElement(content, this.geom.variant));
        cell.dataset.piece = content || '';
      }
      const dest = dests.get(i);
      cell.classList.toggle('selected', view.selected === i);
      cell.classList.toggle('dest', !!dest);
      cell.classList.toggle('capture', !!(dest && dest.capture));
      cell.classList.toggle('last', !!view.last && (view.last.from === i || view.last.to === i));
      cell.classList.toggle('check', check.has(i));
      cell.classList.toggle('hint', !!view.hint && (view.hint.from === i || view.hint.to === i));
      cell.classList.toggle('line', lines.has(i));
      cell.classList.toggle('hovered', view.hover === i);
      cell.classList.toggle('premove', !!view.premove && (view.premove.from === i || view.premove.to === i));
      const mark = view.marks && view.marks.get(i);
      cell.classList.toggle('mark-both', mark === 'both');
      cell.classList.toggle('mark-move', mark === 'move');
      cell.classList.toggle('mark-capture', mark === 'capture');
      cell.classList.toggle('movable', !!(view.movable && view.movable.has(i)));
    }
  }

  cellAt(x, y) {
    const target = document.elementFromPoint(x, y);
    const cell = target && target.closest && target.closest('.cell');
    return cell && this.container.contains(cell) ? Number(cell.dataset.cell) : -1;
  }

  bindPointer() {
    let drag = null;
    const root = this.container;
    root.addEventListener('pointerdown', (e) => {
      if (e.button !== 0) return;
      const cellEl = e.target.closest('.cell');
      if (!cellEl) return;
      const cell = Number(cellEl.dataset.cell);
      const result = this.options.onDown ? this.options.onDown(cell, e) : null;
      if (result === 'drag' && this.view.pieces.get(cell)) {
        drag = {cell, x: e.clientX, y: e.clientY, ghost: null, pointerId: e.pointerId};
        e.preventDefault();
      }
    });
    window.addEventListener('pointermove', (e) => {
      if (drag) {
        const moved = Math.hypot(e.clientX - drag.x, e.clientY - drag.y);
        if (!drag.ghost && moved > 6) {
          const from = this.cellEls[drag.cell];
          drag.ghost = el('div', {class: 'drag-ghost'}, pieceElement(this.view.pieces.get(drag.cell), this.geom.variant));
          drag.ghost.style.width = drag.ghost.style.height = `${from.clientWidth}px`;
          drag.ghost.style.setProperty('--cell', `${from.clientWidth}px`);
          document.body.appendChild(drag.ghost);
          from.classList.add('dragging');
        }
        if (drag.ghost) {
          drag.ghost.style.left = `${e.clientX}px`;
          drag.ghost.style.top = `${e.clientY}px`;
        }
        return;
      }
      if (this.options.onHover && e.pointerType !== 'touch') {
        const cell = root.contains(e.target) && e.target.closest ? e.target.closest('.cell') : null;
        const i = cell ? Number(cell.dataset.cell) : -1;
        if (i !== this.hovered) {
          this.hovered = i;
          this.options.onHover(i);
        }
      }
    });
    const end = (e) => {
      if (!drag) return;
      const d = drag;
      drag = null;
      if (d.ghost) {
        d.ghost.remove();
        this.cellEls[d.cell]?.classList.remove('dragging');
        const to = this.cellAt(e.clientX, e.clientY);
        if (to >= 0 && to !== d.cell && this.options.onDrop) this.options.onDrop(d.cell, to);
      }
    };
    window.addEventListener('pointerup', end);
    window.addEventListener('pointercancel', () => {
      if (drag && drag.ghost) drag.ghost.remove();
      if (drag) this.cellEls[drag.cell]?.classList.remove('dragging');
      drag = null;
    });
    root.addEventListener('pointerleave', () => {
      if (this.options.onHover && this.hovered !== -1) {
        this.hovered = -1;
        this.options.onHover(-1);
      }
    });
  }
}
