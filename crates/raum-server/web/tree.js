// The analysis board's tree of variations: every node a position, reached
// from its parent by one move; a node's first child continues its line (the
// main line from the root), the others are variations. A move is the
// server's event for it (docs/api.md: coord, san, number, color, changes,
// checks); a node keeps the server's answer for its position once asked.

let nextId = 1;

export class Tree {
  constructor() {
    this.root = {id: 0, move: null, parent: null, children: [], ply: 0, state: null};
    this.byId = new Map([[0, this.root]]);
  }

  /** The child of `parent` reached by `move`: the one already there with that move, or a new last child. */
  add(parent, move) {
    const known = parent.children.find((c) => c.move.coord === move.coord);
    if (known) {
      if (!known.move.changes && move.changes) known.move = move;
      return known;
    }
    const node = {id: nextId++, move, parent, children: [], ply: parent.ply + 1, state: null};
    parent.children.push(node);
    this.byId.set(node.id, node);
    return node;
  }

  /** Adds a line of moves from `node` on; the last node reached. */
  addLine(node, moves) {
    for (const m of moves) node = this.add(node, m);
    return node;
  }

  /** The nodes from the root's first move down to `node`. */
  path(node) {
    const nodes = [];
    for (let n = node; n && n.parent; n = n.parent) nodes.push(n);
    return nodes.reverse();
  }

  /** The moves (coordinates) from the root to `node`. */
  coords(node) {
    return this.path(node).map((n) => n.move.coord);
  }

  /** The end of the line `node` is on, following first children. */
  lineEnd(node) {
    while (node.children.length) node = node.children[0];
    return node;
  }

  /** Whether `node` is on the main line. */
  onMainLine(node) {
    for (let n = node; n.parent; n = n.parent) if (n.parent.children[0] !== n) return false;
    return true;
  }

  /** Makes the line through `node` the main line: at each branch on the way up, its branch goes first. */
  promote(node) {
    for (let n = node; n.parent; n = n.parent) {
      const siblings = n.parent.children;
      const i = siblings.indexOf(n);
      if (i > 0) {
        siblings.splice(i, 1);
        siblings.unshift(n);
      }
    }
  }

  /** Removes `node` and everything after it; its parent. */
  remove(node) {
    const parent = node.parent;
    if (!parent) return node;
    parent.children = parent.children.filter((c) => c !== node);
    const drop = (n) => {
      this.byId.delete(n.id);
      n.children.forEach(drop);
    };
    drop(node);
    return parent;
  }

  /** The men on the board at `node`: the start's with each move's changes applied (null if a move's are not known yet). */
  pieces(startPieces, node) {
    const pieces = new Map(startPieces);
    for (const n of this.path(node)) {
      if (!n.move.changes) return null;
      for (const [cell, man] of n.move.changes) {
        if (man) pieces.set(cell, man);
        else pieces.delete(cell);
      }
    }
    return pieces;
  }
}

/**
 * The tree as the move list writes it: the main line, each variation in
 * brackets after the move it replaces, nested. Returns a flat list of tokens:
 * {kind: 'move', node, label} | {kind: 'open'} | {kind: 'close'}.
 */
export function treeTokens(tree, two) {
  const tokens = [];
  const label = (node, forceNumber) => {
    const m = node.move;
    const first = two ? m.color === 'white' : !node.parent.move || node.parent.move.number !== m.number;
    if (first) return `${m.number}. ${m.san}`;
    if (forceNumber) return `${m.number}${two ? '…' : '.'} ${m.san}`;
    return m.san;
  };
  // Writes the line starting at `node` (a child of its parent), variations of each move after it.
  const line = (node, forceNumber) => {
    let n = node;
    let force = forceNumber;
    while (n) {
      tokens.push({kind: 'move', node: n, label: label(n, force)});
      force = false;
      const siblings = n.parent.children;
      if (siblings[0] === n && siblings.length > 1) {
        for (const v of siblings.slice(1)) {
          tokens.push({kind: 'open'});
          line(v, true);
          tokens.push({kind: 'close'});
        }
        force = true;
      }
      n = n.children[0];
    }
  };
  if (tree.root.children.length) line(tree.root.children[0], true);
  return tokens;
}
