// Five Up riding on a unicorn in the web app (issue 38): a shared cell (a
// piece and its riding unicorn) is drawn as both men in both views, and a
// move between two cells that more than one of its men can make asks which.

import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {launch, newPage, createGame, openGame, waitPly, noPageErrors, getState} from './helpers.mjs';

let browser;
before(async () => (browser = await launch()));
after(async () => browser && (await browser.close()));

test('a shared cell shows both men, and a move from it asks which men go', async () => {
  const game = await createGame({variant: 'five-up-unicorn', mode: 'local'});
  const {context, page} = await newPage(browser);
  await openGame(page, game.links.white);
  const state = await getState(game.id);
  const shared = state.start_pieces.find(([, man]) => man === 'WU');
  assert.ok(shared, `White starts with a wizard and its unicorn on one cell: ${JSON.stringify(state.start_pieces)}`);
  const [cell] = shared;
  const men = (c) => page.$$eval(`.board2d [data-cell="${c}"] .piece`, (els) => els.map((e) => e.dataset.piece));
  assert.deepEqual(await men(cell), ['W', 'U']);

  // the unicorn alone and the pair both reach Ca2: the picker asks which
  const both = state.legal.filter((m) => m.from === cell && m.to === state.legal.find((x) => x.coord === 'U:Eb1-Ca2').to);
  assert.deepEqual(both.map((m) => m.san).sort(), ['U-Ca2', 'W+U-Ca2']);
  await page.click(`.board2d [data-cell="${cell}"]`);
  await page.click(`.board2d [data-cell="${both[0].to}"]`);
  await page.waitForSelector('#promotion:not([hidden])');
  assert.equal(await page.textContent('#promotion-title'), 'Which move?');
  await page.click('#promotion-choices button[data-coord="U:Eb1-Ca2"]');
  await waitPly(page, 1);
  assert.deepEqual(await men(cell), ['W'], 'the wizard stays');
  assert.deepEqual(await men(both[0].to), ['U'], 'the unicorn left alone');

  // the 3D view opens on it too
  await page.click('#view-3d');
  await page.evaluate(() => window.raumTest.ready3d());
  noPageErrors(page);
  await context.close();
});
