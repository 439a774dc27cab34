// The pages on a phone (390x844) and a laptop (1366x768), issue 38: no page
// scrolls sideways on a phone; during a game the status line and the last
// move are in view without scrolling; the move list follows the last move
// with the export panel and an evaluation open; a game for four's long moves
// are never clipped; the game page names the pieces.

import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {launch, newPage, url, api, createGame, openGame, waitPly, noPageErrors, SHOTS} from './helpers.mjs';

let browser;
before(async () => (browser = await launch()));
after(async () => browser && (await browser.close()));

const PHONE = {width: 390, height: 844};
const LAPTOP = {width: 1366, height: 768};

// A Five Up game of 60 plies (quiet moves, no result), and the first
// rounds of a Wing Table game for four with its longest moves (1f12-1e10).
const LONG = `[Variant "five-up"]

1. Ea3 Cc4 2. Eb3 Ad3 3. Ee3 Aa3 4. Cb2 Ad2 5. Cb3 Ca4 6. Cb4 Aa2 7. Ca2 Ab2 8.
Cc2 Bb3 9. Ed4 Bd3 10. Eb4 Ac2 11. Ca3 Bc2 12. Cd2 Cc3 13. Ec4 Cd3 14. Cb5 Cb3
15. Ed5 Bd2 16. Ea4 Bb2 17. Ba3 Dd3 18. Dc4 Ba2 19. Ba4 Ca2 20. Ee4 Ce4 21. Ce2
Ae2 22. Cc4 Bb1 23. Da4 Ae1 24. Da5 Ed3 25. Be2 Ce3 26. De4 Be1 27. Cd3 Ce1 28.
Aa4 Da2 29. Ce4 Ce2 30. Dd5 De2 *
`;
const FOUR = `[Variant "wing-table-4p"]

1. 1e3-1e4 1b6-2d4 1e10-1e9 1j5-1i5 2. 1e4-1e5 1b7-2d5 1f12-1e10 1i5-1h5 3.
1e5-1e6 1c5-1d5 1e10-1f12 1h5-1g5 4. 1e6-1e7 1a6-1c5 1f12-1e10 1g5-1f5 *
`;

const sideways = (page) => page.evaluate(() => ({scroll: document.documentElement.scrollWidth, inner: window.innerWidth}));

async function assertNoSideways(page, what) {
  const {scroll, inner} = await sideways(page);
  assert.ok(scroll <= inner, `${what}: the page is ${scroll} px wide in a ${inner} px window`);
}

/** Whether `selector`'s box lies inside the window (and, if given, inside `within`'s box). */
function inView(page, selector, within) {
  return page.evaluate(
    ([sel, outer]) => {
      const r = document.querySelector(sel).getBoundingClientRect();
      const o = outer ? document.querySelector(outer).getBoundingClientRect() : {top: 0, left: 0, bottom: window.innerHeight, right: window.innerWidth};
      const box = {top: Math.max(0, o.top), left: Math.max(0, o.left), bottom: Math.min(window.innerHeight, o.bottom), right: Math.min(window.innerWidth, o.right)};
      return r.height > 0 && r.top >= box.top - 1 && r.bottom <= box.bottom + 1 && r.left >= box.left - 1 && r.right <= box.right + 1;
    },
    [selector, within],
  );
}

