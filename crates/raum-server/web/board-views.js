// The two views of a board a page shows, one at a time: the seeds' layers
// (2D, always made) and the 3D view (made on first use, its module loaded
// then), with the toolbar that switches them, flips the board and sets the
// 3D view's spacing, level and camera. The game page and the analysis board
// both show their board through here.
//
// The page's markup: #board-frame holding #board2d and #board3d, the toolbar's
// #view-2d, #view-3d, #flip, #controls-3d with #spacing, #isolate and
// #reset-camera, and #board-help.

import {Board2D} from './board2d.js';
import {el, $} from './util.js';

export class BoardViews {
  /**
   * options: {onCell(cell) -> 'drag' | null, onDrop(from, to), onHover(cell), onError(message),
   * on3dReady(), help: {'2d': text, '3d': text}}
   */
  constructor(geom, options) {
    this.geom = geom;
    this.options = options;
    this.mode = '2d';
    this.flipped = false;
    this.board3d = null;
    this.board2d = new Board2D($('#board2d'), geom, {
      onDown: (cell) => options.onCell(cell),
      onDrop: (from, to) => options.onDrop(from, to),
      onHover: (cell) => options.onHover(cell),
    });
  }

  /** The board showing now. */
  get current() {
    return this.mode === '3d' && this.board3d ? this.board3d : this.board2d;
  }

  render(view) {
    this.current.render(view);
  }

  setFlipped(flipped) {
    this.flipped = flipped;
    this.board2d.setFlipped(flipped);
    if (this.board3d) this.board3d.setFlipped(flipped);
  }

  /** Shows '2d' or '3d'; false if the 3D view cannot be made here (no WebGL). */
  async setView(mode) {
    if (mode === '3d' && !this.board3d && !(await this.make3d())) return false;
    this.mode = mode;
    localStorage.setItem('raum:view', mode);
    $('#board-frame').classList.toggle('view-2d', mode === '2d');
    $('#board-frame').classList.toggle('view-3d', mode === '3d');
    $('#board2d').hidden = mode !== '2d';
    $('#board3d').hidden = mode !== '3d';
    $('#controls-3d').hidden = mode !== '3d';
    $('#view-2d').setAttribute('aria-pressed', String(mode === '2d'));
    $('#view-3d').setAttribute('aria-pressed', String(mode === '3d'));
    $('#board-help').textContent = this.options.help[mode];
    if (mode === '2d') this.board2d.layout();
    if (mode === '3d') {
      this.board3d.resize();
      this.board3d.requestRender();
    }
    return true;
  }

  /** Makes the 3D view once, however often it is asked for while its module loads. */
  make3d() {
    if (!this.making3d) this.making3d = this.build3d().then((ok) => ok || ((this.making3d = null), false));
    return this.making3d;
  }

  async build3d() {
    $('#board3d').hidden = false;
    try {
      const {Board3D} = await import('./board3d.js');
      const b = (this.board3d = new Board3D($('#board3d'), this.geom, {
        onClick: (cell) => this.options.onCell(cell),
        onHover: (cell) => this.options.onHover(cell),
        onDrop: (from, to) => this.options.onDrop(from, to),
      }));
      b.onRendered = () => {
        if (!b.announced) {
          b.announced = true;
          if (this.options.on3dReady) this.options.on3dReady();
        }
      };
      b.setFlipped(this.flipped);
      this.bind3dControls();
      return true;
    } catch (e) {
      console.error(e);
      $('#board3d').hidden = true;
      this.options.onError(`The 3D view needs WebGL, which this browser does not offer (${e.message}).`);
      return false;
    }
  }

  bind3dControls() {
    const b = this.board3d;
    const spacing = $('#spacing');
    spacing.value = String(b.spacing);
    spacing.addEventListener('input', () => b.setSpacing(Number(spacing.value)));
    const stacks = $('#stacks');
    stacks.value = localStorage.getItem('raum:stacks') || 'auto';
    b.setStacks(stacks.value);
    stacks.addEventListener('change', () => {
      localStorage.setItem('raum:stacks', stacks.value);
      b.setStacks(stacks.value);
    });
    const isolate = $('#isolate');
    for (const level of this.geom.levels) isolate.appendChild(el('option', {value: String(level.z)}, `Level ${level.name}`));
    isolate.addEventListener('change', () => b.setIsolated(isolate.value === 'all' ? null : Number(isolate.value)));
    $('#reset-camera').addEventListener('click', () => {
      spacing.value = String(b.defaultSpacing);
      b.setSpacing(b.defaultSpacing);
      b.resetCamera();
    });
  }
}

/**
 * What a click on `cell` does, given the `legal` moves and the cell
 * `selected` (or null): `{play: [from, to]}` plays a move (a click on a
 * destination of the selected man); else `{select}` is the cell selected
 * after it (a man that can move, or none; a second click on it lets go),
 * and `drag` says whether a drag may start there.
 */
export function clickOn(legal, selected, cell) {
  if (selected !== null && selected !== cell && legal.some((m) => m.from === selected && m.to === cell)) return {play: [selected, cell]};
  const movable = legal.some((m) => m.from === cell);
  return {select: movable && selected !== cell ? cell : null, drag: movable};
}

/** The view a page opens with: the one last chosen. */
export const savedView = () => (localStorage.getItem('raum:view') === '3d' ? '3d' : '2d');
