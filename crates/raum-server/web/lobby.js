// The lobby: a new-game form and the list of games.

import {api, getVariants, saveSeat, saveInvite, seatLink} from './api.js';
import {el, $, setChildren, ago} from './util.js';

const other = (c) => (c === 'white' ? 'black' : 'white');
let variants = [];

const radio = (name) => document.querySelector(`input[name="${name}"]:checked`)?.value;

function updateForm() {
  const mode = radio('mode');
  $('#engine-options').hidden = mode !== 'engine';
  $('#color-options').hidden = mode === 'local';
  $('#clock-options').hidden = !$('#use-clock').checked;
  const start = radio('start');
  const text = $('#start-text');
  text.hidden = start === 'start';
  text.placeholder = start === 'fen' ? 'rwkgr|ppppp|5|5|5/… w Kk - 0 1' : '[Variant "five-up"]\n\n1. P-Cc2 P-Cc4 *';
  const v = variants.find((x) => x.id === $('#variant').value);
  $('#variant-rules').href = v ? `/rules/${encodeURIComponent(v.id)}` : '#';
  $('#variant-note').textContent = v ? `${v.cells} cells${v.reconstruction ? ' · reconstruction' : ''}` : '';
}

async function create(event) {
  event.preventDefault();
  const error = $('#create-error');
  error.hidden = true;
  const mode = radio('mode');
  let color = radio('color');
  if (color === 'random') color = Math.random() < 0.5 ? 'white' : 'black';
  const body = {variant: $('#variant').value, mode};
  const names = {};
  const white = $('#name-white').value.trim();
  const black = $('#name-black').value.trim();
  if (white) names.white = white;
  if (black) names.black = black;
  if (Object.keys(names).length) body.names = names;
  if (mode === 'engine') {
    body.engine = {color: other(color)};
    if (radio('strength') === 'movetime') body.engine.movetime = Math.max(1, Math.round(Number($('#movetime').value) || 1000));
    else body.engine.level = Number($('#level').value);
  }
  if ($('#use-clock').checked) {
    body.clock = {
      initial_ms: Math.round(Number($('#clock-minutes').value) * 60000),
      increment_ms: Math.round(Number($('#clock-increment').value) * 1000),
    };
  }
  const start = radio('start');
  const text = $('#start-text').value.trim();
  if (start === 'fen' && text) body.fen = text;
  if (start === 'pgn' && text) body.pgn = text;
  const button = $('#create');
  button.disabled = true;
  try {
    const game = await api('POST', '/api/games', body);
    const id = game.id;
    const tokens = game.tokens || {};
    const links = game.links || {};
    let seatColor = mode === 'local' ? null : color;
    const token = mode === 'local' ? tokens.white || tokens.black : tokens[seatColor];
    saveSeat(id, {token, color: seatColor});
    if (mode === 'online') {
      saveInvite(id, {color: seatColor, opponentColor: other(seatColor), opponent: seatLink(links[other(seatColor)], other(seatColor)), spectate: links.spectate || `/g/${id}`});
    }
    const own = (mode === 'local' ? links.white : links[seatColor]) || `/g/${encodeURIComponent(id)}#t=${encodeURIComponent(token)}`;
    location.href = mode === 'local' ? own : seatLink(own, seatColor);
  } catch (e) {
    error.hidden = false;
    error.textContent = e.message;
    button.disabled = false;
  }
}

function gameItem(g) {
  const variant = variants.find((v) => v.id === g.variant);
  let seat = null;
  try {
    seat = JSON.parse(localStorage.getItem(`raum:seat:${g.id}`) || 'null');
  } catch {
    seat = null;
  }
  const moves = Math.ceil((g.plies || 0) / 2);
  const modeText = {engine: 'vs Raum', local: 'one screen', online: 'online'}[g.mode] || g.mode;
  const status = g.result ? `${g.result}${g.reason ? `, ${g.reason}` : ''}` : `${moves} move${moves === 1 ? '' : 's'}`;
  return el(
    'li',
    {class: 'game-item', dataset: {id: g.id}},
    el(
      'a',
      {href: `/g/${encodeURIComponent(g.id)}`, class: 'game-link'},
      el('span', {class: 'game-players'}, el('span', {class: 'chip white'}), el('span', {}, g.white || 'White'), el('span', {class: 'vs'}, ' vs '), el('span', {class: 'chip black'}), el('span', {}, g.black || 'Black')),
      el('span', {class: 'game-meta'}, `${variant ? variant.name : g.variant} · ${modeText} · ${status}`),
      el('span', {class: 'game-when muted'}, ago(g.updated)),
      el('span', {class: 'game-action'}, seat ? (g.result ? 'review' : 'resume') : g.result ? 'review' : 'watch'),
    ),
  );
}

async function loadGames() {
  try {
    const games = await api('GET', '/api/games');
    const live = games.filter((g) => !g.result);
    const done = games.filter((g) => g.result);
    setChildren($('#games-live'), live.length ? live.map(gameItem) : el('li', {class: 'muted'}, 'No games in progress.'));
    setChildren($('#games-done'), done.length ? done.map(gameItem) : el('li', {class: 'muted'}, 'No finished games yet.'));
  } catch (e) {
    setChildren($('#games-live'), el('li', {class: 'error-text'}, `Could not load the games: ${e.message}`));
  }
}

async function main() {
  $('#new-game').addEventListener('submit', create);
  $('#new-game').addEventListener('change', updateForm);
  $('#refresh').addEventListener('click', loadGames);
  try {
    variants = await getVariants();
  } catch (e) {
    variants = [];
    $('#create-error').hidden = false;
    $('#create-error').textContent = `Could not load the variants: ${e.message}`;
  }
  const select = $('#variant');
  for (const v of variants) select.appendChild(el('option', {value: v.id}, v.name + (v.reconstruction ? ' (reconstruction)' : '')));
  setChildren($('#rules-list'), variants.map((v) => el('li', {}, el('a', {href: `/rules/${encodeURIComponent(v.id)}`}, v.name), v.reconstruction ? el('span', {class: 'tag'}, 'reconstruction') : null, el('span', {class: 'muted'}, ` ${v.cells} cells`))));
  updateForm();
  loadGames();
  setInterval(loadGames, 15000);
  window.raumLobbyReady = true;
}

main();
