// Screenshots of the pages a player sees (issue 38), kept under
// target/browser/screens/: at 1920x1080, 1366x768 and 390x844, the lobby, a
// game in both views on a 5x5x5 and an 8x8x8 board, the analysis board and a
// finished game's review. Each must show the board's pieces (not a blank or
// half-drawn page); the README shows the best of them (docs/img/).

import {test, before, after} from 'node:test';
import {launch, newPage, url, api, createGame, openGame, screenshot, analysePng, assertShowsPieces, noPageErrors} from './helpers.mjs';

let browser;
before(async () => (browser = await launch()));
after(async () => browser && (await browser.close()));

const SIZES = [
  ['1920x1080', {width: 1920, height: 1080}],
  ['1366x768', {width: 1366, height: 768}],
  ['390x844', {width: 390, height: 844}],
];

// The seed's line: after 2. B-Ca1 Black mates at once.
const SEED = '[Variant "five-up"]\n\n1. P-Cc2 P-Cc4 2. B-Ca1 BxEb2 0-1\n';

/** Opens `link` in `view` and waits until its board is drawn. */
async function show(page, link, view) {
  await page.goto(url('/'));
  await page.evaluate((v) => localStorage.setItem('raum:view', v), view);
  await page.goto(url(link));
  await page.waitForFunction(() => window.raumTest && (window.raumTest.isReady === true || window.raumTest.node));
  if (view === '3d') await page.evaluate(() => window.raumTest.ready3d());
}

test('screenshots of the lobby, games in both views, the analysis board and a review', async () => {
  const fiveUp = await createGame({variant: 'five-up', mode: 'local', pgn: '[Variant "five-up"]\n\n1. P-Cc2 P-Cc4 2. P-Ec3 *\n'});
  const upright = await createGame({variant: 'betza-upright', mode: 'local'});
  const reviewed = await createGame({variant: 'five-up', mode: 'local', pgn: SEED});
  await api('POST', `/api/games/${reviewed.id}/review`, {});
  for (let i = 0; i < 300 && (await api('GET', `/api/games/${reviewed.id}/review`)).status !== 'done'; i++) await new Promise((r) => setTimeout(r, 100));

  for (const [size, viewport] of SIZES) {
    const {context, page} = await newPage(browser, {viewport});
    await page.goto(url('/'));
    await page.waitForFunction(() => window.raumLobbyReady === true);
    await screenshot(page, `screens/${size}-lobby.png`);
    for (const [name, game] of [['5x5x5', fiveUp], ['8x8x8', upright]]) {
      for (const view of ['2d', '3d']) {
        await show(page, game.links.white, view);
        const {png} = await screenshot(page.locator('#board-frame'), `screens/${size}-${name}-${view}-board.png`);
        if (size !== '390x844') assertShowsPieces(await analysePng(browser, png), `${size} ${name} ${view}`);
        await screenshot(page, `screens/${size}-${name}-${view}.png`);
      }
    }
    await show(page, '/analysis?variant=raumschach&moves=Bb2-Bb3+Dd4-Dd3', '2d');
    await page.waitForSelector('#engine-lines .engine-line', {timeout: 20000});
    await screenshot(page, `screens/${size}-analysis.png`);
    await show(page, reviewed.links.white, '2d');
    await page.waitForSelector('[data-testid="review-graph"]');
    await page.click('button.move[data-ply="3"]');
    await screenshot(page, `screens/${size}-review.png`);
    noPageErrors(page);
    await context.close();
  }
});
