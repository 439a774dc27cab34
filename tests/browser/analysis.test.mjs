// The analysis board and the game review (issue 38): a link opens a line on
// the board; the engine's lines and the evaluation bar follow the position on
// screen; a move off the line makes a variation, which can become the main
// line or be deleted; the share link opens the same position. A finished
// game's review marks the blunder and names the best move.

import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {launch, newPage, url, api, createGame, openGame, noPageErrors, SHOTS} from './helpers.mjs';

let browser;
before(async () => (browser = await launch()));
after(async () => browser && (await browser.close()));

const node = (page) => page.evaluate(() => window.raumTest.node);
const tree = (page) => page.evaluate(() => window.raumTest.tree());

/** Waits until the engine's lines on screen are for the position with these moves. */
async function linesFor(page, coords, count) {
  await page.waitForFunction(
    ([want, n]) => {
      const a = window.raumTest.lines;
      return a && a.node && a.lines.length >= n && document.querySelectorAll('#engine-lines .engine-line').length >= n && JSON.stringify(window.raumTest.node.coords) === JSON.stringify(want);
    },
    [coords, count],
    {timeout: 20000},
  );
}

test('the analysis board: a linked line, the engine following the position, variations, the share link', async () => {
  const {context, page} = await newPage(browser);
  await page.goto(url('/analysis?variant=raumschach&moves=Bb2-Bb3+Dd4-Dd3'));
  await page.waitForFunction(() => window.raumTest && window.raumTest.node);
  await page.evaluate(() => window.raumTest.ready);
  assert.deepEqual((await node(page)).coords, ['Bb2-Bb3', 'Dd4-Dd3']);
  assert.equal(await tree(page), '1. Bb3 Dd3');

  // the engine: three lines by default, the bar between its ends
  await linesFor(page, ['Bb2-Bb3', 'Dd4-Dd3'], 3);
  const white = Number(await page.getAttribute('#eval-bar', 'data-white'));
  assert.ok(white > 0 && white < 1, `the bar: ${white}`);

  // one step back: new lines, for that position
  await page.keyboard.press('ArrowLeft');
  assert.deepEqual((await node(page)).coords, ['Bb2-Bb3']);
  await linesFor(page, ['Bb2-Bb3'], 3);

  // another Black move there: a variation, the main line kept
  const state = await api('POST', '/api/positions', {variant: 'raumschach', moves: ['Bb2-Bb3']});
  const other = state.legal.find((m) => m.coord === 'Dc4-Dc3');
  await page.click(`.board2d [data-cell="${other.from}"]`);
  await page.click(`.board2d [data-cell="${other.to}"]`);
  await page.waitForFunction(() => window.raumTest.node.coords.length === 2 && window.raumTest.node.coords[1] === 'Dc4-Dc3');
  assert.equal(await tree(page), '1. Bb3 Dd3 ( 1… Dc3 )');

  // played from the engine's line: its first move joins the tree after Dc3
  await linesFor(page, ['Bb2-Bb3', 'Dc4-Dc3'], 1);
  await page.click('#engine-lines .engine-line[data-line="1"] .line-move');
  await page.waitForFunction(() => window.raumTest.node.coords.length === 3);
  assert.match(await tree(page), /^1\. Bb3 Dd3 \( 1… Dc3 2\. \S+ \)$/);

  // the variation made the main line
  await page.click('#btn-promote');
  assert.match(await tree(page), /^1\. Bb3 Dc3 \( 1… Dd3 \) 2\. \S+$/);

  await page.screenshot({path: `${SHOTS}/analysis-board.png`});
  // the share link opens this position
  const link = await page.inputValue('[data-testid="share-link"]');
  const coords = (await node(page)).coords;
  const {page: second} = await newPage(browser);
  await second.goto(link);
  await second.waitForFunction(() => window.raumTest && window.raumTest.node && window.raumTest.node.fen);
  assert.deepEqual((await node(second)).coords, coords);
  assert.equal((await node(second)).fen, (await node(page)).fen);

  // deleted: back to the main line's end, the variation gone
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.click('#btn-delete');
  assert.equal(await tree(page), '1. Bb3 Dd3');
  noPageErrors(page, second);
  await context.close();
});

test('a finished game is reviewed once: the blunder marked, the best move named, the graph goes to a move', async () => {
  // Five Up: after 2. B-Ca1 Black mates at once (the seed's line)
  const game = await createGame({variant: 'five-up', mode: 'local', pgn: '[Variant "five-up"]\n\n1. P-Cc2 P-Cc4 2. B-Ca1 *\n'});
  // (the first test's boards may still be letting go of their searches: a 429 is asked again)
  let lines;
  for (let i = 0; !lines; i++) {
    try {
      lines = await api('POST', '/api/lines', {variant: 'five-up', moves: game.state.moves.map((m) => m.coord), movetime: 300, multipv: 1});
    } catch (e) {
      if (i > 40 || !/ 429 /.test(e.message)) throw e;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  assert.equal(lines.lines[0].mate, -1, 'Black mates in one');
  const token = game.tokens.white;
  await api('POST', `/api/games/${game.id}/moves`, {token, ply: 3, move: lines.lines[0].best.coord});

  const {context, page} = await newPage(browser);
  await openGame(page, game.links.white);
  await page.click('#btn-review');
  await page.waitForSelector('[data-testid="review-graph"]', {timeout: 60000});
  assert.equal(await page.textContent('[data-testid="white-blunders"]'), '1');
  // one point per position of the game: the start and each of the 4 moves
  const points = await page.$eval('[data-testid="review-graph"] polygon', (p) => p.getAttribute('points').trim().split(/\s+/).length);
  assert.equal(points, 5 + 2, 'the start, 4 moves, and the two corners that close the area');
  // White's 2. B-Ca1 is marked in the move list
  assert.ok(await page.$eval('button.move[data-ply="3"]', (b) => b.classList.contains('blunder')));
  await page.click('button.move[data-ply="3"]');
  await page.screenshot({path: `${SHOTS}/review.png`});
  const verdict = await page.textContent('[data-testid="review-verdict"]');
  assert.match(verdict, /was a blunder/);
  assert.match(verdict, /Best was \S+/);
  // the graph's left edge is the start
  const box = await page.$eval('[data-testid="review-graph"]', (g) => g.getBoundingClientRect().toJSON());
  await page.mouse.click(box.x + 2, box.y + box.height / 2);
  await page.waitForFunction(() => window.raumTest.viewPly === 0);

  // kept: asked again, it is there at once
  const kept = await api('GET', `/api/games/${game.id}/review`);
  assert.equal(kept.status, 'done');
  assert.equal(kept.review.moves[2].class, 'blunder');
  // the analysis board opens the game at the move on screen
  const href = await page.getAttribute('#btn-board', 'href');
  assert.match(href, /^\/analysis\?variant=five-up&/);
  noPageErrors(page);
  await context.close();
});
