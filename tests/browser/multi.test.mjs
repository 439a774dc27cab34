// A game for three from the lobby: Triquetral Cube Chess with Raum in Blue's
// and Green's seats (100 ms a move) and a person as White. A move by clicks;
// both engines answer in turn; the legend shows whose turn it is; the men of
// each side are drawn in its colour, in the layered and the 3D view.

import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {launch, newPage, url, getState, gameIdOf, clickMove2d, listedMoves, noPageErrors, screenshot} from './helpers.mjs';

let browser;
before(async () => (browser = await launch()));
after(async () => browser && (await browser.close()));

async function whiteToMove(page, ply) {
  await page.waitForFunction(
    (n) => {
      const s = window.raumTest.state;
      return s && s.ply === n && s.side === 'white' && !(s.engine && s.engine.thinking);
    },
    ply,
    {timeout: 15000},
  );
}

test('triquetral-3p against two engines: a click, both answer, the legend follows', async () => {
  const {context, page} = await newPage(browser);
  await page.goto(url('/'));
  await page.waitForFunction(() => window.raumLobbyReady === true);
  await page.selectOption('#variant', 'triquetral-3p');
  // the seat chooser: White a person (you), Blue and Green Raum by default
  await page.waitForSelector('#seat-options:not([hidden])');
  assert.deepEqual(await page.$$eval('#seats .seat-player', (s) => s.map((x) => `${x.dataset.side}=${x.value}`)), ['white=human', 'blue=engine', 'green=engine']);
  assert.ok(await page.isHidden('#mode-engine'), 'a multi-player game has no "Play Raum" mode: Raum takes seats');
  await page.fill('#seats .seat-name[data-side="white"]', 'Ann');
  await page.fill('#seat-movetime', '100');
  await page.click('#create');
  await page.waitForURL(/\/g\/[^#]+/);
  await page.waitForFunction(() => window.raumTest && window.raumTest.isReady === true);
  const id = gameIdOf(page);
  let state = await getState(id);
  assert.equal(state.kind, 'multi');
  assert.deepEqual(state.sides.map((s) => [s.key, s.human, s.movetime]), [['white', true, null], ['blue', false, 100], ['green', false, 100]]);
  assert.equal(state.sides[0].player, 'Ann');

  // the legend: three sides, White to move and seated here
  await page.waitForSelector('[data-testid="side-white"].to-move');
  assert.match(await page.textContent('[data-testid="side-white"]'), /Ann.*you/s);
  assert.match(await page.textContent('[data-testid="turn"]'), /Your move/);
  assert.equal(await page.locator('.legend-side').count(), 3);
  // each side's men in its colour
  for (const side of ['w', 'b', 'g']) assert.ok((await page.locator(`.board2d .cell[data-piece="${side}K"] .piece.side-${side}`).count()) === 1, `${side}'s king`);

  // a pawn's step by two clicks (the layered view)
  await whiteToMove(page, 0);
  const move = state.legal.find((m) => /^\d+[a-z]\d+-\d+[a-z]\d+$/.test(m.coord) && state.start_pieces.some(([c, p]) => c === m.from && p === 'wP')) || state.legal[0];
  await clickMove2d(page, move);
  await whiteToMove(page, 3);
  state = await getState(id);
  assert.deepEqual(state.moves.map((m) => m.color), ['white', 'blue', 'green'], 'both engines answered, in turn');
  assert.equal(state.moves[0].coord, move.coord);
  assert.deepEqual(await listedMoves(page), state.moves.map((m) => m.san));
  await page.waitForSelector('[data-testid="side-white"].to-move');
  assert.equal(await page.locator('.legend-side.to-move').count(), 1);
  // Green's reply is on the board, marked as the last move
  const last = state.moves[2];
  await page.waitForSelector(`.board2d .cell[data-cell="${last.to}"].last[data-piece^="g"]`);

  // step back through the list: the start, then the game now
  await page.click('#nav-first');
  await page.waitForFunction(() => window.raumTest.viewPly === 0);
  assert.equal(await page.getAttribute(`.board2d .cell[data-cell="${move.from}"]`, 'data-piece'), 'wP');
  await page.keyboard.press('End');
  await page.waitForFunction(() => window.raumTest.viewPly === 3);

  // the 3D view draws the same board
  await page.click('#view-3d');
  await page.evaluate(() => window.raumTest.ready3d());
  const king = state.start_pieces.find(([, p]) => p === 'gK')[0];
  const at = await page.evaluate((c) => window.raumTest.project(c), king);
  assert.ok(Number.isFinite(at.x) && Number.isFinite(at.y), 'Green king projected in the 3D view');
  await screenshot(page.locator('#board-frame'), 'multi-3d.png');
  await page.click('#view-2d');
  await screenshot(page.locator('body'), 'multi-page.png');
  noPageErrors(page);
  await context.close();
});
