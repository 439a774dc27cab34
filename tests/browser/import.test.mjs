// Games started in the lobby from a position string and from a game record;
// the promotion picker; clocks counting down between server states.

import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {launch, newPage, url, getState, gameIdOf, legalMove, waitPly, listedMoves, board2d, noPageErrors} from './helpers.mjs';

let browser;
before(async () => (browser = await launch()));
after(async () => browser && (await browser.close()));

async function createFromLobby(page, {start, text, clock}) {
  await page.goto(url('/'));
  await page.waitForFunction(() => window.raumLobbyReady === true);
  await page.selectOption('#variant', 'five-up');
  await page.click('label.seg-radio:has(input[value="local"])');
  await page.click(`label.seg-radio:has(input[name="start"][value="${start}"])`);
  await page.fill('#start-text', text);
  if (clock) {
    await page.check('#use-clock');
    await page.fill('#clock-minutes', String(clock.minutes));
    await page.fill('#clock-increment', String(clock.increment));
  }
  await page.click('#create');
  await page.waitForURL(/\/g\/[^#]+/);
  await page.waitForFunction(() => window.raumTest && window.raumTest.isReady === true);
  return gameIdOf(page);
}

test('a position string with a promotion: the picker offers every piece', async () => {
  const {context, page} = await newPage(browser);
  // White's pawn on Ba5 promotes on Aa5 (the seed's promotion row); a clock of 5+2
  const fen = '2k2|5|5|5|5/P4|5|5|5|5/5|5|5|5|5/5|5|5|5|4p/5|5|5|5|2K2 w - - 0 1';
  const id = await createFromLobby(page, {start: 'fen', text: fen, clock: {minutes: 5, increment: 2}});
  let state = await getState(id);
  assert.equal(state.start, fen);
  assert.ok(state.clock, 'the game has a clock');

  const promotions = state.legal.filter((m) => m.coord.startsWith('Ba5-Aa5='));
  assert.ok(promotions.length >= 2, 'several promotions');
  const cell = (name) => `.board2d [data-name="${name}"]`;
  await page.click(cell('Ba5'));
  await page.click(cell('Aa5'));
  await page.waitForSelector('#promotion:not([hidden])');
  const offered = await page.$$eval('#promotion .promo-choice', (bs) => bs.map((b) => b.dataset.promotion).sort());
  assert.deepEqual(offered, promotions.map((m) => m.promotion).sort());
  await page.click('#promotion .promo-choice[data-promotion="W"]');
  await waitPly(page, 1);
  state = await getState(id);
  assert.equal(state.moves[0].coord, 'Ba5-Aa5=W');
  assert.equal((await board2d(page)).Aa5, 'W');
  // the clock starts with the first move; the running one counts down on the
  // page between server states
  assert.equal(state.clock.running, 'black');
  const black = '.clock[data-color="black"]';
  await page.waitForSelector(`${black}.running`);
  const t0 = await page.textContent(black);
  assert.match(t0, /^\d+:\d\d$/, `Black's clock reads ${t0}`);
  await page.waitForFunction(({sel, t}) => document.querySelector(sel).textContent !== t, {sel: black, t: t0});
  const seconds = (t) => t.split(':').reduce((a, b) => a * 60 + Number(b), 0);
  const t1 = await page.textContent(black);
  assert.ok(seconds(t1) < seconds(t0), `Black's clock went from ${t0} to ${t1}`);
  assert.ok(!(await page.$('.clock[data-color="white"].running')));
  noPageErrors(page);
  await context.close();
});

test('a game record continues where it stopped', async () => {
  const {context, page} = await newPage(browser);
  const pgn = '[Variant "five-up"]\n[White "Ann"]\n[Black "Bob"]\n\n1. P-Cc2 P-Cc4 2. B-Ca1 *\n';
  const id = await createFromLobby(page, {start: 'pgn', text: pgn});
  const state = await getState(id);
  assert.equal(state.ply, 3);
  assert.deepEqual(state.moves.map((m) => m.coord), ['Dc2-Cc2', 'Bc4-Cc4', 'Db1-Ca1']);
  assert.deepEqual(await listedMoves(page), state.moves.map((m) => m.san));
  const mate = legalMove(state, 'Bb5-Eb2', 'BxEb2#');
  await page.fill('#move-input', mate.san);
  await page.press('#move-input', 'Enter');
  await page.waitForSelector('#result:not([hidden])');
  assert.equal((await page.textContent('[data-testid="result"]')).trim(), '0-1, checkmate');
  noPageErrors(page);
  await context.close();
});