test('at 390x844 no page scrolls sideways: the lobby, games and the rules', async () => {
  const {context, page} = await newPage(browser, {viewport: PHONE});
  await page.goto(url('/'));
  await page.waitForFunction(() => window.raumLobbyReady === true);
  await assertNoSideways(page, 'the lobby');
  await page.click('label.seg-radio:has(input[name="start"][value="pgn"])');
  await page.click('#variant-file-box summary');
  await page.check('#use-clock');
  await assertNoSideways(page, 'the lobby, a record, a variant file and a clock');
  for (const v of ['triquetral-6p', 'wing-table-4p']) {
    await page.selectOption('#variant', v);
    await page.click('label.seg-radio:has(input[value="online"])');
    await assertNoSideways(page, `the lobby's seats for ${v}`);
  }

  const two = await createGame({variant: 'five-up', mode: 'local', pgn: LONG});
  const four = await createGame({variant: 'wing-table-4p', mode: 'local', pgn: FOUR});
  for (const [what, link] of [['a Five Up game', two.links.white], ['a game for four', four.links.white]]) {
    await page.evaluate(() => localStorage.setItem('raum:view', '2d'));
    await openGame(page, link);
    await assertNoSideways(page, what);
    await page.click('#export summary');
    await page.click('#btn-eval');
    await page.waitForSelector('#analysis [data-testid="evaluation"]', {timeout: 20000});
    await assertNoSideways(page, `${what}, export and evaluation open`);
  }
  await page.click('#view-3d');
  await page.evaluate(() => window.raumTest.ready3d());
  await assertNoSideways(page, 'a game for four in 3D');

  // the analysis board, in 3D (the view chosen last) and in layers, with the engine's lines
  for (const [view, link] of [['3d', '/analysis?variant=wing-table-4p'], ['2d', '/analysis?variant=raumschach&moves=Bb2-Bb3']]) {
    await page.evaluate((v) => localStorage.setItem('raum:view', v), view);
    await page.goto(url(link));
    await page.evaluate(() => window.raumTest.ready);
    await page.waitForSelector('#engine-lines .engine-line', {timeout: 20000});
    await assertNoSideways(page, `the analysis board (${link}, ${view})`);
  }
  await page.screenshot({path: `${SHOTS}/analysis-phone.png`, fullPage: true});

  for (const v of ['five-up', 'wing-table-4p', 'octahedral']) {
    await page.goto(url(`/rules/${v}`));
    await page.waitForFunction(() => window.raumRulesReady === true);
    await assertNoSideways(page, `the rules of ${v}`);
  }
  await page.goto(url('/g/unknown'));
  await assertNoSideways(page, 'a missing game');
  noPageErrors(page);
  await context.close();
});

test('on a phone the status line and the last move are in view during a game', async () => {
  const game = await createGame({variant: 'five-up', mode: 'local', pgn: LONG});
  const {context, page} = await newPage(browser, {viewport: PHONE});
  await openGame(page, game.links.white);
  assert.equal(await page.evaluate(() => window.scrollY), 0);
  assert.ok(await inView(page, '#status'), 'the status line is in view');
  assert.match(await page.textContent('[data-testid="turn"]'), /White to move/);
  assert.ok(await inView(page, '[data-testid="last-move"]'), 'the last move is in view');
  assert.equal(await page.textContent('[data-testid="last-move"]'), 'Last: 30… De2');
  // a move played: the new one is the last
  await page.fill('#move-input', game.state.legal[0].coord);
  await page.press('#move-input', 'Enter');
  await waitPly(page, 61);
  await page.evaluate(() => window.scrollTo(0, 0));
  assert.ok(await inView(page, '[data-testid="last-move"]'));
  assert.match(await page.textContent('[data-testid="last-move"]'), /^Last: 31\. /);
  // scrolled down to the move list, the status stays in view
  await page.evaluate(() => document.querySelector('#moves').scrollIntoView());
  assert.ok((await page.evaluate(() => window.scrollY)) > 100, 'the page scrolled');
  assert.ok(await inView(page, '#status'), 'the status line stays in view');
  // a game for four (a taller board, and the legend of the sides), in both views
  const four = await createGame({variant: 'wing-table-4p', mode: 'local', pgn: FOUR});
  for (const view of ['2d', '3d']) {
    await page.evaluate((v) => localStorage.setItem('raum:view', v), view);
    await page.goto('about:blank'); // (the same link again would only change the fragment)
    await openGame(page, four.links.white);
    if (view === '3d') await page.evaluate(() => window.raumTest.ready3d());
    assert.equal(await page.evaluate(() => window.scrollY), 0);
    assert.ok(await inView(page, '#status'), `${view}: the status line is in view`);
    assert.ok(await inView(page, '[data-testid="last-move"]'), `${view}: the last move is in view`);
    assert.equal(await page.textContent('[data-testid="last-move"]'), 'Last: 4. 1g5-1f5');
  }
  noPageErrors(page);
  await context.close();
});

