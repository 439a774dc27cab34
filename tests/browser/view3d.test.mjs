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

  // hovering a cell lights the 13 lines through it (the tooltip names the cell)
  const tiles = () => page.evaluate(() => window.raumTest.tiles3d());
  const inColour = (colours, key) => Object.keys(colours).filter((c) => colours[c] === key);
  assert.deepEqual(inColour(await tiles(), 'line'), [], 'lines lit before any hover');
  const centre = await page.evaluate((c) => window.raumTest.project(c), 'Cc3');
  await page.mouse.move(centre.x, centre.y);
  await page.waitForSelector('.board3d-tip:not([hidden])');
  assert.equal(await page.textContent('.board3d-tip'), 'Cc3');
  await page.waitForFunction(() => Object.values(window.raumTest.tiles3d()).includes('line'));
  const lit = await tiles();
  assert.equal(lit.Cc3, 'hovered');
  // Cc3 is the centre of the 5x5x5 board: each of the 13 lines through it
  // has two cells on either side, 52 in all; the last move's two cells
  // (Bd4-Cd4, both on lines through Cc3) keep the last move's colour
  const at = (name) => ['ABCDE'.indexOf(name[0]), 'abcde'.indexOf(name[1]), Number(name[2]) - 1];
  const nameOf = ([l, f, r]) => 'ABCDE'[l] + 'abcde'[f] + (r + 1);
  const expected = new Map(); // cell -> its line, as the direction with a positive first non-zero step
  for (const d of [-1, 0, 1].flatMap((x) => [-1, 0, 1].flatMap((y) => [-1, 0, 1].map((z) => [x, y, z])))) {
    if (d.every((v) => v === 0)) continue;
    const sign = Math.sign(d.find((v) => v !== 0));
    for (let k = 1; k <= 2; k++) expected.set(nameOf(at('Cc3').map((v, a) => v + d[a] * k)), d.map((v) => v * sign).join(','));
  }
  assert.equal(new Set(expected.values()).size, 13);
  assert.equal(expected.size, 52);
  const lastCells = Object.keys(lit).filter((c) => lit[c] === 'last');
  assert.deepEqual(lastCells.sort(), ['Bd4', 'Cd4']);
  const drawn = inColour(lit, 'line');
  assert.deepEqual(drawn.sort(), [...expected.keys()].filter((c) => !lastCells.includes(c)).sort(), 'the cells drawn as lines through Cc3');
  assert.equal(new Set(drawn.map((c) => expected.get(c))).size, 13, '13 lines drawn through Cc3');

  // leaving the board puts the lines out
  await page.mouse.move(5, 5);
  await page.waitForSelector('.board3d-tip', {state: 'hidden'});
  await page.waitForFunction(() => !Object.values(window.raumTest.tiles3d()).includes('line'));
  const {png} = await screenshot(page.locator('#board-frame'), '3d-view.png');
  assertShowsPieces(await analysePng(browser, png), '3D view');
  await screenshot(page, 'game-page-3d.png');
  noPageErrors(page);
  await context.close();
});

test('an 8x8x8 board in 3D: framed whole, readable pieces, a piece dragged moves, a drag elsewhere orbits', async () => {
  const game = await createGame({variant: 'betza-upright', mode: 'local'});
  const {context, page} = await newPage(browser, {viewport: {width: 1366, height: 768}});
  await openGame(page, game.links.white);
  await page.click('#view-3d');
  await page.evaluate(() => window.raumTest.ready3d());
  const metrics = () => page.evaluate(() => window.raumTest.metrics3d());
  const framed = (m, what) => {
    const {box, width, height} = m;
    assert.ok(box.left >= 0 && box.top >= 0 && box.right <= width && box.bottom <= height, `${what}: the board leaves the frame: ${JSON.stringify(m)}`);
    // the frame is used: the board spans most of its width or of its height
    assert.ok(box.right - box.left > 0.6 * width || box.bottom - box.top > 0.75 * height, `${what}: the board fills too little: ${JSON.stringify(m)}`);
  };
  let m = await metrics();
  assert.ok(m.stacks >= 2, `eight levels stand in stacks side by side: ${m.stacks}`);
  framed(m, 'on load');
  assert.ok(m.piecePx >= 20, `pieces are ${m.piecePx.toFixed(1)} px tall`);
  // Octahedral's nine levels of 2x2 to 10x10 too
  const octahedral = await createGame({variant: 'octahedral', mode: 'local'});
  const {page: other} = await newPage(browser, {viewport: {width: 1366, height: 768}});
  await other.evaluate(() => localStorage.setItem('raum:view', '3d')).catch(() => {});
  await openGame(other, octahedral.links.white);
  if ((await other.evaluate(() => window.raumTest.view)) !== '3d') await other.click('#view-3d');
  await other.evaluate(() => window.raumTest.ready3d());
  const o = await other.evaluate(() => window.raumTest.metrics3d());
  framed(o, 'octahedral');
  assert.ok(o.piecePx >= 16, `octahedral's pieces are ${o.piecePx.toFixed(1)} px tall`);
  await other.close();

  // the widest spacing and one stack: still framed
  await page.fill('#spacing', '8');
  await page.dispatchEvent('#spacing', 'input');
  await page.selectOption('#stacks', '1');
  framed(await metrics(), 'one stack at the widest spacing');
  await page.selectOption('#stacks', 'auto');
  await page.click('#reset-camera');
  // a smaller window: framed again
  await page.setViewportSize({width: 1000, height: 700});
  await page.waitForFunction((w) => window.raumTest.metrics3d().width !== w, m.width);
  framed(await metrics(), 'after a resize');

  // a drag from a white pawn to its cell ahead plays the move
  const state = await getState(game.id);
  const move = state.legal.find((x) => /^P?[a-h]?\d?[a-h]\d/.test(x.san) && x.coord.split('-')[0].slice(-1) === '2' && x.coord.split('-')[1].slice(-1) === '3');
  assert.ok(move, 'a pawn step');
  const from = await page.evaluate((c) => window.raumTest.project(c), move.from);
  const to = await page.evaluate((c) => window.raumTest.project(c), move.to);
  assert.ok(!from.hidden && !to.hidden, `both cells in view: ${JSON.stringify([from, to])}`);
  const before = (await metrics()).camera;
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  for (let k = 1; k <= 8; k++) await page.mouse.move(from.x + ((to.x - from.x) * k) / 8, from.y + ((to.y - from.y) * k) / 8);
  await page.mouse.up();
  await waitPly(page, 1);
  assert.equal((await getState(game.id)).moves[0].coord, move.coord);
  assert.deepEqual((await metrics()).camera, before, 'the camera stayed still while the piece moved');

  // a drag on empty space turns the board
  const {box} = await metrics();
  const canvas = await page.$eval('#board3d canvas', (c) => c.getBoundingClientRect().toJSON());
  const x = canvas.x + 8;
  const y = canvas.y + canvas.height - 8;
  assert.ok(x < canvas.x + box.left || y > canvas.y + box.bottom, 'a point off the board');
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + 120, y - 20, {steps: 6});
  await page.mouse.up();
  const after = await metrics();
  assert.notDeepEqual(after.camera, before, 'the camera turned');
  assert.ok(after.userMoved);
  assert.equal((await getState(game.id)).ply, 1, 'no move was made');
  await screenshot(page.locator('#board-frame'), '3d-8x8x8.png');
  noPageErrors(page);
  await context.close();
});
