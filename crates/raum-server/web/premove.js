// Premoves: in an online game or against the engine, while another side is
// to move, the player picks one of their men and a cell for it. The premove
// is marked on the board and played as soon as the player's turn comes, if
// it is legal then (else dropped, with a notice). The legal moves of a
// position not reached yet are unknown, so any cell is taken as the
// destination. One premove at a time; Escape, a right click or a click off
// the board cancels it.

import {manOf} from './pieces.js';

/** Whether `content` (a cell's letters) is a man of side `me` ('white', 'blue'). */
export function ownMan(state, me, content) {
  if (!content || !me) return false;
  const man = manOf(content);
  if (man) {
    const side = (state.sides || []).find((s) => s.key === me);
    return !!side && man.side === side.letter;
  }
  const first = String(content)[0];
  return me === 'white' ? first === first.toUpperCase() : me === 'black' && first === first.toLowerCase();
}

export class Premove {
  constructor() {
    /** The man chosen, then the cell chosen for it. */
    this.from = null;
    this.to = null;
  }

  get active() {
    return this.from !== null;
  }

  get ready() {
    return this.from !== null && this.to !== null;
  }

  /** Forgets it; whether there was one. */
  clear() {
    const had = this.active;
    this.from = this.to = null;
    return had;
  }

  /**
   * A click on `cell` (-1: off the board) while premoving: picks the man,
   * then its cell; a click on another own man picks that one instead (but a
   * king's destination may be its own rook: castling), a click once both are
   * chosen starts again. `own(cell)`: whether one of the player's men stands there.
   */
  click(cell, own, isKing) {
    if (cell < 0 || this.ready) {
      const had = this.clear();
      if (cell >= 0 && own(cell)) this.from = cell;
      return had || this.active;
    }
    if (this.from === null) {
      if (own(cell)) this.from = cell;
      return this.active;
    }
    if (cell === this.from) this.from = null;
    else if (own(cell) && !isKing(this.from)) this.from = cell;
    else this.to = cell;
    return true;
  }

  /** A drag of one's man `from` to `to`. */
  drop(from, to) {
    this.from = from;
    this.to = to;
  }

  /** The legal move it stands for in `state` now (a promotion to the first piece offered, a queen if any), or null. */
  move(state) {
    const candidates = (state.legal || []).filter((m) => m.from === this.from && m.to === this.to);
    if (!candidates.length) return null;
    return candidates.find((m) => !m.promotion || /q/i.test(m.promotion)) || candidates[0];
  }
}
