// The lobby: a new-game form and the list of games.

import {api, getVariants, saveSeat, saveInvite, seatLink} from './api.js';
import {el, $, setChildren, ago} from './util.js';

const other = (c) => (c === 'white' ? 'black' : 'white');
let variants = [];

const radio = (name) => document.querySelector(`input[name="${name}"]:checked`)?.value;

const selectedVariant = () => variants.find((x) => x.id === $('#variant').value);

/** The seat chooser of a multi-player game: each side a person or Raum, and (online) your seat. */
function buildSeats(v) {
  const box = $('#seats');
  if (box.dataset.variant === v.id) return;
  box.dataset.variant = v.id;
  setChildren(
    box,
    v.sides.map((side, i) =>
      el(
        'div',
        {class: 'seat-row', dataset: {side: side.key}},
        el('span', {class: `chip side-${side.letter}`, title: side.name}),
        el('span', {}, side.name),
        el(
          'select',
          {class: 'seat-player', 'aria-label': `${side.name} is played by`, dataset: {side: side.key}},
          el('option', {value: 'human', selected: i === 0}, 'Person'),
          el('option', {value: 'engine', selected: i !== 0}, 'Raum'),
        ),
        el('input', {type: 'text', class: 'seat-name', maxlength: '40', placeholder: side.name, 'aria-label': `${side.name}'s name`, dataset: {side: side.key}}),
        el('label', {class: 'inline seat-you'}, el('input', {type: 'radio', name: 'you-side', value: side.key, checked: i === 0}), 'you'),
      ),
    ),
  );
}

function updateSeats() {
  const local = radio('mode') === 'local';
  for (const row of document.querySelectorAll('#seats .seat-row')) {
    const engine = row.querySelector('.seat-player').value === 'engine';
    row.querySelector('.seat-name').hidden = engine;
    const you = row.querySelector('.seat-you');
    you.hidden = local || engine;
    if (engine && you.querySelector('input').checked) {
      you.querySelector('input').checked = false;
      const person = document.querySelector('#seats .seat-row:has(.seat-player option[value="human"]:checked) input[name="you-side"]');
      if (person) person.checked = true;
    }
  }
  $('#seat-movetime').closest('.row').hidden = ![...document.querySelectorAll('#seats .seat-player')].some((s) => s.value === 'engine');
}

/** The level chooser for the variant: each level with its measured Elo there, the top one full strength. */
function buildLevels(v) {
  const select = $('#level');
  if (!v || !v.skill_levels || select.dataset.variant === v.id) return;
  select.dataset.variant = v.id;
  const chosen = Number(select.value) || 3;
  setChildren(
    select,
    v.skill_levels.map((l) =>
      el('option', {value: String(l.level), selected: l.level === chosen}, l.full ? `${l.level} (full strength)` : l.elo !== undefined ? `${l.level} (Elo ${l.elo})` : String(l.level)),
    ),
  );
}

function updateForm() {
  const v = selectedVariant();
  buildLevels(v);
  const many = !!(v && v.sides);
  // games of three, four or six: a seat chooser instead of opponent, colour and names; clocks online
  if (many && radio('mode') === 'engine') document.querySelector('input[name="mode"][value="online"]').checked = true;
  $('#mode-engine').hidden = many;
  $('#mode-local-text').textContent = many ? 'All at this screen' : 'Two at this screen';
  $('#mode-online-text').textContent = many ? 'Online: a link per seat' : 'Play a friend online';
  $('#seat-options').hidden = !many;
  $('#name-options').hidden = many;
  $('#clock-field').hidden = many && radio('mode') !== 'online';
  if (many) {
    buildSeats(v);
    updateSeats();
  }
  const mode = radio('mode');
  $('#engine-options').hidden = mode !== 'engine';
  $('#color-options').hidden = mode === 'local' || many;
  $('#clock-options').hidden = !$('#use-clock').checked;
  const start = radio('start');
  const text = $('#start-text');
  text.hidden = start === 'start';
  $('#start-note').hidden = start !== 'pgn';
  if (v) $('#start-note').textContent = `A record without a Variant tag is a game of ${v.name}, the variant chosen above.`;
  text.placeholder = many
    ? start === 'fen'
      ? 'wK… w - - 0 1'
      : `[Variant "${v.id}"]\n\n1. … *`
    : start === 'fen'
      ? 'rwkgr|ppppp|5|5|5/… w Kk - 0 1'
      : '[Variant "five-up"]\n\n1. P-Cc2 P-Cc4 *';
  $('#variant-rules').href = v ? `/rules/${encodeURIComponent(v.id)}` : '#';
  $('#variant-note').textContent = v ? `${v.cells} cells${v.reconstruction ? ' · reconstruction' : ''}${many ? ` · ${v.sides.length} sides, ${v.teams ? 'two teams' : 'every side for itself'}` : ''}` : '';
}

