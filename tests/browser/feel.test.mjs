// Play feel (issue 38): sounds for a move, a capture, a check and the end
// (none when stepping through the list, none when muted, no error without
// an AudioContext); a premove played on the opponent's move (a person's or
// Raum's), cancelled, and dropped when illegal; a take-back asked online, declined and accepted; a
// rematch with colours swapped, followed by the opponent and linked for a
// spectator; the board saved as a PNG.

import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import {launch, newPage, api, createGame, openGame, getState, legalMove, clickMove2d, waitPly, analysePng, noPageErrors} from './helpers.mjs';

let browser;
before(async () => (browser = await launch()));
after(async () => browser && (await browser.close()));

const sounds = (page) => page.evaluate(() => window.raumTest.sounds);
const premove = (page) => page.evaluate(() => window.raumTest.premove);
const cellOf = (names, name) => {
  assert.ok(names.has(name), `no cell ${name}`);
  return names.get(name);
};
const click = (page, cell, options) => page.click(`.board2d [data-cell="${cell}"]`, options);

test('sounds: capture, move, check, the end; none for steps; none without an AudioContext', async () => {
  // A line found on the server: a capture first, quiet moves, then a check.
  const line = ['De1-Ae4', 'Be5-Ce4', 'Ee1-De1', 'Ce4-Cb1', 'Dd1-Dc3', 'Ab4-Bb3', 'De2-De3', 'Cb1-Bb2', 'Eb2-Eb4', 'Bb5-Eb2'];
  const game = await createGame({variant: 'five-up', mode: 'local'});
  const {context, page} = await newPage(browser);
  // this browser has no Web Audio: the page must play on in silence
  await context.addInitScript(() => {
    delete window.AudioContext;
    delete window.webkitAudioContext;
  });
  await openGame(page, game.links.white);
  for (const [ply, move] of line.entries()) {
    await api('POST', `/api/games/${game.id}/moves`, {token: game.tokens.white, ply, move});
    await waitPly(page, ply + 1);
  }
  const state = await getState(game.id);
  assert.ok(/x/.test(state.moves[0].san) && /\+$/.test(state.moves[9].san), state.moves.map((m) => m.san).join(' '));
  assert.deepEqual(await sounds(page), ['capture', ...Array(8).fill('move'), 'check']);
  // stepping through the list is silent
  for (const key of ['Home', 'ArrowRight', 'ArrowRight', 'End']) await page.keyboard.press(key);
  await page.click('#nav-prev');
  await page.click('#nav-last');
  assert.equal((await sounds(page)).length, 10);
  await api('POST', `/api/games/${game.id}/resign`, {token: game.tokens.white});
  await page.waitForSelector('[data-testid="result"]');
  assert.deepEqual((await sounds(page)).slice(10), ['end']);
  noPageErrors(page);
  await context.close();
});

test('against the engine: a premove made while Raum thinks is played on its reply', async () => {
  const variant = await api('GET', '/api/variants/five-up');
  const names = new Map(variant.cells.map((c, i) => [c.name, i]));
  const game = await createGame({variant: 'five-up', mode: 'engine', engine: {color: 'black', movetime: 1200}});
  const {context, page} = await newPage(browser);
  await openGame(page, game.links.white);
  // edge pawns, far from Black's men: no reply of Raum's can make the premove illegal
  await clickMove2d(page, legalMove(game.state, 'Ea2-Ea3'));
  await page.waitForFunction(() => window.raumTest.state.engine.thinking === true);
  const [ee2, ee3] = [cellOf(names, 'Ee2'), cellOf(names, 'Ee3')];
  await click(page, ee2);
  await click(page, ee3);
  assert.deepEqual(await premove(page), {from: ee2, to: ee3});
  await page.waitForFunction(() => window.raumTest.state.ply >= 3);
  const state = await getState(game.id);
  assert.equal(state.moves[2].coord, 'Ee2-Ee3', state.moves.map((m) => m.coord).join(' '));
  noPageErrors(page);
  await context.close();
});