test('at 1366x768 the move list shows the last move with the export panel and an evaluation open', async () => {
  const game = await createGame({variant: 'five-up', mode: 'local', pgn: LONG});
  const {context, page} = await newPage(browser, {viewport: LAPTOP});
  await openGame(page, game.links.white);
  const last = (ply) => `#moves button.move[data-ply="${ply}"]`;
  assert.ok(await inView(page, last(60), '.moves-box'), 'the last move is in the list');
  await page.click('#export summary');
  await page.waitForSelector('#export-fields [data-testid="fen"]');
  assert.ok(await inView(page, last(60), '.moves-box'), 'with the export panel open');
  await page.click('#btn-eval');
  await page.waitForSelector('#analysis [data-testid="evaluation"]', {timeout: 20000});
  assert.ok(await inView(page, last(60), '.moves-box'), 'with the export panel and an evaluation open');
  // a move played, and a step back and forward: the list follows
  await page.fill('#move-input', game.state.legal[0].coord);
  await page.press('#move-input', 'Enter');
  await waitPly(page, 61);
  assert.ok(await inView(page, last(61), '.moves-box'), 'the move just played');
  await page.click('#nav-first');
  assert.ok(await inView(page, last(1), '.moves-box'), 'the first move, stepped back to');
  await page.click('#nav-last');
  assert.ok(await inView(page, last(61), '.moves-box'), 'the last move again');
  noPageErrors(page);
  await context.close();
});

test('the long moves of a game for four are never clipped', async () => {
  const game = await createGame({variant: 'wing-table-4p', mode: 'local', pgn: FOUR});
  for (const viewport of [LAPTOP, PHONE]) {
    const {context, page} = await newPage(browser, {viewport});
    await openGame(page, game.links.white);
    const moves = await page.$$eval('#moves button.move', (bs) => {
      const box = document.querySelector('.moves-box').getBoundingClientRect();
      return bs.map((b) => {
        const r = b.getBoundingClientRect();
        return {text: b.textContent, clipped: b.scrollWidth > b.clientWidth + 1 || r.left < box.left - 1 || r.right > box.right + 1};
      });
    });
    assert.equal(moves.length, 16);
    assert.ok(moves.some((m) => m.text === '1f12-1e10'));
    assert.deepEqual(moves.filter((m) => m.clipped).map((m) => m.text), [], `${viewport.width}x${viewport.height}: clipped moves`);
    const box = await page.$eval('.moves-box', (b) => ({scroll: b.scrollWidth, client: b.clientWidth}));
    assert.ok(box.scroll <= box.client, `the move list scrolls sideways at ${viewport.width}: ${JSON.stringify(box)}`);
    noPageErrors(page);
    await context.close();
  }
});

test('the game page names the pieces', async () => {
  for (const variant of ['five-up', 'wing-table', 'wing-table-4p']) {
    const info = await api('GET', `/api/variants/${variant}`);
    const game = await createGame(info.sides ? {variant, mode: 'local'} : {variant, mode: 'local'});
    const {context, page} = await newPage(browser, {viewport: LAPTOP});
    await openGame(page, game.links.white || Object.values(game.links)[0]);
    assert.ok(await page.isVisible('#piece-legend'), `${variant}: the legend is shown`);
    const items = await page.$$eval('#piece-legend .piece-legend-item', (xs) => xs.map((x) => [x.dataset.letter, x.textContent.trim()]));
    assert.equal(items.length, info.pieces.length, `${variant}: ${JSON.stringify(items)}`);
    for (const p of info.pieces) {
      const item = items.find(([letter]) => letter === p.letter);
      assert.ok(item, `${variant}: ${p.letter} in the legend`);
      assert.match(item[1].toLowerCase(), new RegExp(`${p.letter.toLowerCase()}\\s*${p.name.toLowerCase()}`), `${variant}: ${item[1]}`);
    }
    const text = (await page.textContent('#piece-legend')).toLowerCase();
    if (variant === 'five-up') for (const name of ['wizard', 'guard']) assert.ok(text.includes(name), `${variant}: ${text}`);
    else for (const name of ['airman', 'unicorn']) assert.ok(text.includes(name), `${variant}: ${text}`);
    noPageErrors(page);
    await context.close();
  }
});
