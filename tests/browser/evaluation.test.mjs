// The engine's evaluation and hint belong to the position on screen (issue
// 38): stepping back evaluates the position shown (POST .../analysis with
// `ply`), an answer is shown only while its position is, a move or a step
// clears it, and a refusal because the engine is busy is said politely.

import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {launch, newPage, url, api, createGame, openGame, waitPly, noPageErrors} from './helpers.mjs';

let browser;
before(async () => (browser = await launch()));
after(async () => browser && (await browser.close()));

// The seed's line up to White's blunder: Black mates with BxEb2 next.
const SEED = '[Variant "five-up"]\n\n1. P-Cc2 P-Cc4 2. B-Ca1 *\n';

/** Records the bodies of the page's analysis requests. */
function watchAnalyses(page) {
  const bodies = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && /\/analysis$/.test(new URL(r.url()).pathname)) bodies.push(JSON.parse(r.postData() || '{}'));
  });
  return bodies;
}

const shown = (page) => page.evaluate(() => {
  const box = document.querySelector('#analysis');
  return box.hidden ? null : {ply: Number(box.dataset.ply), text: box.textContent};
});

async function evaluate(page, button = '#btn-eval', what = '[data-testid="evaluation"]') {
  await page.click(button);
  await page.waitForSelector(`#analysis ${what}`, {timeout: 20000});
}

test('an evaluation is shown with its own position only, and stepping back evaluates the position shown', async () => {
  const game = await createGame({variant: 'five-up', mode: 'local', pgn: SEED});
  const {context, page} = await newPage(browser);
  const bodies = watchAnalyses(page);
  await openGame(page, game.links.white);

  // now: Black to move, mate in one
  await evaluate(page);
  let box = await shown(page);
  assert.equal(box.ply, 3);
  assert.match(box.text, /Position after 2\. B-Ca1/);
  assert.match(box.text, /Evaluation: #-1/, box.text);
  assert.equal(bodies.at(-1).ply, 3);

  // one step back: the evaluation of move 2 is not the position shown
  await page.click('#nav-prev');
  assert.equal(await shown(page), null, 'the evaluation went with its position');
  await evaluate(page);
  box = await shown(page);
  assert.equal(bodies.at(-1).ply, 2, 'the page asked about the position shown');
  assert.equal(box.ply, 2);
  assert.match(box.text, /Position after 1… Cc4/);
  assert.doesNotMatch(box.text, /#-1/, 'not the final position');
  // its best move is White's, legal after 1. P-Cc2 P-Cc4
  const earlier = await createGame({variant: 'five-up', mode: 'local', pgn: '[Variant "five-up"]\n\n1. P-Cc2 P-Cc4 *\n'});
  const best = (await page.textContent('[data-testid="analysis-best"]')).replace(/^Best: /, '');
  assert.ok(earlier.state.legal.some((m) => m.san === best), `${best} is one of White's moves there`);

  // forward: gone; back again: it is that position's, shown again
  await page.click('#nav-next');
  assert.equal(await shown(page), null);
  await page.click('#nav-prev');
  assert.equal((await shown(page)).ply, 2);

  // a hint for an earlier position marks its move there, and only there
  await page.click('#nav-first');
  await evaluate(page, '#btn-hint', ':text("Hint:")');
  assert.equal(bodies.at(-1).ply, 0);
  assert.equal((await shown(page)).ply, 0);
  await page.waitForSelector('.board2d .cell.hint');
  await page.click('#nav-last');
  assert.equal(await shown(page), null);
  assert.equal(await page.locator('.board2d .cell.hint').count(), 0, 'no hint of another position on the board');

  // evaluated now, then a move (mate): the evaluation goes, and after mate it is of the final position
  await evaluate(page);
  assert.equal((await shown(page)).ply, 3);
  await page.fill('#move-input', 'BxEb2');
  await page.press('#move-input', 'Enter');
  await waitPly(page, 4);
  await page.waitForSelector('#result:not([hidden])');
  assert.equal(await shown(page), null, 'the evaluation of move 2 is not shown after mate');
  await evaluate(page);
  box = await shown(page);
  assert.equal(box.ply, 4);
  assert.match(box.text, /Position after 2… BxEb2#/);
  noPageErrors(page);
  await context.close();
});

test('an evaluation refused because the engine is busy with this game is said politely', async () => {
  const game = await createGame({variant: 'five-up', mode: 'local'});
  const {context, page} = await newPage(browser);
  await openGame(page, game.links.white);
  // another analysis of the game runs: the server takes one at a time per game (429)
  const other = api('POST', `/api/games/${game.id}/analysis`, {movetime: 4000});
  await new Promise((r) => setTimeout(r, 400));
  await page.click('#btn-eval');
  await page.waitForSelector('#analysis [data-testid="analysis-busy"]', {timeout: 10000});
  const text = await page.textContent('#analysis');
  assert.match(text, /Raum cannot look now: an analysis of this game is running/, text);
  assert.match(text, /Try again in \d+ s\./, text);
  assert.equal(await page.locator('#analysis .error-text').count(), 0, 'not shown as a failure');
  assert.equal(await page.isEnabled('#btn-eval'), true, 'the button works again');
  await other;
  // and once the other is done, it answers
  await evaluate(page);
  assert.equal((await shown(page)).ply, 0);
  noPageErrors(page);
  await context.close();
});
