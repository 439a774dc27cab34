// Two people online through the creator's link, each seeing the other's move
// within a second, a third context spectating; a network drop (Bob's page is
// behind a TCP proxy that resets its connections) and WebSockets closed by the
// page itself: each reconnects and no move is lost or repeated.

import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {launch, newPage, url, startProxy, openGame, getState, gameIdOf, legalMove, clickMove2d, waitPly, listedMoves, board2d, noPageErrors} from './helpers.mjs';

let browser;
let proxy;
before(async () => {
  browser = await launch();
  proxy = await startProxy();
});
after(async () => {
  if (browser) await browser.close();
  if (proxy) await proxy.close();
});

const connected = (page) => page.waitForFunction(() => window.raumTest && window.raumTest.connected === true, null, {timeout: 15000});
const wsOpens = (page) => page.evaluate(() => window.raumTest.wsOpens);
/** Waits until the page has opened its WebSocket more than `n` times, and it is open. */
const reopened = (page, n) => page.waitForFunction((k) => window.raumTest.wsOpens > k && window.raumTest.connected === true, n, {timeout: 15000});

/** Plays a move by clicks on `mover` and measures until `watchers` show it. */
async function playAndWatch(mover, move, ply, watchers) {
  await clickMove2d(mover, move);
  const start = Date.now();
  await waitPly(mover, ply);
  const seen = await Promise.all(
    watchers.map(async (w) => {
      await waitPly(w, ply, 5000);
      await w.waitForSelector(`.board2d [data-cell="${move.to}"].last`, {timeout: 5000});
      return Date.now() - start;
    }),
  );
  return seen;
}

