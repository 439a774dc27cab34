// A reload in the middle of a game finds the same position, move list and
// seat; so does opening the game's plain address (the seat is remembered).

import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {launch, newPage, createGame, openGame, getState, legalMove, clickMove2d, waitPly, listedMoves, board2d, noPageErrors} from './helpers.mjs';

let browser;
before(async () => (browser = await launch()));
after(async () => browser && (await browser.close()));

test('reload mid-game keeps the position, the moves and the seat', async () => {
  const game = await createGame({variant: 'five-up', mode: 'local', names: {white: 'Ann', black: 'Bob'}});
  const {context, page} = await newPage(browser);
  await openGame(page, game.links.white);
  // the page keeps the seat and takes the token out of the address bar
  assert.ok(game.links.white.includes('#t='));
  assert.equal(new URL(page.url()).hash, '', page.url());
  const line = ['Dc2-Cc2', 'Bc4-Cc4', 'Dd1-Bd2'];
  for (let i = 0; i < line.length; i++) {
    const move = legalMove(await getState(game.id), line[i]);
    await clickMove2d(page, move);
    await waitPly(page, i + 1);
  }
  const pieces = await board2d(page);
  const moves = await listedMoves(page);
  assert.equal(moves.length, 3);

  await page.reload();
  await page.waitForFunction(() => window.raumTest && window.raumTest.isReady === true);
  assert.deepEqual(await board2d(page), pieces);
  assert.deepEqual(await listedMoves(page), moves);
  assert.ok(await page.isVisible(`.board2d [data-cell="${(await getState(game.id)).moves[2].to}"].last`));

  // the plain address, without the token in the fragment: the seat is remembered
  await openGame(page, `/g/${encodeURIComponent(game.id)}`);
  assert.deepEqual(await board2d(page), pieces);
  assert.deepEqual(await listedMoves(page), moves);
  assert.ok(await page.isVisible('#move-form'));
  const next = legalMove(await getState(game.id), 'Bd4-Cd4');
  await clickMove2d(page, next);
  await waitPly(page, 4);
  assert.equal((await getState(game.id)).ply, 4);

  // the lobby lists the game and resumes it
  await page.goto(new URL('/', page.url()).href);
  await page.waitForSelector(`.game-item[data-id="${game.id}"]`);
  assert.match(await page.textContent(`.game-item[data-id="${game.id}"]`), /Ann/);
  await page.click(`.game-item[data-id="${game.id}"] a`);
  await page.waitForFunction(() => window.raumTest && window.raumTest.isReady === true);
  assert.equal((await listedMoves(page)).length, 4);
  noPageErrors(page);
  await context.close();
});

test('a move whose answer is lost is not sent again: the page asks the server', async () => {
  const game = await createGame({variant: 'five-up', mode: 'local'});
  const {context, page} = await newPage(browser);
  // the page's WebSockets go through playwright (routed before the page
  // loads, or they are not): to the server until `silent`, then to a
  // stand-in that never speaks
  let silent = false;
  await page.routeWebSocket(/\/ws$/, (ws) => {
    if (!silent) ws.connectToServer();
  });
  await openGame(page, game.links.white);
  // the request reaches the server, the answer never reaches the page
  let posts = 0;
  let lost;
  const answerLost = new Promise((resolve) => (lost = resolve));
  await page.route('**/api/games/*/moves', async (route) => {
    posts++;
    await route.fetch();
    await route.abort('connectionreset');
    lost();
  });
  // and the socket hears nothing (the page's next one reaches the stand-in),
  // so only a refetch can tell
  await page.waitForFunction(() => window.raumTest.connected && window.raumTest.wsMessages > 0);
  silent = true;
  const opens = await page.evaluate(() => window.raumTest.wsOpens);
  await page.evaluate(() => window.raumTest.dropSocket());
  await page.waitForFunction((n) => window.raumTest.wsOpens > n && window.raumTest.connected, opens);
  const heard = await page.evaluate(() => window.raumTest.wsMessages);
  const gamePath = `/api/games/${encodeURIComponent(game.id)}`;
  let refetches = 0;
  page.on('request', (r) => {
    if (r.method() === 'GET' && new URL(r.url()).pathname === gamePath) refetches++;
  });
  const move = legalMove(await getState(game.id), 'Dc2-Cc2');
  await clickMove2d(page, move);
  await answerLost;
  await waitPly(page, 1);
  assert.equal(posts, 1, 'the move was posted once');
  assert.ok(refetches >= 1, 'the page did not ask the server');
  assert.equal(await page.evaluate(() => window.raumTest.wsMessages), heard, 'the stand-in socket spoke');
  await page.unroute('**/api/games/*/moves');
  const state = await getState(game.id);
  assert.deepEqual(state.moves.map((m) => m.coord), ['Dc2-Cc2']);
  assert.deepEqual(await listedMoves(page), state.moves.map((m) => m.san));
  noPageErrors(page);
  await context.close();
});