/** POST body and seat of a multi-player game; throws a message for a form that cannot be sent. */
function multiRequest(v, mode) {
  const seats = {};
  const movetime = Math.max(1, Math.round(Number($('#seat-movetime').value) || 1000));
  for (const row of document.querySelectorAll('#seats .seat-row')) {
    const key = row.dataset.side;
    if (row.querySelector('.seat-player').value === 'engine') seats[key] = {player: 'engine', movetime};
    else {
      const name = row.querySelector('.seat-name').value.trim();
      seats[key] = name ? {player: 'human', name} : {player: 'human'};
    }
  }
  const people = Object.keys(seats).filter((k) => seats[k].player === 'human');
  if (!people.length) throw new Error('Choose a person for at least one side: Raum does not play itself here.');
  const you = mode === 'local' ? null : radio('you-side');
  if (mode !== 'local' && !people.includes(you)) throw new Error('Choose your own seat among the people’s.');
  return {body: {variant: v.id, mode, seats}, you, people};
}

/** The clocks asked for, if any (a multi-player game's only online). */
function clockInto(body) {
  if (!$('#use-clock').checked || $('#clock-field').hidden) return;
  body.clock = {
    initial_ms: Math.round(Number($('#clock-minutes').value) * 60000),
    increment_ms: Math.round(Number($('#clock-increment').value) * 1000),
  };
}

/**
 * The start asked for: a position string or a record (the server reads a
 * record without a Variant tag as a game of the variant chosen here); throws
 * a message for an empty one rather than starting from the start unasked.
 */
function startInto(body) {
  const start = radio('start');
  const text = $('#start-text').value.trim();
  if (start === 'start') return;
  if (!text) {
    throw new Error(
      start === 'pgn'
        ? 'The game record is empty: paste a record (its moves, with or without tags), or choose “The start”.'
        : 'The position string is empty: paste one, or choose “The start”.',
    );
  }
  body[start === 'pgn' ? 'pgn' : 'fen'] = text;
}

async function createMulti(v, mode) {
  const {body, you, people} = multiRequest(v, mode);
  clockInto(body);
  startInto(body);
  const game = await api('POST', '/api/games', body);
  const links = game.links || {};
  const tokens = game.tokens || {};
  const mine = you || people[0];
  saveSeat(game.id, {token: tokens[mine], color: you});
  if (mode === 'online') saveInvite(game.id, {color: you, links, spectate: links.spectate || `/g/${game.id}`});
  location.href = links[mine] || `/g/${encodeURIComponent(game.id)}`;
}

