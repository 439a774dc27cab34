// The 3D view: each level a plate of translucent tiles, stacked; pieces are
// sprites that always face the camera. A tall board's levels stand in
// several stacks side by side (the lowest levels on the left), as many as
// make its cells largest in the frame. The camera frames the whole board on
// load and whenever the frame or the layout changes, until the player moves
// it. Dragging a movable piece moves it; dragging anything else orbits,
// the wheel zooms; a click (a press and release without moving) selects the
// cell under the pointer.

import * as THREE from './vendor/three/three.module.min.js';
import {OrbitControls} from './vendor/three/OrbitControls.js';
import {pieceCanvas, FONT_STACK} from './pieces.js';

const COLORS = {
  light: new THREE.Color(0xf0d9b5),
  dark: new THREE.Color(0xb58863),
  selected: new THREE.Color(0x4cc96b),
  last: new THREE.Color(0xd9e36a),
  check: new THREE.Color(0xff3b3b),
  hint: new THREE.Color(0x59a8ff),
  line: new THREE.Color(0x7fb2f0),
  hovered: new THREE.Color(0x2f7fe0),
  markBoth: new THREE.Color(0x3a7bd5),
  markMove: new THREE.Color(0x5fbf5f),
  markCapture: new THREE.Color(0xe05a47),
  premove: new THREE.Color(0xb85c9e),
};

const PIECE_SIZE = 0.8; // sprite height in cells
const PIECE_ANCHOR = 0.18; // the sprite's point that stands on the cell, from its bottom
const PIECE_LIFT = 0.05;
const MIN_PIECE_PX = 26; // a piece drawn smaller is hard to tell from another
const MAX_PIECE_GROWTH = 1.6;
const STACK_GAP = 2.4; // cells between two stacks (room for the level names)
const MAX_STACKS = 4;

function textCanvas(text, {size = 128, color = '#d8d4cc', font = 'bold'} = {}) {
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = size;
  const g = canvas.getContext('2d');
  g.font = `${font} ${Math.round(size * (text.length > 2 ? 0.42 : 0.6))}px ${FONT_STACK}`;
  g.textAlign = 'center';
  g.textBaseline = 'middle';
  g.fillStyle = color;
  g.fillText(text, size / 2, size / 2);
  return canvas;
}

function discCanvas(ring) {
  const size = 64;
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = size;
  const g = canvas.getContext('2d');
  g.beginPath();
  if (ring) {
    g.arc(size / 2, size / 2, size * 0.42, 0, Math.PI * 2);
    g.lineWidth = size * 0.09;
    g.strokeStyle = 'rgba(46, 190, 90, 0.95)';
    g.stroke();
  } else {
    g.arc(size / 2, size / 2, size * 0.3, 0, Math.PI * 2);
    g.fillStyle = 'rgba(46, 190, 90, 0.95)';
    g.fill();
    g.lineWidth = size * 0.05;
    g.strokeStyle = 'rgba(10, 60, 25, 0.9)';
    g.stroke();
  }
  return canvas;
}

function texture(canvas) {
  const t = new THREE.CanvasTexture(canvas);
  t.colorSpace = THREE.SRGBColorSpace;
  t.anisotropy = 4;
  return t;
}

