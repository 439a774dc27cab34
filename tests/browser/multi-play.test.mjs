// What games for more than two gained on the one game page: at one screen,
// a take-back, a hint, an evaluation from the side to move's view and a draw
// agreed by every side (with teams); online, a clock per side in the legend
// and a fallen flag that takes a side out while the others play on.

import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {launch, newPage, openGame, waitPly, getState, createGame, clickMove2d, listedMoves, noPageErrors, screenshot} from './helpers.mjs';

let browser;
before(async () => (browser = await launch()));
after(async () => browser && (await browser.close()));

test('wing-table-4p at one screen: take-back, hint, evaluation, a draw agreed', async () => {
  const {context, page} = await newPage(browser);
  const game = await createGame({variant: 'wing-table-4p', mode: 'local'});
  await openGame(page, game.links.white);
  let state = await getState(game.id);
  assert.equal(state.kind, 'multi');
  await page.waitForSelector('[data-testid="side-white"].to-move');
  // hint and evaluation are offered at one screen, as for two players
  await page.click('#btn-hint');
  await page.waitForFunction(() => /Hint: \S/.test(document.querySelector('#analysis').textContent));
  await page.click('#btn-eval');
  await page.waitForSelector('[data-testid="evaluation"]');
  assert.match(await page.textContent('[data-testid="evaluation"]'), /White’s view/);

  await clickMove2d(page, state.legal[0]);
  await waitPly(page, 1);
  await page.waitForSelector('[data-testid="side-red"].to-move');
  assert.deepEqual(await listedMoves(page), [state.legal[0].san]);
  await page.click('#btn-eval');
  await page.waitForFunction(() => /Red’s view/.test(document.querySelector('#analysis').textContent));
  // take back to White's turn
  await page.click('#btn-undo');
  await waitPly(page, 0);
  await page.waitForSelector('[data-testid="side-white"].to-move');
  assert.ok(await page.isHidden('#btn-undo'), 'nothing left to take back');

  // a draw: offered, and accepted at this screen for every side
  await page.click('#btn-draw');
  await page.waitForSelector('#draw-offer:not([hidden])');
  assert.match(await page.textContent('#draw-offer'), /offer/);
  await page.click('#btn-draw-accept');
  await page.waitForSelector('[data-testid="result"]');
  assert.equal(await page.textContent('[data-testid="result"]'), '1/2-1/2-1/2-1/2, draw agreed');
  state = await getState(game.id);
  assert.equal(state.result.reason, 'agreement');
  await screenshot(page.locator('body'), 'multi-play-draw.png');
  noPageErrors(page);
  await context.close();
});

test('triquetral-3p online with clocks: each side its clock, a flag falls, the others play on', async () => {
  const {context, page} = await newPage(browser);
  const game = await createGame({variant: 'triquetral-3p', mode: 'online', clock: {initial_ms: 1500, increment_ms: 0}});
  await openGame(page, game.links.white);
  for (const side of ['white', 'blue', 'green']) await page.waitForSelector(`[data-testid="side-${side}"] .clock[data-color="${side}"]`);
  assert.ok(await page.isHidden('#btn-undo') && (await page.isHidden('#btn-hint')), 'no take-backs or hints online');
  const state = await getState(game.id);
  await clickMove2d(page, state.legal[0]);
  await waitPly(page, 1);
  await page.waitForSelector('[data-testid="side-blue"] .clock.running');
  // Blue does not move: its flag falls, it is out, Green is to move
  await waitPly(page, 2, 10000);
  await page.waitForSelector('[data-testid="side-green"].to-move');
  assert.match(await page.textContent('[data-testid="side-blue"]'), /out of time/);
  assert.deepEqual(await listedMoves(page), [state.legal[0].san, 'Blue’s time is up'.replace('’', "'")]);
  noPageErrors(page);
  await context.close();
});
