// Moves by clicks in the 3D view, found through window.raumTest.project, and
// the 3D view's controls.

import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {launch, newPage, createGame, openGame, getState, legalMove, clickMove3d, waitPly, board2d, screenshot, analysePng, assertShowsPieces, noPageErrors} from './helpers.mjs';

let browser;
before(async () => (browser = await launch()));
after(async () => browser && (await browser.close()));

test('moves made by clicks in the 3D view are applied', async () => {
  const game = await createGame({variant: 'five-up', mode: 'local'});
  const {context, page} = await newPage(browser);
  await openGame(page, game.links.white);
  await page.click('#view-3d');
  await page.waitForFunction(() => window.raumTest.view === '3d');
  await page.evaluate(() => window.raumTest.ready3d());
  assert.ok(await page.isVisible('#board3d canvas'));
  assert.ok(await page.isHidden('#board2d'));

  const line = [
    ['Dc2-Cc2', 'P-Cc2'],
    ['Bc4-Cc4', 'P-Cc4'],
    ['Ec2-Ec4', null],
  ];
  for (let i = 0; i < line.length; i++) {
    const state = await getState(game.id);
    const move = legalMove(state, ...line[i]);
    await clickMove3d(page, move);
    await waitPly(page, i + 1);
  }
  const state = await getState(game.id);
  assert.deepEqual(state.moves.map((m) => m.coord), line.map((l) => l[0]));
  assert.equal((await page.$$('#moves button.move')).length, 3);

  // a click that starts a selection in 3D lights the destinations in both views
  const black = legalMove(state, 'Bd4-Cd4');
  const from = await page.evaluate((c) => window.raumTest.project(c), black.from);
  await page.mouse.click(from.x, from.y);
  await page.click('#view-2d');
  await page.waitForSelector(`.board2d [data-cell="${black.from}"].selected`);
  assert.ok(await page.isVisible(`.board2d [data-cell="${black.to}"].dest`));
  const pieces = await board2d(page);
  assert.equal(pieces.Cc2, 'P');
  assert.equal(pieces.Cc4, 'p');
  assert.equal(pieces.Ec4, 'P');
  await page.click('#view-3d');
  await page.evaluate(() => window.raumTest.ready3d());

  // the level-spacing slider and "isolate one level" keep cells clickable
  await page.fill('#spacing', '5');
  await page.dispatchEvent('#spacing', 'input');
  await page.selectOption('#isolate', {label: 'Level C'});
  const move = legalMove(state, 'Bd4-Cd4');
  const to = await page.evaluate((c) => window.raumTest.project(c), move.to);
  assert.ok(!to.hidden, 'Cd4 is visible with level C isolated');
  await page.mouse.click(to.x, to.y);
  await waitPly(page, 4);
  await page.selectOption('#isolate', 'all');
  await page.click('#reset-camera');

  // hovering a cell lights the lines through it (the tooltip names the cell)
  const centre = await page.evaluate((c) => window.raumTest.project(c), 'Cc3');
  await page.mouse.move(centre.x, centre.y);
  await page.waitForSelector('.board3d-tip:not([hidden])');
  assert.equal(await page.textContent('.board3d-tip'), 'Cc3');

  await page.mouse.move(5, 5);
  await page.waitForTimeout(200);
  const {png} = await screenshot(page.locator('#board-frame'), '3d-view.png');
  assertShowsPieces(await analysePng(browser, png), '3D view');
  await screenshot(page, 'game-page-3d.png');
  noPageErrors(page);
  await context.close();
});
