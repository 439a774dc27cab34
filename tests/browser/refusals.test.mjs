// What the app refuses, and how it says so (issue 38): an unknown game,
// variant or page is a 404 page that says which (and echoes nothing of the
// address); a record without a Variant tag is a game of the variant chosen
// in the lobby; an empty record is refused in words; no message sends a web
// user to the command-line tool.

import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {launch, newPage, url, api, createGame, getState, gameIdOf, listedMoves, noPageErrors} from './helpers.mjs';

let browser;
before(async () => (browser = await launch()));
after(async () => browser && (await browser.close()));

test('an unknown game, variant or page is a 404 page that says so', async () => {
  const {context, page} = await newPage(browser);
  const cases = [
    ['/g/unknown', 'There is no such game.'],
    ['/g/zz9Unknown', 'There is no such game.'],
    ['/rules/no-such-variant', 'There is no such variant.'],
    ['/nowhere', 'There is no such page.'],
    ['/g/unknown/more', 'There is no such page.'],
    ['/%3Cb%3Ebold', 'There is no such page.'],
  ];
  for (const [path, words] of cases) {
    const response = await page.goto(url(path));
    assert.equal(response.status(), 404, `${path}: ${response.status()}`);
    const headers = response.headers();
    assert.match(headers['content-type'] || '', /^text\/html/, path);
    assert.match(headers['content-security-policy'] || '', /frame-ancestors 'none'/, path);
    assert.equal(headers['x-content-type-options'], 'nosniff', path);
    assert.equal(await page.textContent('h1'), words, path);
    assert.equal(await page.title(), 'Raum · not found');
    // the way back, and nothing of the address on the page
    assert.equal(await page.getAttribute('a.btn.primary', 'href'), '/');
    const html = (await page.content()).toLowerCase();
    for (const echo of ['unknown', 'no-such-variant', 'nowhere', 'more', '<b>bold', '%3cb']) assert.ok(!html.includes(echo), `${path}: the page says ${echo}`);
  }
  // a game that exists, and a variant's rules, are pages as before
  const game = await createGame({variant: 'five-up', mode: 'local'});
  assert.equal((await page.goto(url(game.links.white))).status(), 200);
  await page.waitForFunction(() => window.raumTest && window.raumTest.isReady === true);
  assert.equal((await page.goto(url('/rules/wing-table-4p'))).status(), 200);
  await page.waitForFunction(() => window.raumRulesReady === true);
  noPageErrors(page);
  await context.close();
});

/** Opens the lobby with `variant` chosen, two at one screen, starting from a record. */
async function lobbyWithRecord(page, variant, text) {
  await page.goto(url('/'));
  await page.waitForFunction(() => window.raumLobbyReady === true);
  await page.selectOption('#variant', variant);
  await page.click('label.seg-radio:has(input[value="local"])');
  await page.click('label.seg-radio:has(input[name="start"][value="pgn"])');
  await page.fill('#start-text', text);
}

test('a record without a Variant tag is a game of the variant chosen in the lobby', async () => {
  // two Raumschach moves, as the server writes them
  const probe = await createGame({variant: 'raumschach', mode: 'local'});
  const first = probe.state.legal[0];
  const after = await api('POST', `/api/games/${probe.id}/moves`, {token: probe.tokens.white, ply: 0, move: first.coord});
  const second = after.legal[0];
  const {context, page} = await newPage(browser);
  await lobbyWithRecord(page, 'raumschach', `[White "Ann"]\n\n1. ${first.san} ${second.san} *\n`);
  assert.match(await page.textContent('#start-note'), /without a Variant tag is a game of Raumschach/);
  await page.click('#create');
  await page.waitForURL(/\/g\/[^#]+/);
  await page.waitForFunction(() => window.raumTest && window.raumTest.isReady === true);
  const state = await getState(gameIdOf(page));
  assert.equal(state.variant, 'raumschach');
  assert.deepEqual(state.moves.map((m) => m.coord), [first.coord, second.coord]);
  assert.deepEqual(await listedMoves(page), state.moves.map((m) => m.san));

  // a game for four too: the lobby's seats, the record's moves
  await lobbyWithRecord(page, 'wing-table-4p', '1. 1e3-1e4 1b6-2d4 *\n');
  await page.click('#create');
  await page.waitForURL(/\/g\/[^#]+/);
  await page.waitForFunction(() => window.raumTest && window.raumTest.isReady === true);
  const four = await getState(gameIdOf(page));
  assert.equal(four.variant, 'wing-table-4p');
  assert.equal(four.ply, 2);
  noPageErrors(page);
  await context.close();
});

test('an empty record or position string is refused in words, and no game starts', async () => {
  const {context, page} = await newPage(browser);
  const before = (await api('GET', '/api/games')).length;
  await lobbyWithRecord(page, 'five-up', '   \n');
  await page.click('#create');
  await page.waitForSelector('#create-error:not([hidden])');
  assert.match(await page.textContent('#create-error'), /game record is empty/);
  assert.equal(new URL(page.url()).pathname, '/', 'still in the lobby');
  assert.equal(await page.isEnabled('#create'), true, 'the form can be sent again');
  await page.click('label.seg-radio:has(input[name="start"][value="fen"])');
  await page.fill('#start-text', '');
  await page.click('#create');
  await page.waitForFunction(() => /position string is empty/.test(document.querySelector('#create-error').textContent));
  assert.equal((await api('GET', '/api/games')).length, before, 'no game was started');
  // the server refuses an empty record as well, in words
  const res = await fetch(url('/api/games'), {method: 'POST', headers: {'content-type': 'application/json'}, body: JSON.stringify({variant: 'five-up', mode: 'local', pgn: ' '})});
  assert.equal(res.status, 400);
  assert.match((await res.json()).error, /the record is empty/);
  noPageErrors(page);
  await context.close();
});

test('a move typed wrong is refused without sending the player to the command line', async () => {
  const game = await createGame({variant: 'five-up', mode: 'local'});
  const {context, page} = await newPage(browser);
  await page.goto(url(game.links.white));
  await page.waitForFunction(() => window.raumTest && window.raumTest.isReady === true);
  await page.fill('#move-input', 'hello');
  await page.press('#move-input', 'Enter');
  await page.waitForSelector('#error:not([hidden])');
  const message = await page.textContent('#error');
  assert.match(message, /'hello' is not a move/);
  assert.doesNotMatch(message, /raum [a-z]|command|terminal|`/, message);
  noPageErrors(page);
  await context.close();
});
