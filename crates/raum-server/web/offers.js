// What the players say to each other on the game page: draw offers,
// take-back requests (online), the rematch once a game is over (offered,
// followed, and linked for spectators as "Next game"), a player joining or
// leaving, and short notices (a premove dropped).

import {el, $, setChildren} from './util.js';
import {api, gamePath} from './api.js';
import {sideName} from './sides.js';

/** The draw offer standing, with Accept and Decline for a seat that has not agreed. `act(action)` answers it. */
export function renderDrawOffer(s, me, seated, act) {
  const offer = $('#draw-offer');
  if (!s.draw_offer || s.result) {
    offer.hidden = true;
    return;
  }
  offer.hidden = false;
  const agreed = s.draw_agreed || [s.draw_offer];
  const mine = agreed.includes(me);
  const canAnswer = seated && (me === 'both' || me === null || !mine);
  const also = agreed.length > 1 ? ` (agreed: ${agreed.map((k) => sideName(s, k)).join(', ')})` : '';
  setChildren(
    offer,
    el('span', {}, `${me === s.draw_offer ? 'You offered' : `${sideName(s, s.draw_offer)} offers`} a draw${also}.`),
    canAnswer && !mine ? el('button', {type: 'button', class: 'btn small primary', id: 'btn-draw-accept', onclick: () => act('accept')}, 'Accept') : null,
    canAnswer && !mine ? el('button', {type: 'button', class: 'btn small', id: 'btn-draw-decline', onclick: () => act('decline')}, 'Decline') : null,
  );
}

/** An online take-back request: the opponent accepts or declines, the asker may withdraw. `act(action)` answers it. */
export function renderTakeback(s, me, seated, act) {
  const box = $('#takeback-offer');
  const asked = s.takeback;
  if (!asked || s.result) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const mine = me === asked.by;
  const text = mine ? 'You asked to take back your last move.' : `${seated ? 'Your opponent' : sideName(s, asked.by)} asks to take back ${seated ? 'their' : 'a'} move.`;
  const button = (id, label, action, primary) => el('button', {type: 'button', class: `btn small${primary ? ' primary' : ''}`, id, onclick: () => act(action)}, label);
  setChildren(
    box,
    el('span', {}, text),
    seated && !mine ? button('btn-takeback-accept', 'Accept', 'accept', true) : null,
    seated && !mine ? button('btn-takeback-decline', 'Decline', 'decline') : null,
    mine ? button('btn-takeback-withdraw', 'Withdraw', 'decline') : null,
  );
}

/**
 * Once the game is over: a seat's Rematch button (or, once another player
 * made it, the offer to follow; once this seat made it, the way there), and
 * for spectators a link to the next game. `go()` asks the server for it and
 * goes there.
 */
export function renderRematch(s, me, seated, go) {
  const box = $('#rematch-box');
  const next = s.rematch;
  if (!s.result || (!seated && !next)) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const button = (label, primary) => el('button', {type: 'button', class: `btn small${primary ? ' primary' : ''}`, id: 'btn-rematch', onclick: go}, label);
  if (!next) {
    const what = s.kind === 'multi' ? 'each seat moves on to the next side' : 'colours swapped';
    setChildren(box, button('Rematch', true), el('span', {class: 'muted'}, ` (${what})`));
  } else if (!seated) {
    setChildren(box, el('span', {}, 'The players play again: '), el('a', {href: `/g/${encodeURIComponent(next.game)}`, id: 'next-game', class: 'btn small'}, 'Next game →'));
  } else if (next.by === me || me === 'both' || me === 'all') {
    setChildren(box, el('span', {}, 'You asked for a rematch. '), button('Go to the rematch', true));
  } else {
    const who = s.sides.length === 2 ? 'Your opponent' : sideName(s, next.by);
    setChildren(box, el('span', {}, `${who} offers a rematch. `), button('Play the rematch', true));
  }
}

/** Asks the server for the game's rematch (made now, or earlier by another player) and goes there with `seat`. */
export async function goToRematch(gameId, seat, showError) {
  showError(null);
  try {
    const next = await api('POST', gamePath(gameId, '/rematch'), {token: seat.token});
    location.assign(`/g/${encodeURIComponent(next.id)}#t=${encodeURIComponent(seat.token)}&c=${next.side || ''}`);
  } catch (e) {
    showError(e.message);
  }
}

/**
 * In an online game, tells the player when another person's seat is taken
 * (its page opened) or left: the creator of a game learns that the opponent
 * has joined.
 */
export function notePresence(old, s, mine) {
  const box = $('#presence');
  if (!box || !old || s.mode !== 'online' || !mine || !Array.isArray(s.sides)) return;
  for (const side of s.sides) {
    if (side.key === mine || !side.human) continue;
    const before = (old.sides || []).find((o) => o.key === side.key);
    if (!before || Boolean(before.present) === Boolean(side.present)) continue;
    const who = s.sides.length === 2 ? 'Your opponent' : `${side.player || side.name} (${side.name})`;
    box.textContent = side.present ? `${who} has joined.` : `${who} has left.`;
    box.hidden = false;
  }
}

let noticeTimer = null;

/** A short notice under the status line, gone after a few seconds. */
export function notice(text) {
  const box = $('#notice');
  box.textContent = text;
  box.hidden = false;
  clearTimeout(noticeTimer);
  noticeTimer = setTimeout(() => (box.hidden = true), 6000);
}
