// The seed's second game, 1. P-Cc2 P-Cc4 2. B-Ca1 BxEb2#, played by clicks in
// the layered view of a game made in the lobby (two people at one screen).

import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {launch, newPage, url, getState, gameIdOf, legalMove, clickMove2d, waitPly, listedMoves, board2d, screenshot, analysePng, assertShowsPieces, noPageErrors} from './helpers.mjs';

let browser;
before(async () => (browser = await launch()));
after(async () => browser && (await browser.close()));

const LINE = [
  ['Dc2-Cc2', 'P-Cc2'],
  ['Bc4-Cc4', 'P-Cc4'],
  ['Db1-Ca1', 'B-Ca1'],
  ['Bb5-Eb2', 'BxEb2#'],
];

test('the seed line by clicks in the layered view ends "0-1, checkmate"', async () => {
  const {context, page} = await newPage(browser);
  await page.goto(url('/'));
  await page.waitForFunction(() => window.raumLobbyReady === true);
  await page.selectOption('#variant', 'five-up');
  await page.click('label.seg-radio:has(input[value="local"])');
  await page.fill('#name-white', 'Ann');
  await page.fill('#name-black', 'Bob');
  await page.click('#create');
  await page.waitForURL(/\/g\/[^#]+/);
  await page.waitForFunction(() => window.raumTest && window.raumTest.isReady === true);
  const id = gameIdOf(page);

  // the layered view draws every cell of the board, named as in the seed
  const variant = await (await fetch(url('/api/variants/five-up'))).json();
  assert.equal(await page.locator('.board2d .cell').count(), variant.cells.length);
  assert.deepEqual(await page.$$eval('.board2d .level-name', (ls) => ls.map((l) => l.textContent)), variant.levels);

  const before = await board2d(page);
  assert.equal(before.Dc2, 'P');
  assert.equal(before.Bb5, 'b');

  for (let i = 0; i < LINE.length; i++) {
    const state = await getState(id);
    assert.equal(state.ply, i);
    const move = legalMove(state, ...LINE[i]);
    await clickMove2d(page, move);
    await waitPly(page, i + 1);
  }

  await page.waitForSelector('#result:not([hidden])');
  assert.equal((await page.textContent('[data-testid="result"]')).trim(), '0-1, checkmate');
  assert.ok(await page.isVisible('text=0-1, checkmate'));

  const state = await getState(id);
  assert.deepEqual(state.moves.map((m) => m.coord), LINE.map((l) => l[0]));
  assert.deepEqual(await listedMoves(page), state.moves.map((m) => m.san));
  assert.equal(await page.textContent('#moves .move-row:first-child .move-num'), '1.');

  // last move and check are marked
  const after = await board2d(page);
  assert.equal(after.Eb2, 'b');
  assert.equal(after.Ca1, 'B');
  assert.ok(await page.isVisible(`.board2d [data-cell="${state.moves[3].to}"].last`));
  for (const c of state.check) assert.ok(await page.isVisible(`.board2d [data-cell="${c}"].check`));
  assert.ok(state.check.length > 0, 'the mated king is in check');

  // stepping back shows the earlier position and never moves
  await page.keyboard.press('ArrowLeft');
  await page.waitForFunction(() => window.raumTest.viewPly === 3);
  assert.equal((await board2d(page)).Eb2, 'P');
  await page.click('#nav-first');
  await page.waitForFunction(() => window.raumTest.viewPly === 0);
  assert.equal((await board2d(page)).Dc2, 'P');
  await page.click(`#moves button.move[data-ply="2"]`);
  await page.waitForFunction(() => window.raumTest.viewPly === 2);
  assert.equal((await board2d(page)).Cc4, 'p');
  await page.keyboard.press('End');
  await page.waitForFunction(() => window.raumTest.viewPly === 4);
  assert.equal((await getState(id)).ply, 4);

  // export: the position string and the record
  assert.equal(await page.inputValue('[data-testid="fen"]'), state.fen);
  const pgnHref = await page.getAttribute('#pgn-link', 'href');
  const pgn = await (await fetch(url(pgnHref))).text();
  assert.match(pgn, /\[Variant "five-up"\]/);
  assert.match(pgn, /0-1/);

  // flip turns the ranks round
  const rankTop = (want) =>
    page.waitForFunction((w) => {
      const labels = [...document.querySelector('.board2d .level').querySelectorAll('.rank-label')];
      labels.sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top);
      return labels[0].textContent === w;
    }, want);
  await rankTop('5');
  await page.click('#flip');
  await rankTop('1');
  await page.click('#flip');
  await rankTop('5');

  const {png} = await screenshot(page.locator('#board-frame'), 'layers-view.png');
  assertShowsPieces(await analysePng(browser, png), 'layered view');
  await screenshot(page, 'game-page-layers.png');
  noPageErrors(page);
  await context.close();
});
