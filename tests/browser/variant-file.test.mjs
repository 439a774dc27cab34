// A variant file in the lobby: a broken one shows its problems by line (a
// click on one selects the line), the fixed one is read and chosen, and a
// game of it against the engine is played, reloaded and found again.

import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {launch, newPage, url, getState, gameIdOf, legalMove, clickMove2d, waitPly, listedMoves, board2d, noPageErrors} from './helpers.mjs';

let browser;
before(async () => (browser = await launch()));
after(async () => browser && (await browser.close()));

test('a pasted variant file: its errors by line, then a game of it against the engine', async () => {
  const {context, page} = await newPage(browser);
  await page.goto(url('/'));
  await page.waitForFunction(() => window.raumLobbyReady === true);
  await page.click('#variant-file-box summary');
  // The tutorial's game, offered as an example, under an id of this test's own.
  await page.selectOption('#variant-file-example', 'cubelet.toml');
  const good = (await page.inputValue('#variant-file')).replace('id = "cubelet"', 'id = "browser-cubelet"');
  assert.match(good, /title = "Cubelet"/);

  // Broken: the rook's movement has a stray '*', and the army names a piece no one defined.
  const broken = good.replace('moves = "O*"', 'moves = "O**"').replace('"Aa1 RNKB"', '"Aa1 RNKZ"');
  await page.fill('#variant-file', broken);
  await page.click('#variant-file-read');
  await page.waitForSelector('#variant-file-problems:not([hidden])');
  const problems = await page.$$eval('#variant-file-problems li', (li) => li.map((x) => x.textContent));
  assert.ok(problems.some((p) => /^line 15, column \d+: pieces\.R\.moves: /.test(p)), problems.join('\n'));
  assert.ok(problems.some((p) => /^line 22, column \d+: army\.white/.test(p) && /Z/.test(p)), problems.join('\n'));
  assert.ok(await page.isHidden('#variant-file-ok'));
  // A click on a problem selects its line in the file.
  await page.click('#variant-file-problems li[data-line="15"] a');
  const selected = await page.evaluate(() => {
    const box = document.querySelector('#variant-file');
    return box.value.slice(box.selectionStart, box.selectionEnd);
  });
  assert.match(selected, /^R = \{ name = "rook".*O\*\*/);

  // Fixed: read, offered in the list of variants and chosen.
  await page.fill('#variant-file', good);
  await page.click('#variant-file-read');
  await page.waitForSelector('#variant-file-ok:not([hidden])');
  assert.ok(await page.isHidden('#variant-file-problems'));
  assert.match(await page.textContent('#variant-file-ok'), /Cubelet \(browser-cubelet\), 64 cells/);
  assert.equal(await page.inputValue('#variant'), 'browser-cubelet');

  // A game against the engine at level 1.
  await page.click('label.seg-radio:has(input[value="engine"])');
  await page.check('input[name="strength"][value="level"]');
  await page.selectOption('#level', '1');
  await page.click('label.seg-radio:has(input[name="color"][value="white"])');
  await page.click('#create');
  await page.waitForURL(/\/g\/[^#]+/);
  await page.waitForFunction(() => window.raumTest && window.raumTest.isReady === true);
  const id = gameIdOf(page);
  let state = await getState(id);
  assert.equal(state.variant, 'browser-cubelet');
  assert.match(await page.textContent('body'), /Cubelet/);
  await clickMove2d(page, legalMove(state, 'Ab2-Ab3'));
  await waitPly(page, 2, 30000);
  state = await getState(id);
  assert.equal(state.moves.length, 2, 'the engine answered');
  const pieces = await board2d(page);
  const moves = await listedMoves(page);

  // Reloaded, the game is the same; the lobby lists it and still offers the file.
  await page.reload();
  await page.waitForFunction(() => window.raumTest && window.raumTest.isReady === true);
  assert.deepEqual(await board2d(page), pieces);
  assert.deepEqual(await listedMoves(page), moves);
  await page.goto(url('/'));
  await page.waitForFunction(() => window.raumLobbyReady === true);
  assert.equal(await page.$$eval('#variant option[value="browser-cubelet"]', (o) => o.length), 1);
  await page.waitForSelector(`.game-item[data-id="${id}"]`);
  await page.click(`.game-item[data-id="${id}"] a`);
  await page.waitForFunction(() => window.raumTest && window.raumTest.isReady === true);
  assert.deepEqual(await listedMoves(page), moves);
  noPageErrors(page);
  await context.close();
});
