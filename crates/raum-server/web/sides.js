// The sides of a game as the game page shows them, from the state's `sides`
// (docs/api.md), whatever their number: two players' boxes or, for three,
// four or six, a legend of the sides; each side's clock; the move list by
// move numbers or rounds; the result; the seat links a creator shares.

import {el, formatClock} from './util.js';

const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);
export const isMulti = (state) => !!state && state.kind === 'multi';

/** The side with this key ('blue'), or undefined. */
export function sideOf(state, key) {
  return (state.sides || []).find((s) => s.key === key);
}

/** Whether a person plays the side to move (Raum's seats move by themselves). */
export function personToMove(state) {
  const side = sideOf(state, state.side);
  return !side || side.human;
}

/** Time left on `key`'s clock now (ms), or null without clocks. */
export function clockMs(state, key, since) {
  const c = state.clock;
  if (!c) return null;
  let ms = c[`${key}_ms`];
  if (c.running === key && !state.result) ms -= performance.now() - since;
  return Math.max(0, ms);
}

function clock(state, key, since) {
  if (!state.clock) return null;
  const node = el('span', {class: 'clock', dataset: {color: key}}, formatClock(clockMs(state, key, since)));
  node.classList.toggle('running', state.clock.running === key && !state.result);
  return node;
}

const chip = (side) => el('span', {class: `chip side-${side.letter}`, title: side.name});
const thinking = () => el('span', {class: 'thinking'}, el('span', {class: 'spinner'}), 'thinking…');

/** A two-player game's box for `key`: chip, name, you, thinking, clock. */
export function playerBox(state, key, me, since) {
  const side = sideOf(state, key);
  const name = (state.names && state.names[key]) || cap(key);
  return [
    el('span', {class: `chip ${key}`, title: cap(key)}),
    el('span', {class: 'player-name', dataset: {color: key}}, name),
    me === key ? el('span', {class: 'tag'}, 'you') : null,
    side && side.thinking ? thinking() : null,
    clock(state, key, since),
  ];
}

/**
 * The legend of a game for more than two: every side in turn order with its
 * colour, letter, player, clock, whose turn it is, who is out and, at the
 * end, each side's score. `me`: the seat's side key, 'all' at one screen, or null.
 */
export function legend(state, me, since) {
  const rows = [];
  const teams = state.teams ? [...new Set(state.sides.map((s) => s.team))] : [null];
  const outWords = {resignation: 'resigned', time: 'out of time', 'no-move': 'out: no legal move'};
  for (const team of teams) {
    const members = state.sides.filter((s) => team === null || s.team === team);
    if (team !== null) rows.push(el('div', {class: 'legend-team'}, `Team ${members.map((s) => s.name).join(', ')}`));
    for (const side of members) {
      const toMove = !state.result && state.side === side.key;
      const agreed = (state.draw_agreed || []).includes(side.key);
      rows.push(
        el(
          'div',
          {class: `legend-side${toMove ? ' to-move' : ''}${side.in ? '' : ' out'}`, dataset: {side: side.key, testid: `side-${side.key}`}},
          chip(side),
          el('span', {class: 'side-letter', title: `${side.name}'s men are written ${side.letter}K, ${side.letter}P, ...`}, side.letter),
          el('span', {class: 'player-name', title: side.name}, side.player, side.player !== side.name ? el('span', {class: 'muted'}, ` · ${side.name}`) : null),
          el(
            'span',
            {class: 'side-extra'},
            me === side.key ? el('span', {class: 'tag'}, 'you') : null,
            side.thinking ? thinking() : null,
            toMove && !side.thinking ? el('span', {class: 'tag', dataset: {testid: 'to-move'}}, 'to move') : null,
            side.out ? el('span', {class: 'tag'}, outWords[side.out.reason] || 'out') : null,
            agreed && !state.result ? el('span', {class: 'tag'}, '½ agreed') : null,
            side.score !== null && side.score !== undefined ? el('span', {class: 'score'}, side.score) : null,
            side.in ? clock(state, side.key, since) : null,
          ),
        ),
      );
    }
  }
  return el('div', {class: 'legend-sides', 'aria-label': 'Sides'}, rows);
}

