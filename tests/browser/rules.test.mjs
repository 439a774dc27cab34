// The rules pages: every variant's board and pieces, each piece's cells
// marked, and the "reconstruction" label where the variant has one; the 3D
// view of an irregular board.

import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {launch, newPage, url, api, createGame, openGame, noPageErrors} from './helpers.mjs';

let browser;
before(async () => (browser = await launch()));
after(async () => browser && (await browser.close()));

test('a rules page per variant, drawn from the server', async () => {
  const variants = await api('GET', '/api/variants');
  assert.ok(variants.length >= 2);
  const {context, page} = await newPage(browser);
  for (const v of variants) {
    const [full, rules] = await Promise.all([api('GET', `/api/variants/${v.id}`), api('GET', `/api/variants/${v.id}/rules`)]);
    await page.goto(url(`/rules/${v.id}`));
    await page.waitForFunction(() => window.raumRulesReady === true);
    assert.equal(await page.textContent('#variant-name'), full.name);
    assert.equal(await page.isVisible('#reconstruction'), !!(rules.reconstruction || full.reconstruction), `${v.id}: reconstruction label`);
    assert.equal(await page.locator('#start-board .cell').count(), full.cells.length, `${v.id}: every cell drawn`);
    assert.equal(await page.locator('.piece-card').count(), rules.pieces.length);
    const first = rules.pieces[0];
    const card = page.locator(`.piece-card[data-piece="${first.letter}"]`).first();
    const marked = await card.locator('.cell.mark-both, .cell.mark-move, .cell.mark-capture').count();
    assert.equal(marked, new Set([...first.moves, ...first.captures]).size, `${v.id}: ${first.name}'s cells marked`);
    assert.equal(await page.locator('#rule-texts li').count(), rules.rules.length);
  }
  noPageErrors(page);
  await context.close();
});

test('an irregular board in both views', async () => {
  const variants = await api('GET', '/api/variants');
  const irregular = variants.find((v) => v.id === 'octahedral') || variants.find((v) => v.cells !== 125) || variants[0];
  const full = await api('GET', `/api/variants/${irregular.id}`);
  const game = await createGame({variant: irregular.id, mode: 'local'});
  const {context, page} = await newPage(browser);
  await openGame(page, game.links.white);
  assert.equal(await page.locator('.board2d .cell').count(), full.cells.length);
  assert.equal(await page.locator('.board2d .level').count(), full.levels.length);
  await page.click('#view-3d');
  await page.evaluate(() => window.raumTest.ready3d());
  const move = game.state.legal[0];
  const from = await page.evaluate((c) => window.raumTest.project(c), move.from);
  await page.mouse.click(from.x, from.y);
  const to = await page.evaluate((c) => window.raumTest.project(c), move.to);
  await page.mouse.click(to.x, to.y);
  await page.waitForFunction(() => window.raumTest.state.ply === 1);
  noPageErrors(page);
  await context.close();
});