test('online: premove, take-back asked, rematch, PNG', async () => {
  const variant = await api('GET', '/api/variants/five-up');
  const names = new Map(variant.cells.map((c, i) => [c.name, i]));
  const game = await createGame({variant: 'five-up', mode: 'online', names: {white: 'Alice', black: 'Bob'}});
  const id = game.id;
  const a = await newPage(browser);
  const b = await newPage(browser);
  const c = await newPage(browser);
  const [alice, bob, watcher] = [a.page, b.page, c.page];
  await Promise.all([openGame(alice, game.links.white), openGame(bob, game.links.black), openGame(watcher, game.links.spectate)]);
  await Promise.all([alice, bob].map((p) => p.waitForFunction(() => window.raumTest.connected === true)));

  // 1. Alice moves: a move sound on both pages
  await clickMove2d(alice, legalMove(await getState(id), 'Dc2-Cc2'));
  await waitPly(bob, 1);
  assert.deepEqual(await sounds(alice), ['move']);
  await bob.waitForFunction(() => window.raumTest.sounds.length === 1);

  // Premove: while Bob thinks, Alice picks her knight and a cell; it is marked
  const [db1, cc1] = [cellOf(names, 'Db1'), cellOf(names, 'Cc1')];
  await click(alice, db1);
  await click(alice, cc1);
  assert.deepEqual(await premove(alice), {from: db1, to: cc1});
  await alice.waitForSelector(`.board2d [data-cell="${db1}"].premove`);
  await alice.waitForSelector(`.board2d [data-cell="${cc1}"].premove`);
  // Bob answers: Alice's premove is played at once
  const start = Date.now();
  await clickMove2d(bob, legalMove(await getState(id), 'Bc4-Cc4'));
  await waitPly(alice, 3);
  const premoveMs = Date.now() - start;
  assert.equal((await getState(id)).moves[2].coord, 'Db1-Cc1');
  assert.equal(await premove(alice), null);
  assert.equal(await alice.locator('.board2d .cell.premove').count(), 0);

  // cancelled by Escape, a right click, a click off the cells
  const [de2, ce2, ae2] = [cellOf(names, 'De2'), cellOf(names, 'Ce2'), cellOf(names, 'Ae2')];
  await click(alice, de2);
  assert.deepEqual(await premove(alice), {from: de2, to: null});
  await alice.keyboard.press('Escape');
  assert.equal(await premove(alice), null);
  await click(alice, de2);
  await click(alice, ce2);
  await click(alice, ce2, {button: 'right'});
  assert.equal(await premove(alice), null);
  await click(alice, de2);
  await click(alice, ce2);
  const frame = await alice.locator('#board-frame').boundingBox();
  await alice.mouse.click(frame.x + 3, frame.y + 3);
  assert.equal(await premove(alice), null);

  // Bob mutes his page (remembered); an illegal premove is dropped with a notice
  await bob.click('#sound-toggle');
  assert.equal(await bob.evaluate(() => localStorage.getItem('raum:sound')), 'off');
  const bobHeard = (await sounds(bob)).length;
  await click(alice, de2);
  await click(alice, ae2);
  assert.deepEqual(await premove(alice), {from: de2, to: ae2});
  await clickMove2d(bob, legalMove(await getState(id), 'Bd4-Cd4'));
  await alice.waitForSelector('[data-testid="notice"]:not([hidden])');
  assert.match(await alice.textContent('[data-testid="notice"]'), /Premove De2-Ae2 dropped/);
  assert.equal((await getState(id)).ply, 4, 'nothing was played for Alice');
  assert.equal(await premove(alice), null);

  // Take-back asked: Bob declines, then accepts
  await clickMove2d(alice, legalMove(await getState(id), 'De2-Ce2'));
  await waitPly(bob, 5);
  assert.equal((await sounds(bob)).length, bobHeard, 'a muted page plays nothing');
  await alice.click('#btn-undo');
  await bob.waitForSelector('#btn-takeback-accept');
  await alice.waitForSelector('#btn-takeback-withdraw');
  assert.match(await watcher.textContent('[data-testid="takeback-offer"]'), /White asks to take back a move/);
  await bob.click('#btn-takeback-decline');
  await alice.waitForSelector('[data-testid="takeback-offer"]', {state: 'hidden'});
  assert.equal((await getState(id)).ply, 5);
  await alice.click('#btn-undo');
  await bob.click('#btn-takeback-accept');
  await Promise.all([waitPly(alice, 4), waitPly(bob, 4), waitPly(watcher, 4)]);
  const back = await getState(id);
  assert.equal(back.side, 'white');
  assert.equal(back.takeback, null);
  await alice.waitForSelector('[data-testid="takeback-offer"]', {state: 'hidden'});

  // The board as a PNG, named by the position shown
  await alice.keyboard.press('Home');
  const [download] = await Promise.all([alice.waitForEvent('download'), alice.click('#btn-png')]);
  assert.equal(download.suggestedFilename(), `raum-${id}-0.png`);
  const png2d = await analysePng(browser, fs.readFileSync(await download.path()));
  assert.ok(png2d.width > 300 && png2d.height > 100, `${png2d.width}x${png2d.height}`);
  assert.ok(png2d.white > 150 && png2d.black > 150, `men in the PNG: ${png2d.white} white, ${png2d.black} black pixels`);
  await alice.keyboard.press('End');

  // Alice resigns; she asks for a rematch and is taken there, playing Black
  await alice.click('#btn-resign');
  await alice.click('#btn-resign');
  await bob.waitForSelector('#btn-rematch');
  assert.deepEqual((await sounds(alice)).slice(-1), ['end']);
  await alice.click('#btn-rematch');
  await alice.waitForURL((u) => !u.pathname.endsWith(id));
  await alice.waitForFunction(() => window.raumTest && window.raumTest.isReady === true);
  const next = (await getState(id)).rematch.game;
  assert.equal(new URL(alice.url()).pathname, `/g/${next}`);
  const fresh = await getState(next);
  assert.deepEqual([fresh.names.white, fresh.names.black, fresh.ply], ['Bob', 'Alice', 0]);
  // Bob is offered it and follows with his own seat; the spectator sees "Next game"
  await bob.waitForFunction(() => /offers a rematch/.test(document.querySelector('[data-testid="rematch"]')?.textContent || ''));
  await watcher.waitForSelector('#next-game');
  assert.equal(await watcher.getAttribute('#next-game', 'href'), `/g/${next}`);
  await bob.click('#btn-rematch');
  await bob.waitForURL((u) => u.pathname === `/g/${next}`);
  await bob.waitForFunction(() => window.raumTest && window.raumTest.isReady === true && window.raumTest.connected);
  await clickMove2d(bob, legalMove(fresh, 'Dc2-Cc2'));
  await waitPly(alice, 1);
  assert.equal((await getState(next)).moves[0].color, 'white');
  // (the address bar lost the token once the seat was kept)
  assert.ok(!alice.url().includes('#t='), alice.url());

  // The 3D view as a PNG
  await alice.click('#view-3d');
  await alice.evaluate(() => window.raumTest.ready3d());
  const [shot3d] = await Promise.all([alice.waitForEvent('download'), alice.click('#btn-png')]);
  assert.equal(shot3d.suggestedFilename(), `raum-${next}-1.png`);
  const png3d = await analysePng(browser, fs.readFileSync(await shot3d.path()));
  assert.ok(png3d.colors > 100 && png3d.nonBackground > 0.1, `3D PNG: ${JSON.stringify(png3d)}`);
  console.log(`# premove played ${premoveMs} ms after Bob's click; 2D PNG ${png2d.width}x${png2d.height}, 3D ${png3d.width}x${png3d.height}`);
  noPageErrors(alice, bob, watcher);
  for (const x of [a, b, c]) await x.context.close();
});