export class Board3D {
  /** options: {onClick(cell), onHover(cell | -1), onDrop(from, to)} */
  constructor(container, geom, options = {}) {
    this.container = container;
    this.geom = geom;
    this.options = options;
    this.flipped = false;
    this.isolated = null; // a level's z, or null for all
    this.view = {pieces: new Map()};
    this.sprites = new Map(); // cell -> sprite
    this.materials = new Map(); // content -> SpriteMaterial

    const renderer = (this.renderer = new THREE.WebGLRenderer({antialias: true, preserveDrawingBuffer: true}));
    renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 2));
    renderer.domElement.className = 'board3d-canvas';
    container.classList.add('board3d');
    container.appendChild(renderer.domElement);
    this.tooltip = document.createElement('div');
    this.tooltip.className = 'board3d-tip';
    this.tooltip.hidden = true;
    container.appendChild(this.tooltip);

    this.scene = new THREE.Scene();
    this.scene.background = new THREE.Color(0x25272b);
    this.camera = new THREE.PerspectiveCamera(26, 1, 0.1, 4000);
    this.board = new THREE.Group();
    this.scene.add(this.board);

    const g = geom;
    this.levelCount = g.levels.length;
    this.levelIndex = new Map(g.levels.map((l, i) => [l.z, g.zUp ? i : g.levels.length - 1 - i]));
    this.cx = (g.min[0] + g.max[0]) / 2;
    this.cy = (g.min[1] + g.max[1]) / 2;
    const depth = g.max[1] - g.min[1] + 1;
    // spacing so that, seen from the default elevation, plates do not overlap
    this.elevation = THREE.MathUtils.degToRad(36);
    this.azimuth = THREE.MathUtils.degToRad(-28);
    this.spacing = this.defaultSpacing = Math.round(Math.min(6, Math.max(2, depth * Math.tan(this.elevation) * 0.92 + 0.5)) * 10) / 10;
    // stacks side by side stand apart by more than the plates' slant (the view is turned)
    this.stackGap = STACK_GAP + depth * 0.45;

    const tileGeometry = new THREE.BoxGeometry(0.94, 0.06, 0.94);
    const tileMaterial = new THREE.MeshBasicMaterial({transparent: true, opacity: 0.62, depthWrite: false});
    this.tiles = new THREE.InstancedMesh(tileGeometry, tileMaterial, g.n);
    this.tiles.renderOrder = 0;
    this.board.add(this.tiles);
    this.baseColors = g.cells.map((c) => ((c.x + c.y + c.z) % 2 === 0 ? COLORS.dark : COLORS.light));
    g.cells.forEach((_, i) => this.tiles.setColorAt(i, this.baseColors[i]));

    this.edges = new THREE.LineSegments(
      new THREE.BufferGeometry(),
      new THREE.LineBasicMaterial({color: 0x0b0b0b, transparent: true, opacity: 0.45, depthWrite: false}),
    );
    this.edges.renderOrder = 1;
    this.board.add(this.edges);

    this.labels = g.levels.map((l) => {
      const s = new THREE.Sprite(new THREE.SpriteMaterial({map: texture(textCanvas(l.name)), transparent: true, depthWrite: false}));
      s.scale.set(1.1, 1.1, 1);
      s.userData.z = l.z;
      s.renderOrder = 3;
      this.board.add(s);
      return s;
    });

    this.dotMaterial = new THREE.SpriteMaterial({map: texture(discCanvas(false)), transparent: true, depthTest: false, depthWrite: false});
    this.ringMaterial = new THREE.SpriteMaterial({map: texture(discCanvas(true)), transparent: true, depthTest: false, depthWrite: false});
    this.markers = new THREE.Group();
    this.board.add(this.markers);
    // the last move as an arrow from its cell to its destination
    this.arrowMaterial = new THREE.MeshBasicMaterial({color: 0x9bc700, transparent: true, opacity: 0.85, depthTest: false});
    this.arrow = new THREE.Group();
    this.arrow.renderOrder = 5;
    this.board.add(this.arrow);

    this.controls = new OrbitControls(this.camera, renderer.domElement);
    this.controls.enableDamping = false;
    this.controls.screenSpacePanning = true;
    this.controls.addEventListener('change', () => {
      this.scalePieces();
      this.requestRender();
    });
    // once the player turns, zooms or pans, the camera is theirs until "Reset view"
    this.controls.addEventListener('start', () => (this.userMoved = true));
    this.stacksChoice = 'auto';
    this.dragging = -1;
    this.dragTarget = -1;
    this.stacks = 1;

    this.raycaster = new THREE.Raycaster();
    this.bindPointer();
    this.layoutCells();
    this.resizeObserver = new ResizeObserver(() => this.resize());
    this.resizeObserver.observe(container);
    this.resize();
    this.resetCamera();
  }

  /** The level's height index (0 = bottom plate). */
  heightOf(z) {
    return this.levelIndex.get(z) ?? 0;
  }

  /** Where level `z`'s plate stands: its stack's x offset and its height. */
  levelPlace(z, stacks = this.stacks) {
    const perStack = Math.ceil(this.levelCount / stacks);
    const h = this.heightOf(z);
    const stack = Math.floor(h / perStack);
    const row = h % perStack;
    const width = this.geom.max[0] - this.geom.min[0] + 1;
    return {x: (stack - (stacks - 1) / 2) * (width + this.stackGap), y: (row - (perStack - 1) / 2) * this.spacing};
  }

  cellPosition(i, lift = 0) {
    const c = this.geom.cells[i];
    const place = this.levelPlace(c.z);
    return new THREE.Vector3(c.x - this.cx + place.x, place.y + lift, -(c.y - this.cy));
  }

  visibleCell(i) {
    return this.isolated === null || this.geom.cells[i].z === this.isolated;
  }

  layoutCells() {
    const g = this.geom;
    const m = new THREE.Matrix4();
    const zero = new THREE.Matrix4().makeScale(0, 0, 0);
    const edge = [];
    const h = 0.031;
    for (let i = 0; i < g.n; i++) {
      if (!this.visibleCell(i)) {
        this.tiles.setMatrixAt(i, zero);
        continue;
      }
      const p = this.cellPosition(i);
      m.makeTranslation(p.x, p.y, p.z);
      this.tiles.setMatrixAt(i, m);
      const a = 0.47;
      const corners = [[-a, -a], [a, -a], [a, a], [-a, a]];
      for (let k = 0; k < 4; k++) {
        const [x1, z1] = corners[k];
        const [x2, z2] = corners[(k + 1) % 4];
        edge.push(p.x + x1, p.y + h, p.z + z1, p.x + x2, p.y + h, p.z + z2);
      }
    }
    this.tiles.instanceMatrix.needsUpdate = true;
    this.tiles.computeBoundingSphere();
    this.edges.geometry.dispose();
    const eg = new THREE.BufferGeometry();
    eg.setAttribute('position', new THREE.Float32BufferAttribute(edge, 3));
    this.edges.geometry = eg;
    for (const label of this.labels) {
      const level = g.levels.find((l) => l.z === label.userData.z);
      const place = this.levelPlace(level.z);
      label.position.set(level.minX - this.cx - 1.3 + place.x, place.y + 0.2, -((level.minY + level.maxY) / 2 - this.cy));
      label.visible = this.isolated === null || this.isolated === level.z;
    }
    for (const [cell, sprite] of this.sprites) {
      sprite.position.copy(this.cellPosition(cell, PIECE_LIFT));
      sprite.visible = this.visibleCell(cell);
    }
    this.drawMarkers();
    this.requestRender();
  }

  setSpacing(spacing) {
    this.spacing = spacing;
    this.layoutCells();
    if (!this.userMoved) this.resetCamera();
  }

  setIsolated(z) {
    this.isolated = z;
    this.layoutCells();
    this.resetCamera();
  }

  /** Stacks side by side: a number, or 'auto' (as many as make the cells largest in the frame). */
  setStacks(choice) {
    this.stacksChoice = choice;
    this.resetCamera();
  }

  setFlipped(flipped) {
    if (this.flipped === flipped) return;
    this.flipped = flipped;
    this.board.rotation.y = flipped ? Math.PI : 0;
    this.board.updateMatrixWorld(true);
    this.requestRender();
  }

  /**
   * The camera's distance that frames the board laid out in `stacks`
   * stacks (every corner of every plate in view), and where it looks.
   */
  fit(stacks) {
    const g = this.geom;
    const hd = (g.max[1] - g.min[1]) / 2 + 0.8;
    const corners = [];
    const target = new THREE.Vector3(0, 0, 0);
    const shown = this.isolated === null ? g.levels : g.levels.filter((l) => l.z === this.isolated);
    for (const level of shown) {
      const place = this.levelPlace(level.z, stacks);
      for (const x of [level.minX - this.cx - 1.9, level.maxX - this.cx + 0.6]) for (const y of [-0.6, 0.9]) for (const z of [-hd, hd]) corners.push(new THREE.Vector3(x + place.x, y + place.y, z));
    }
    if (this.isolated !== null) {
      const place = this.levelPlace(this.isolated, stacks);
      target.set(place.x, place.y, 0);
    }
    // the board turned half round: so are its corners and the level looked at
    if (this.flipped) for (const v of [...corners, target]) v.set(-v.x, v.y, -v.z);
    const az = this.azimuth;
    const dir = new THREE.Vector3(Math.sin(az) * Math.cos(this.elevation), Math.sin(this.elevation), Math.cos(az) * Math.cos(this.elevation));
    const camera = this.camera;
    let dist = 60;
    const look = () => {
      camera.position.copy(target).addScaledVector(dir, dist);
      camera.lookAt(target);
      camera.updateMatrixWorld(true);
      const box = {x0: Infinity, x1: -Infinity, y0: Infinity, y1: -Infinity};
      for (const c of corners) {
        const v = c.clone().project(camera);
        box.x0 = Math.min(box.x0, v.x);
        box.x1 = Math.max(box.x1, v.x);
        box.y0 = Math.min(box.y0, v.y);
        box.y1 = Math.max(box.y1, v.y);
      }
      return box;
    };
    // Back off until every corner is in view, then look at the middle of what
    // is seen (perspective puts it off the layout's centre), and again.
    for (let round = 0; round < 3; round++) {
      for (let k = 0; k < 10; k++) {
        const b = look();
        const worst = Math.max(-b.x0, b.x1, -b.y0, b.y1);
        dist *= 0.35 + 0.65 * (worst / 0.94);
      }
      const b = look();
      const halfHeight = dist * Math.tan(THREE.MathUtils.degToRad(camera.fov / 2));
      const right = new THREE.Vector3().setFromMatrixColumn(camera.matrixWorld, 0);
      const up = new THREE.Vector3().setFromMatrixColumn(camera.matrixWorld, 1);
      target.addScaledVector(right, ((b.x0 + b.x1) / 2) * halfHeight * camera.aspect);
      target.addScaledVector(up, ((b.y0 + b.y1) / 2) * halfHeight);
    }
    return {dist, dir, target};
  }

  /**
   * Pieces stay readable on small cells: a sprite is drawn at least
   * MIN_PIECE_PX tall where that takes no more than MAX_PIECE_GROWTH times its
   * size (so on a 512-cell board a piece grows, and still sits on its cell).
   */
  scalePieces() {
    const a = new THREE.Vector3(0, 0, 0).project(this.camera);
    const b = new THREE.Vector3(0, 1, 0).project(this.camera);
    const perUnit = (Math.abs(b.y - a.y) / 2) * (this.height || 1) || 1;
    const scale = Math.min(MAX_PIECE_GROWTH, Math.max(1, MIN_PIECE_PX / (perUnit * PIECE_SIZE)));
    if (Math.abs(scale - (this.pieceScale || 1)) < 0.01) return;
    this.pieceScale = scale;
    for (const sprite of this.sprites.values()) sprite.scale.set(PIECE_SIZE * scale, PIECE_SIZE * scale, 1);
  }

  /** Lays the board out (the stacks chosen, or the best number) and frames it. */
  resetCamera() {
    const most = Math.min(MAX_STACKS, this.levelCount);
    const choices = this.stacksChoice === 'auto' ? Array.from({length: most}, (_, i) => i + 1) : [Math.min(most, Number(this.stacksChoice) || 1)];
    let best = null;
    for (const stacks of choices) {
      const f = this.fit(stacks);
      // a stack more must win by a margin: one tall stack reads best as a stack
      if (!best || f.dist < best.fit.dist * 0.92) best = {stacks, fit: f};
    }
    if (best.stacks !== this.stacks) {
      this.stacks = best.stacks;
      this.layoutCells();
    }
    const {dist, dir, target} = best.fit;
    this.camera.position.copy(target).addScaledVector(dir, dist);
    this.controls.target.copy(target);
    this.controls.update();
    this.scalePieces();
    this.userMoved = false;
    this.requestRender();
  }

  resize() {
    const w = this.container.clientWidth;
    const h = this.container.clientHeight;
    if (!w || !h) return;
    if (w === this.width && h === this.height) return;
    const first = !this.width;
    this.width = w;
    this.height = h;
    this.renderer.setSize(w, h, true);
    this.camera.aspect = w / h;
    this.camera.updateProjectionMatrix();
    if (first || !this.userMoved) this.resetCamera();
    this.requestRender();
  }

  requestRender() {
    if (this.pending) return;
    this.pending = true;
    requestAnimationFrame(() => {
      this.pending = false;
      this.renderNow();
    });
  }

  renderNow() {
    this.resize();
    if (!this.width) return;
    this.renderer.render(this.scene, this.camera);
    this.rendered = true;
    if (this.onRendered) this.onRendered();
  }

  materialFor(content) {
    if (!this.materials.has(content)) {
      this.materials.set(content, new THREE.SpriteMaterial({map: texture(pieceCanvas(content)), transparent: true, alphaTest: 0.04}));
    }
    return this.materials.get(content);
  }

  /** Same view object as Board2D.render. */
  render(view) {
    this.view = view;
    // pieces
    for (const [cell, sprite] of this.sprites) {
      if (view.pieces.get(cell) !== sprite.userData.content) {
        this.board.remove(sprite);
        this.sprites.delete(cell);
      }
    }
    for (const [cell, content] of view.pieces) {
      if (this.sprites.has(cell)) continue;
      const sprite = new THREE.Sprite(this.materialFor(content));
      sprite.userData = {cell, content};
      const size = PIECE_SIZE * (this.pieceScale || 1);
      sprite.scale.set(size, size, 1);
      sprite.center.set(0.5, PIECE_ANCHOR);
      sprite.renderOrder = 2;
      sprite.position.copy(this.cellPosition(cell, PIECE_LIFT));
      sprite.visible = this.visibleCell(cell);
      this.board.add(sprite);
      this.sprites.set(cell, sprite);
    }
    // tiles
    const check = new Set(view.check || []);
    const lines = view.lines || new Set();
    for (let i = 0; i < this.geom.n; i++) {
      let color = this.baseColors[i];
      const mark = view.marks && view.marks.get(i);
      if (lines.has(i)) color = COLORS.line;
      if (mark === 'both') color = COLORS.markBoth;
      else if (mark === 'move') color = COLORS.markMove;
      else if (mark === 'capture') color = COLORS.markCapture;
      if (view.last && (view.last.from === i || view.last.to === i)) color = COLORS.last;
      if (view.hint && (view.hint.from === i || view.hint.to === i)) color = COLORS.hint;
      if (check.has(i)) color = COLORS.check;
      if (view.selected === i) color = COLORS.selected;
      if (view.premove && (view.premove.from === i || view.premove.to === i)) color = COLORS.premove;
      if (view.hover === i) color = COLORS.hovered;
      this.tiles.setColorAt(i, color);
    }
    this.tiles.instanceColor.needsUpdate = true;
    this.drawMarkers();
    this.requestRender();
  }

  /**
   * What the tests measure: the stacks, the box of every shown cell's
   * corners in canvas pixels, the canvas's size, the smallest piece's height
   * in pixels, and whether the camera is the player's.
   */
  metrics() {
    this.board.updateMatrixWorld(true);
    this.camera.updateMatrixWorld(true);
    const box = {left: Infinity, right: -Infinity, top: Infinity, bottom: -Infinity};
    const v = new THREE.Vector3();
    for (let i = 0; i < this.geom.n; i++) {
      if (!this.visibleCell(i)) continue;
      for (const [dx, dz] of [[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]]) {
        v.copy(this.cellPosition(i)).add(new THREE.Vector3(dx, 0, dz)).applyMatrix4(this.board.matrixWorld).project(this.camera);
        const x = ((v.x + 1) / 2) * this.width;
        const y = ((1 - v.y) / 2) * this.height;
        box.left = Math.min(box.left, x);
        box.right = Math.max(box.right, x);
        box.top = Math.min(box.top, y);
        box.bottom = Math.max(box.bottom, y);
      }
    }
    let piece = Infinity;
    for (const [cell, sprite] of this.sprites) {
      if (!sprite.visible) continue;
      const p = this.cellPosition(cell).applyMatrix4(this.board.matrixWorld);
      const a = p.clone().project(this.camera);
      const b = p.clone().add(new THREE.Vector3(0, sprite.scale.y, 0)).project(this.camera);
      piece = Math.min(piece, (Math.abs(b.y - a.y) / 2) * this.height);
    }
    return {stacks: this.stacks, box, width: this.width, height: this.height, piecePx: piece, userMoved: !!this.userMoved, camera: this.camera.position.toArray()};
  }

  /** Each shown cell's tile colour, as its key in COLORS ('line', 'last', ...), by cell name: for the tests. */
  tileColors() {
    const keys = new Map(Object.entries(COLORS).map(([key, color]) => [color.getHex(), key]));
    const color = new THREE.Color();
    const out = {};
    for (let i = 0; i < this.geom.n; i++) {
      if (!this.visibleCell(i)) continue;
      this.tiles.getColorAt(i, color);
      out[this.geom.cells[i].name] = keys.get(color.getHex()) || `#${color.getHexString()}`;
    }
    return out;
  }

  drawArrow() {
    for (const child of this.arrow.children) child.geometry.dispose();
    this.arrow.clear();
    const last = this.view.last;
    if (!last || last.from === last.to || !this.visibleCell(last.from) || !this.visibleCell(last.to)) return;
    const a = this.cellPosition(last.from, 0.12);
    const b = this.cellPosition(last.to, 0.12);
    const dir = b.clone().sub(a);
    const length = dir.length();
    const head = Math.min(0.35, length * 0.4);
    const shaft = new THREE.Mesh(new THREE.CylinderGeometry(0.045, 0.045, length - head, 8), this.arrowMaterial);
    const cone = new THREE.Mesh(new THREE.ConeGeometry(0.14, head, 12), this.arrowMaterial);
    const up = new THREE.Vector3(0, 1, 0);
    const q = new THREE.Quaternion().setFromUnitVectors(up, dir.clone().normalize());
    shaft.quaternion.copy(q);
    cone.quaternion.copy(q);
    shaft.position.copy(a).addScaledVector(dir, (length - head) / 2 / length);
    cone.position.copy(a).addScaledVector(dir, (length - head / 2) / length);
    shaft.renderOrder = cone.renderOrder = 5;
    this.arrow.add(shaft, cone);
  }

  drawMarkers() {
    this.drawArrow();
    this.markers.clear();
    const dests = this.view.dests || new Map();
    for (const [cell, dest] of dests) {
      if (!this.visibleCell(cell)) continue;
      const capture = dest.capture || this.view.pieces.has(cell);
      const s = new THREE.Sprite(capture ? this.ringMaterial : this.dotMaterial);
      s.position.copy(this.cellPosition(cell, capture ? PIECE_LIFT + PIECE_SIZE * (0.5 - PIECE_ANCHOR) : 0.12));
      const size = capture ? PIECE_SIZE * 1.1 : 0.4;
      s.scale.set(size, size, 1);
      s.renderOrder = 4;
      s.userData.cell = cell;
      this.markers.add(s);
    }
  }

  /** The cell under a point given in normalized device coordinates, or -1. */
  pickNdc(ndc) {
    this.board.updateMatrixWorld(true);
    this.raycaster.setFromCamera(ndc, this.camera);
    const targets = [this.tiles];
    for (const [cell, s] of this.sprites) if (s.visible && cell !== this.dragging) targets.push(s);
    const hits = this.raycaster.intersectObjects(targets, false);
    for (const hit of hits) {
      if (hit.object === this.tiles) {
        if (hit.instanceId !== undefined && this.visibleCell(hit.instanceId)) return hit.instanceId;
      } else if (hit.object.visible) {
        return hit.object.userData.cell;
      }
    }
    return -1;
  }

  pickClient(clientX, clientY) {
    const rect = this.renderer.domElement.getBoundingClientRect();
    const ndc = new THREE.Vector2(((clientX - rect.left) / rect.width) * 2 - 1, -((clientY - rect.top) / rect.height) * 2 + 1);
    return this.pickNdc(ndc);
  }

  /**
   * Page (viewport) coordinates of a point inside the cell that a click
   * selects: the cell's centre, or, where another piece hides it, the first
   * point of the cell or its piece that picks it.
   */
  project(cell) {
    this.board.updateMatrixWorld(true);
    this.camera.updateMatrixWorld(true);
    const rect = this.renderer.domElement.getBoundingClientRect();
    const toPage = (world) => {
      const v = world.clone().applyMatrix4(this.board.matrixWorld).project(this.camera);
      return {ndc: new THREE.Vector2(v.x, v.y), x: rect.left + ((v.x + 1) / 2) * rect.width, y: rect.top + ((1 - v.y) / 2) * rect.height};
    };
    const candidates = [this.cellPosition(cell, 0.03)];
    const mid = PIECE_LIFT + PIECE_SIZE * (0.5 - PIECE_ANCHOR);
    if (this.sprites.has(cell)) candidates.unshift(this.cellPosition(cell, mid), this.cellPosition(cell, mid * 0.6));
    for (const dx of [0, -0.3, 0.3]) for (const dz of [0, -0.3, 0.3]) candidates.push(this.cellPosition(cell, 0.03).add(new THREE.Vector3(dx, 0, dz)));
    for (const dy of [0.6, 0.7]) candidates.push(this.cellPosition(cell, dy));
    const first = toPage(candidates[0]);
    for (const c of candidates) {
      const p = toPage(c);
      if (p.x < rect.left || p.x > rect.right || p.y < rect.top || p.y > rect.bottom) continue;
      if (this.pickNdc(p.ndc) === cell) return {x: p.x, y: p.y};
    }
    return {x: first.x, y: first.y, hidden: true};
  }

  bindPointer() {
    const canvas = this.renderer.domElement;
    let down = null;
    // Heard before the orbit controls (the container's capture phase): a press
    // on a movable piece drags the piece, and the camera stays still.
    this.container.addEventListener(
      'pointerdown',
      (e) => {
        down = {x: e.clientX, y: e.clientY, button: e.button, from: -1, moved: false};
        if (e.button !== 0 || e.target !== canvas || !this.options.onDrop) return;
        const cell = this.pickClient(e.clientX, e.clientY);
        if (cell >= 0 && this.view.movable && this.view.movable.has(cell) && this.sprites.has(cell)) {
          down.from = cell;
          this.controls.enabled = false;
          if (canvas.setPointerCapture) canvas.setPointerCapture(e.pointerId);
        }
      },
      {capture: true},
    );
    canvas.addEventListener('pointerup', (e) => {
      if (!down) return;
      const {from, button} = down;
      const moved = Math.hypot(e.clientX - down.x, e.clientY - down.y) > 5;
      down = null;
      if (from >= 0) {
        this.controls.enabled = true;
        const target = this.dragTarget;
        this.endDrag(from);
        if (moved) {
          if (target >= 0 && target !== from) this.options.onDrop(from, target);
          return;
        }
      }
      if (moved || button !== 0) return;
      const cell = this.pickClient(e.clientX, e.clientY);
      if (this.options.onClick) this.options.onClick(cell);
    });
    canvas.addEventListener('pointermove', (e) => {
      if (down && down.from >= 0) {
        this.dragTo(down, e);
        return;
      }
      if (e.buttons) return;
      const cell = this.pickClient(e.clientX, e.clientY);
      if (cell >= 0) {
        const rect = this.container.getBoundingClientRect();
        this.tooltip.textContent = this.geom.cells[cell].name;
        this.tooltip.style.left = `${e.clientX - rect.left + 14}px`;
        this.tooltip.style.top = `${e.clientY - rect.top + 10}px`;
        this.tooltip.hidden = false;
      } else {
        this.tooltip.hidden = true;
      }
      if (cell !== this.hovered) {
        this.hovered = cell;
        if (this.options.onHover) this.options.onHover(cell);
      }
    });
    canvas.addEventListener('pointerleave', () => {
      this.tooltip.hidden = true;
      if (this.hovered !== -1) {
        this.hovered = -1;
        if (this.options.onHover) this.options.onHover(-1);
      }
    });
  }

  /** A piece dragged from `down.from`: selected once it moves, shown over the cell under the pointer. */
  dragTo(down, e) {
    if (!down.moved) {
      if (Math.hypot(e.clientX - down.x, e.clientY - down.y) <= 5) return;
      down.moved = true;
      this.dragging = down.from;
      if (this.view.selected !== down.from && this.options.onClick) this.options.onClick(down.from);
    }
    const target = this.pickClient(e.clientX, e.clientY);
    this.dragTarget = target;
    const sprite = this.sprites.get(down.from);
    if (sprite) sprite.position.copy(this.cellPosition(target >= 0 ? target : down.from, PIECE_LIFT + 0.25));
    if (target !== this.hovered) {
      this.hovered = target;
      if (this.options.onHover) this.options.onHover(target);
    }
    this.requestRender();
  }

  /** The drag is over: the piece back on its cell (a move played redraws it where it goes). */
  endDrag(from) {
    this.dragging = -1;
    this.dragTarget = -1;
    const sprite = this.sprites.get(from);
    if (sprite) sprite.position.copy(this.cellPosition(from, PIECE_LIFT));
    this.requestRender();
  }
}