test('two players online through the link, a spectator, and a dropped socket', async (t) => {
  const a = await newPage(browser);
  const b = await newPage(browser);
  const c = await newPage(browser);
  const alice = a.page;
  const bob = b.page;
  const watcher = c.page;

  // Alice creates the game in the lobby; a name that looks like markup stays text
  await alice.goto(url('/'));
  await alice.waitForFunction(() => window.raumLobbyReady === true);
  await alice.selectOption('#variant', 'five-up');
  await alice.click('label.seg-radio:has(input[value="online"])');
  await alice.click('label.seg-radio:has(input[name="color"][value="white"])');
  await alice.fill('#name-white', 'Alice <img src=x onerror=alert(1)>');
  await alice.fill('#name-black', 'Bob');
  await alice.click('#create');
  await alice.waitForURL(/\/g\/[^#]+/);
  await alice.waitForFunction(() => window.raumTest && window.raumTest.isReady === true);
  const id = gameIdOf(alice);
  await alice.waitForSelector('#invite:not([hidden])');
  const opponentLink = await alice.inputValue('[data-testid="opponent-link"]');
  const spectatorLink = await alice.inputValue('[data-testid="spectator-link"]');
  assert.ok(opponentLink.includes('#t='), 'the opponent link carries a seat token');
  assert.ok(!spectatorLink.includes('#t='), 'the spectator link carries none');
  assert.equal(await alice.$$eval('.player-name', (ns) => ns.filter((n) => n.querySelector('img')).length), 0);
  assert.ok((await alice.textContent('.player-name[data-color="white"]')).includes('<img src=x onerror=alert(1)>'));

  // Bob's page goes through the proxy, so that his network can drop
  await openGame(bob, proxy.url(opponentLink));
  await openGame(watcher, spectatorLink);
  await Promise.all([connected(alice), connected(bob), connected(watcher)]);
  // Alice, who made the game, is told that Bob has taken his seat (a spectator is not a player)
  await alice.waitForFunction(() => /Your opponent has joined/.test(document.querySelector('[data-testid="presence"]')?.textContent || ''), null, {timeout: 5000});
  assert.ok(await watcher.isHidden('[data-testid="presence"]'), 'a spectator is told nothing');
  assert.ok(await watcher.isHidden('#move-form'), 'a spectator has no move box');
  assert.ok(await watcher.isHidden('#btn-resign'));

  // 1. White (Alice) moves; Bob and the spectator see it within a second
  let state = await getState(id);
  const m1 = legalMove(state, 'Dc2-Cc2', 'P-Cc2');
  const seen1 = await playAndWatch(alice, m1, 1, [bob, watcher]);
  t.diagnostic(`move 1 arrived after ${seen1.join(', ')} ms`);
  for (const ms of seen1) assert.ok(ms < 1000, `a move took ${ms} ms to arrive`);

  // Bob cannot move White's men, and the spectator cannot move at all
  state = await getState(id);
  const m2 = legalMove(state, 'Bc4-Cc4', 'P-Cc4');
  await watcher.click(`.board2d [data-cell="${m2.from}"]`);
  await watcher.click(`.board2d [data-cell="${m2.to}"]`);
  assert.equal(await watcher.locator('.board2d .cell.selected').count(), 0);
  assert.equal(await watcher.locator('.board2d .cell.dest').count(), 0);
  assert.equal((await getState(id)).ply, 1);

  // 1... Black (Bob) answers; Alice sees it within a second
  const seen2 = await playAndWatch(bob, m2, 2, [alice, watcher]);
  t.diagnostic(`move 2 arrived after ${seen2.join(', ')} ms`);
  for (const ms of seen2) assert.ok(ms < 1000, `a move took ${ms} ms to arrive`);

  // Bob's network goes down (his connections reset, new ones refused); the
  // page must see its socket fail. Alice moves meanwhile, which Bob cannot
  // see; his network comes back, he reconnects and has the move once.
  let opens = await wsOpens(bob);
  proxy.cut();
  await bob.waitForFunction(() => window.raumTest.connected === false, null, {timeout: 15000});
  await bob.waitForSelector('#conn[data-state="reconnecting"]');
  state = await getState(id);
  const m3 = legalMove(state, 'Db1-Cc1');
  await clickMove2d(alice, m3);
  await waitPly(alice, 3);
  await waitPly(watcher, 3);
  assert.equal(await bob.evaluate(() => window.raumTest.state.ply), 2, 'a move reached Bob while his network was down');
  assert.equal(await wsOpens(bob), opens, 'Bob reconnected while his network was down');
  proxy.restore();
  await reopened(bob, opens);
  await waitPly(bob, 3);
  assert.deepEqual(await listedMoves(bob), (await getState(id)).moves.map((m) => m.san));

  // Bob's connections are reset just before he moves: the move goes through
  // once (on a new connection), and his socket comes back
  opens = await wsOpens(bob);
  const resets = proxy.resets;
  proxy.drop();
  assert.ok(proxy.resets > resets, 'no connection of Bob to reset');
  state = await getState(id);
  const m4 = legalMove(state, 'Bd4-Cd4');
  await clickMove2d(bob, m4);
  await waitPly(bob, 4);
  await waitPly(alice, 4);
  await waitPly(watcher, 4);
  await reopened(bob, opens);

  // Alice's page closes its socket twice in a row (a clean close, the other
  // way a socket goes down); she reconnects each time and keeps playing
  for (let k = 0; k < 2; k++) {
    opens = await wsOpens(alice);
    await alice.evaluate(() => window.raumTest.dropSocket());
    await reopened(alice, opens);
  }
  state = await getState(id);
  const m5 = legalMove(state, 'De2-Ce2');
  const seen5 = await playAndWatch(alice, m5, 5, [bob, watcher]);
  t.diagnostic(`move 5 arrived after ${seen5.join(', ')} ms`);
  for (const ms of seen5) assert.ok(ms < 1000, `a move took ${ms} ms to arrive`);

  // nothing lost, nothing doubled: everybody lists the server's five moves
  state = await getState(id);
  assert.deepEqual(state.moves.map((m) => m.coord), [m1, m2, m3, m4, m5].map((m) => m.coord));
  for (const p of [alice, bob, watcher]) {
    assert.deepEqual(await listedMoves(p), state.moves.map((m) => m.san));
    assert.deepEqual(await board2d(p), await board2d(alice));
  }

  // draw offer and decline, then resignation, seen by all
  await bob.click('#btn-draw');
  await alice.waitForSelector('#draw-offer:not([hidden]) #btn-draw-decline');
  await alice.click('#btn-draw-decline');
  await bob.waitForSelector('#draw-offer', {state: 'hidden'});
  await bob.click('#btn-resign');
  await bob.click('#btn-resign');
  for (const p of [alice, bob, watcher]) await p.waitForSelector('#result:not([hidden])');
  assert.match(await watcher.textContent('[data-testid="result"]'), /^1-0/);

  noPageErrors(alice, bob, watcher);
  await Promise.all([a.context.close(), b.context.close(), c.context.close()]);
});
