// A board as GET /api/variants/{id} describes it: cells with coordinates and
// names. Nothing here assumes a size or a box shape.

const key = (x, y, z) => `${x},${y},${z}`;
const mod = (a, n) => ((a % n) + n) % n;

export class Geometry {
  constructor(variant) {
    this.variant = variant;
    this.cells = variant.cells;
    this.n = this.cells.length;
    this.wraps = variant.wraps || [false, false, false];
    const max = [0, 0, 0];
    const min = [Infinity, Infinity, Infinity];
    this.byKey = new Map();
    this.byName = new Map();
    this.cells.forEach((c, i) => {
      this.byKey.set(key(c.x, c.y, c.z), i);
      this.byName.set(c.name, i);
      [c.x, c.y, c.z].forEach((v, a) => {
        max[a] = Math.max(max[a], v);
        min[a] = Math.min(min[a], v);
      });
    });
    this.min = min;
    this.max = max;
    this.dims = variant.dims || [max[0] + 1, max[1] + 1, max[2] + 1];
    // levels in notation order (z = 0 first), each with its cells' bounding box
    const levels = new Map();
    this.cells.forEach((c, i) => {
      if (!levels.has(c.z)) levels.set(c.z, {z: c.z, cells: [], minX: Infinity, maxX: -Infinity, minY: Infinity, maxY: -Infinity});
      const l = levels.get(c.z);
      l.cells.push(i);
      l.minX = Math.min(l.minX, c.x);
      l.maxX = Math.max(l.maxX, c.x);
      l.minY = Math.min(l.minY, c.y);
      l.maxY = Math.max(l.maxY, c.y);
    });
    this.levels = [...levels.values()].sort((a, b) => a.z - b.z);
    for (const l of this.levels) l.name = this.levelName(l.z);
    this.start = variant.start ? this.parseBoard(variant.start) : new Map();
    this.zUp = this.guessZUp(this.start);
  }

  levelName(z) {
    return (this.variant.levels && this.variant.levels[z]) ?? String(z + 1);
  }

  fileName(x) {
    return (this.variant.files && this.variant.files[x]) ?? String.fromCharCode(97 + x);
  }

  rankName(y) {
    return (this.variant.ranks && this.variant.ranks[y]) ?? String(y + 1);
  }

  /** The cell at (x, y, z), following wrapped axes; -1 where there is none. */
  at(x, y, z) {
    const c = [x, y, z];
    for (let a = 0; a < 3; a++) if (this.wraps[a]) c[a] = mod(c[a], this.dims[a]);
    const i = this.byKey.get(key(c[0], c[1], c[2]));
    return i === undefined ? -1 : i;
  }

  /**
   * The cells on the 13 lines through a cell: from it, repeated steps of
   * (dx, dy, dz) in {-1, 0, 1}^3, stopping where no cell exists (or back at
   * the start on a wrapped axis).
   */
  lines(cell) {
    const out = new Set();
    const c = this.cells[cell];
    if (!c) return out;
    const limit = Math.max(...this.dims) + 1;
    for (let dx = -1; dx <= 1; dx++)
      for (let dy = -1; dy <= 1; dy++)
        for (let dz = -1; dz <= 1; dz++) {
          if (!dx && !dy && !dz) continue;
          for (let k = 1; k <= limit; k++) {
            const i = this.at(c.x + dx * k, c.y + dy * k, c.z + dz * k);
            if (i < 0 || i === cell) break;
            out.add(i);
          }
        }
    return out;
  }

  /**
   * The board field of a position string as a Map cell -> letters. Levels in
   * notation order separated by '/', ranks high to low by '|', existing cells
   * from the lowest file up; '(WU)' is one cell holding two men. In a
   * multi-player game (the variant lists its sides) each man is two letters,
   * its side's and its piece's: 'wK'.
   */
  parseBoard(text) {
    const multi = Array.isArray(this.variant.sides);
    const pieces = new Map();
    const board = String(text).trim().split(/\s+/)[0];
    const levelTexts = board.split('/');
    levelTexts.forEach((levelText, li) => {
      const level = this.levels[li];
      if (!level) return;
      const ranks = [...new Set(level.cells.map((i) => this.cells[i].y))].sort((a, b) => b - a);
      levelText.split('|').forEach((rankText, ri) => {
        const y = ranks[ri];
        if (y === undefined) return;
        const row = level.cells.filter((i) => this.cells[i].y === y).sort((a, b) => this.cells[a].x - this.cells[b].x);
        let f = 0;
        for (let p = 0; p < rankText.length; ) {
          const ch = rankText[p];
          if (/[0-9]/.test(ch)) {
            let q = p;
            while (q < rankText.length && /[0-9]/.test(rankText[q])) q++;
            f += parseInt(rankText.slice(p, q), 10);
            p = q;
          } else if (ch === '(') {
            const q = rankText.indexOf(')', p);
            const end = q < 0 ? rankText.length : q;
            if (row[f] !== undefined) pieces.set(row[f], rankText.slice(p + 1, end));
            f++;
            p = end + 1;
          } else {
            const width = multi ? 2 : 1;
            if (row[f] !== undefined) pieces.set(row[f], rankText.slice(p, p + width));
            f++;
            p += width;
          }
        }
      });
    });
    return pieces;
  }

  /** Pieces from a state's positions entry: [[cell, "P"], ...]. */
  static piecesOf(list) {
    const pieces = new Map();
    for (const [cell, letters] of list || []) pieces.set(cell, letters);
    return pieces;
  }

  /**
   * Whether level z = 0 is the bottom. Seeds differ (Five Up's level A is the
   * top, Raumschach's A the bottom); in both White starts at the bottom, so
   * the side of the board White's men start on is drawn lower.
   */
  guessZUp(pieces) {
    // Savard's multi-player boards number their levels from the bottom.
    if (Array.isArray(this.variant.sides)) return true;
    let w = 0, wn = 0, b = 0, bn = 0;
    for (const [cell, letters] of pieces) {
      const z = this.cells[cell].z;
      if (letters[0] === letters[0].toUpperCase()) (w += z), wn++;
      else (b += z), bn++;
    }
    if (!wn || !bn) return true;
    return !(w / wn > b / bn + 0.25);
  }

  /** Cell indices from a coordinate move ("Ec2-Ec4", "Bb4-Ab5=Q", "U:Eb1-Dd2"). */
  parseCoord(coord) {
    const body = String(coord).replace(/^[A-Za-z+]+:/, '').replace(/=.*$/, '');
    const parts = body.split(/[-x]/);
    if (parts.length < 2) return null;
    const from = this.byName.get(parts[0]);
    const to = this.byName.get(parts[parts.length - 1]);
    return from === undefined || to === undefined ? null : {from, to};
  }
}