/** The move list, a row per move number (two sides) or round (more): each event a button that shows the game after it. */
export function moveRows(state, goTo) {
  const multi = isMulti(state);
  const rows = [];
  let row = null;
  state.moves.forEach((m, i) => {
    if (!row || m.number !== row.number) {
      row = el('li', {class: `move-row${multi ? ' multi' : ''}`}, el('span', {class: 'move-num'}, `${m.number}.`));
      row.number = m.number;
      if (!multi && m.color === 'black') row.append(' ', el('span', {class: 'move empty'}, '…'));
      rows.push(row);
    }
    const side = sideOf(state, m.color);
    const extra = (m.out || []).filter((k) => k !== m.color).map((k) => `${(sideOf(state, k) || {name: k}).name} is out`);
    const attrs = {type: 'button', class: `move${m.kind && m.kind !== 'move' ? ' event' : ''}`, dataset: {ply: i + 1}, onclick: () => goTo(i + 1)};
    if (multi) {
      attrs.dataset.side = m.color;
      attrs.title = [side ? side.name : m.color, ...extra].join(' · ');
    }
    row.append(' ', el('button', attrs, multi && side ? chip(side) : null, m.san));
  });
  return rows;
}

/** The event that made ply `ply` (from 1), numbered: "8. Cc2", "8… Cc4" (Black's), "3. 5e3-5e4". */
export function moveLabel(state, ply) {
  const m = state.moves[ply - 1];
  if (!m) return '';
  const dots = !isMulti(state) && m.color === 'black' ? '…' : '.';
  return `${m.number}${dots} ${m.san}`;
}

/** Who scored what: "White wins", "White and Black win", "Draw", "White 3/5, Black 2/5". */
export function resultLine(state) {
  const r = state.result;
  const winners = r.winners || (r.winner ? [r.winner] : []);
  if (!winners.length) return 'Draw';
  const names = winners.map((k) => (sideOf(state, k) || {name: cap(k)}).name);
  const points = r.points || [];
  const joined = names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}` : names[0];
  if (points.every((p) => p === '1' || p === '0')) return `${joined} win${names.length > 1 ? '' : 's'}`;
  return state.sides.map((s, i) => `${s.name} ${points[i]}`).join(', ');
}

/** The seat links a creator shares: every other person's seat, and the spectators'. */
export function inviteFields(state, invite, copyField, absolute) {
  const fields = [];
  if (invite.opponent) fields.push(copyField(`Opponent's link (plays ${invite.opponentColor || 'the other side'})`, absolute(invite.opponent), {testid: 'opponent-link'}));
  for (const side of invite.links ? state.sides : []) {
    const link = invite.links[side.key];
    if (!link || side.key === invite.color) continue;
    fields.push(copyField(`${side.name}'s seat link (${side.player})`, absolute(link), {testid: `seat-link-${side.key}`}));
  }
  fields.push(copyField('Spectators’ link', absolute(invite.spectate), {testid: 'spectator-link'}));
  return fields;
}

/** The cell content of a promoted man of the side to move: 'Q'/'q' (two sides), 'bQ' (more). */
export function promotedMan(state, letter) {
  const side = sideOf(state, state.side);
  if (isMulti(state)) return side ? `${side.letter}${letter.toUpperCase()}` : letter;
  return state.side === 'white' ? letter.toUpperCase() : letter.toLowerCase();
}

/** "Ann vs Bob", "Ann, Bob, Raum (1000 ms)" */
export function players(state) {
  if (!isMulti(state)) return `${state.names.white || 'White'} vs ${state.names.black || 'Black'}`;
  return state.sides.map((s) => s.player).join(', ');
}

/** The words for the side to move: 'White', 'Blue'. */
export const sideName = (state, key) => (sideOf(state, key) || {name: cap(key)}).name;

/** The move box's example: the first legal move in both notations (coordinates alone for more sides). */
export function placeholderFor(state) {
  const m = state.legal && state.legal[0];
  if (m && isMulti(state)) return `Type a move: ${m.coord}`;
  return m ? `Type a move: ${m.san} or ${m.coord}` : 'Type a move';
}
