// What the game page shows differently for games of three, four or six sides
// (state.kind === 'multi', docs/api.md): a legend of the sides instead of two
// player boxes, the move list by rounds, each side's seat link, the result
// with a score per side. Everything else (boards, moves, live updates) is
// game.js's, as for two players.

import {el} from './util.js';

export const isMulti = (state) => !!state && state.kind === 'multi';

/** The side with this key ('blue'), or undefined. */
export function sideOf(state, key) {
  return (state.sides || []).find((s) => s.key === key);
}

/** Whether a person plays the side to move (Raum's seats move by themselves). */
export function personToMove(state) {
  const side = sideOf(state, state.side);
  return !!side && side.human;
}

const chip = (side) => el('span', {class: `chip side-${side.letter}`, title: side.name});

/**
 * The legend: every side in turn order with its colour, letter, player, whose
 * turn it is, who is out and, at the end, each side's score. `me`: the seat's
 * side key, 'both' at one screen, or null.
 */
export function legend(state, me) {
  const rows = [];
  const teams = state.teams ? [...new Set(state.sides.map((s) => s.team))] : [null];
  for (const team of teams) {
    const members = state.sides.filter((s) => team === null || s.team === team);
    if (team !== null) rows.push(el('div', {class: 'legend-team'}, `Team ${members.map((s) => s.name).join(', ')}`));
    for (const side of members) {
      const toMove = !state.result && state.side === side.key;
      const out = side.out ? (side.out.reason === 'resignation' ? 'resigned' : 'out: no legal move') : null;
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
            side.thinking ? el('span', {class: 'thinking'}, el('span', {class: 'spinner'}), 'thinking…') : null,
            toMove && !side.thinking ? el('span', {class: 'tag', dataset: {testid: 'to-move'}}, 'to move') : null,
            out ? el('span', {class: 'tag'}, out) : null,
            side.score !== null && side.score !== undefined ? el('span', {class: 'score'}, side.score) : null,
          ),
        ),
      );
    }
  }
  return el('div', {class: 'legend-sides', 'aria-label': 'Sides'}, rows);
}

/** The move list by rounds: each event a button that shows the game after it. */
export function moveRows(state, goTo) {
  const rows = [];
  let row = null;
  let round = null;
  state.moves.forEach((m, i) => {
    if (!row || m.number !== round) {
      round = m.number;
      row = el('li', {class: 'move-row multi'}, el('span', {class: 'move-num'}, `${m.number}.`));
      rows.push(row);
    }
    const side = sideOf(state, m.color);
    const extra = (m.out || []).filter((k) => !(m.kind === 'resign' && k === m.color)).map((k) => `${(sideOf(state, k) || {name: k}).name} is out`);
    row.append(
      ' ',
      el(
        'button',
        {type: 'button', class: `move${m.kind === 'resign' ? ' event' : ''}`, dataset: {ply: i + 1, side: m.color}, title: [side ? side.name : m.color, ...extra].join(' · '), onclick: () => goTo(i + 1)},
        side ? chip(side) : null,
        m.san,
      ),
    );
  });
  return rows;
}

/** Who scored what: "White and Black win", "Draw", "Green wins". */
export function resultLine(state) {
  const r = state.result;
  if (!r.winners || !r.winners.length) return 'Draw';
  const names = r.winners.map((k) => (sideOf(state, k) || {name: k}).name);
  const whole = state.sides.every((s) => s.score === '1' || s.score === '0');
  const joined = names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}` : names[0];
  if (whole) return `${joined} win${names.length > 1 ? '' : 's'}`;
  return state.sides.map((s) => `${s.name} ${s.score}`).join(', ');
}

/** The seat links a creator shares: every other person's seat, and the spectators'. */
export function inviteFields(state, invite, copyField, absolute) {
  const fields = [];
  for (const side of state.sides) {
    const link = invite.links && invite.links[side.key];
    if (!link || side.key === invite.color) continue;
    fields.push(copyField(`${side.name}'s seat link (${side.player})`, absolute(link), {testid: `seat-link-${side.key}`}));
  }
  fields.push(copyField('Spectators’ link', absolute(invite.spectate), {testid: 'spectator-link'}));
  return fields;
}

/** The cell content of a promoted man of the side to move: 'bQ'. */
export function promotedMan(state, letter) {
  const side = sideOf(state, state.side);
  return side ? `${side.letter}${letter.toUpperCase()}` : letter;
}

/** "Wing Table for four · Ann, Bob, Raum (1000 ms), Cy" */
export function players(state) {
  return state.sides.map((s) => s.player).join(', ');
}