async function create(event) {
  event.preventDefault();
  const error = $('#create-error');
  error.hidden = true;
  const mode = radio('mode');
  const v = selectedVariant();
  if (v && v.sides) {
    const button = $('#create');
    button.disabled = true;
    try {
      await createMulti(v, mode);
    } catch (e) {
      error.hidden = false;
      error.textContent = e.message;
      button.disabled = false;
    }
    return;
  }
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
  clockInto(body);
  const button = $('#create');
  button.disabled = true;
  try {
    startInto(body);
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
  const multi = Array.isArray(g.players) && variant && variant.sides;
  const moves = multi ? g.plies || 0 : Math.ceil((g.plies || 0) / 2);
  const modeText = {engine: 'vs Raum', local: 'one screen', online: 'online'}[g.mode] || g.mode;
  const status = g.result ? `${g.result}${g.reason ? `, ${g.reason}` : ''}` : `${moves} move${moves === 1 ? '' : 's'}`;
  const players = multi
    ? el('span', {class: 'game-players'}, g.players.map((name, i) => el('span', {class: 'players-multi'}, el('span', {class: `chip side-${(variant.sides[i] || {}).letter}`}), el('span', {}, name))))
    : el('span', {class: 'game-players'}, el('span', {class: 'chip white'}), el('span', {}, g.white || 'White'), el('span', {class: 'vs'}, ' vs '), el('span', {class: 'chip black'}), el('span', {}, g.black || 'Black'));
  return el(
    'li',
    {class: 'game-item', dataset: {id: g.id}},
    el(
      'a',
      {href: `/g/${encodeURIComponent(g.id)}`, class: 'game-link'},
      players,
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

// ---- Variant files: read by the server, kept there, offered in the list ----

const FILES_KEY = 'raum:variant-files';

/** The files this browser has read: {id: {name, text}}. */
function savedFiles() {
  try {
    const files = JSON.parse(localStorage.getItem(FILES_KEY) || '{}');
    return files && typeof files === 'object' ? files : {};
  } catch {
    return {};
  }
}

function saveFile(id, name, text) {
  try {
    localStorage.setItem(FILES_KEY, JSON.stringify({...savedFiles(), [id]: {name, text}}));
  } catch {
    // private mode: the file stays on the server all the same
  }
}

/** POST /api/variants: {summary} or {status, error, problems}. */
async function uploadFile(text, name) {
  let response;
  try {
    response = await fetch('/api/variants', {method: 'POST', headers: {'content-type': 'application/json'}, body: JSON.stringify({text, name}), cache: 'no-store'});
  } catch (e) {
    return {status: 0, error: `No answer from the server (${e.message})`, problems: []};
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (response.ok && data && data.id) return {summary: data};
  return {status: response.status, error: (data && data.error) || response.statusText, problems: (data && data.problems) || []};
}

/** Adds (or refreshes) a file's game in the variant list, under "Variant files". */
function offerFile(summary) {
  variants = variants.filter((v) => v.id !== summary.id).concat([{...summary, file: true}]);
  const select = $('#variant');
  let group = $('#variant-files-group');
  if (!group) {
    group = el('optgroup', {id: 'variant-files-group', label: 'Variant files'});
    select.appendChild(group);
  }
  const label = `${summary.name} (${summary.id}.toml${summary.sides ? `, ${summary.sides.length} sides` : ''})`;
  const option = [...group.children].find((o) => o.value === summary.id);
  if (option) option.textContent = label;
  else group.appendChild(el('option', {value: summary.id}, label));
}

/** Selects line `line` of the file's text box. */
function showLine(line) {
  const box = $('#variant-file');
  const lines = box.value.split('\n');
  const start = lines.slice(0, Math.max(0, line - 1)).reduce((n, l) => n + l.length + 1, 0);
  box.focus();
  box.setSelectionRange(start, start + (lines[line - 1] || '').length);
}

async function readFile() {
  const text = $('#variant-file').value;
  const name = $('#variant-file').dataset.name || 'variant.toml';
  const problems = $('#variant-file-problems');
  const ok = $('#variant-file-ok');
  problems.hidden = true;
  ok.hidden = true;
  if (!text.trim()) {
    problems.hidden = false;
    setChildren(problems, el('li', {}, 'The file is empty: paste a variant file, open one, or start from an example.'));
    return;
  }
  $('#variant-file-read').disabled = true;
  const answer = await uploadFile(text, name);
  $('#variant-file-read').disabled = false;
  if (answer.summary) {
    const v = answer.summary;
    offerFile(v);
    saveFile(v.id, name, text);
    $('#variant').value = v.id;
    updateForm();
    ok.hidden = false;
    setChildren(ok, `Read: ${v.name} (${v.id}), ${v.cells} cells${v.sides ? `, ${v.sides.length} sides` : ''}. It is chosen above; `, el('a', {href: `/rules/${encodeURIComponent(v.id)}`, target: '_blank'}, 'its rules'), '.');
    return;
  }
  problems.hidden = false;
  const items = answer.problems.length
    ? answer.problems.map((p) =>
        el(
          'li',
          {class: 'problem', dataset: {line: String(p.line)}},
          p.line > 0 ? el('a', {href: '#', onclick: (e) => (e.preventDefault(), showLine(p.line))}, `line ${p.line}, column ${p.column}`) : 'the file',
          `: ${p.key ? `${p.key}: ` : ''}${p.message}`,
        ),
      )
    : [el('li', {}, answer.error)];
  setChildren(problems, items);
}

async function fileBox() {
  $('#variant-file-read').addEventListener('click', readFile);
  $('#variant-file-open').addEventListener('change', async (e) => {
    const file = e.target.files && e.target.files[0];
    if (!file) return;
    $('#variant-file').value = await file.text();
    $('#variant-file').dataset.name = file.name;
    readFile();
  });
  try {
    const examples = await api('GET', '/api/variant-examples');
    const select = $('#variant-file-example');
    for (const x of examples) select.appendChild(el('option', {value: x.name}, x.title));
    select.addEventListener('change', () => {
      const x = examples.find((e) => e.name === select.value);
      if (!x) return;
      $('#variant-file').value = x.text;
      $('#variant-file').dataset.name = x.name;
    });
  } catch {
    $('#variant-file-example').hidden = true;
  }
  // The files read here before: offered again (the server keeps them too).
  for (const [id, f] of Object.entries(savedFiles())) {
    const answer = await uploadFile(f.text, f.name);
    if (answer.summary && answer.summary.id === id) offerFile(answer.summary);
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
  const two = variants.filter((v) => !v.sides);
  const many = variants.filter((v) => v.sides);
  for (const v of two) select.appendChild(el('option', {value: v.id}, v.name + (v.reconstruction ? ' (reconstruction)' : '')));
  if (many.length) {
    select.appendChild(el('optgroup', {label: 'For three, four or six players'}, many.map((v) => el('option', {value: v.id}, `${v.name} (${v.sides.length} sides)`))));
  }
  setChildren($('#rules-list'), variants.map((v) => el('li', {}, el('a', {href: `/rules/${encodeURIComponent(v.id)}`}, v.name), v.reconstruction ? el('span', {class: 'tag'}, 'reconstruction') : null, el('span', {class: 'muted'}, ` ${v.cells} cells${v.sides ? `, ${v.sides.length} sides` : ''}`))));
  updateForm();
  await fileBox();
  loadGames();
  setInterval(loadGames, 15000);
  window.raumLobbyReady = true;
}

main();
