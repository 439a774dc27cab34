// Three moves against Raum's engine at level 1, made from the lobby: by a
// click, by a typed coordinate move and by a typed descriptive move; the
// engine's replies appear; evaluation and take-back.

import {test, before, after} from 'node:test';
import assert from 'node:assert/strict';
import {launch, newPage, url, getState, gameIdOf, legalMove, clickMove2d, waitPly, listedMoves, noPageErrors} from './helpers.mjs';

let browser;
before(async () => (browser = await launch()));
after(async () => browser && (await browser.close()));

// quiet pawn moves that keep the seed's Eb2 mate away; the first legal one is played
const CANDIDATES = ['Dc2-Cc2', 'Dd2-Cd2', 'Da2-Ca2', 'De2-Ce2', 'Dd2-Dd3', 'Da2-Da3', 'De2-De3', 'Ea2-Ea3', 'Ee2-Ee3', 'Ed2-Ed3'];

async function myTurn(page, ply) {
  await page.waitForFunction(
    (n) => {
      const s = window.raumTest.state;
      return s && s.ply === n && s.side === 'white' && !(s.engine && s.engine.thinking);
    },
    ply,
    {timeout: 30000},
  );
}

test('three moves against the engine at level 1, each answered', async (t) => {
  const {context, page} = await newPage(browser);
  await page.goto(url('/'));
  await page.waitForFunction(() => window.raumLobbyReady === true);
  await page.selectOption('#variant', 'five-up');
  await page.click('label.seg-radio:has(input[value="engine"])');
  await page.check('input[name="strength"][value="level"]');
  // Every level, each with the Elo measured in this game, the top one the full engine.
  const levels = await page.$$eval('#level option', (o) => o.map((x) => x.textContent));
  assert.ok(levels.length >= 10, levels.join(', '));
  assert.match(levels[0], /^1 \(Elo \d+\)$/);
  assert.equal(levels[levels.length - 1], `${levels.length} (full strength)`);
  await page.selectOption('#level', '1');
  await page.click('label.seg-radio:has(input[name="color"][value="white"])');
  await page.click('#create');
  await page.waitForURL(/\/g\/[^#]+/);
  await page.waitForFunction(() => window.raumTest && window.raumTest.isReady === true);
  const id = gameIdOf(page);
  let state = await getState(id);
  assert.equal(state.mode, 'engine');
  assert.equal(state.engine.color, 'black');
  assert.equal(state.engine.level, 1);

  // The engine's replies differ from game to game (its choices are seeded by
  // the game's id): where they leave none of the candidates legal (White in
  // check, say), any legal move that is no promotion will do.
  const pick = (s) => {
    const m = CANDIDATES.map((c) => s.legal.find((x) => x.coord === c)).find(Boolean);
    if (m) return m;
    const other = s.legal.find((x) => !x.promotion) || s.legal[0];
    t.diagnostic(`no candidate legal after ${s.moves.map((x) => x.coord).join(' ')} (check: ${JSON.stringify(s.check)}): playing ${other && other.coord}`);
    return other;
  };

  // 1: by clicks
  await myTurn(page, 0);
  const first = pick(await getState(id));
  await clickMove2d(page, first);
  await myTurn(page, 2);

  // an illegal typed move is refused with the server's message
  await page.fill('#move-input', 'Ec1-Ec5');
  await page.press('#move-input', 'Enter');
  await page.waitForSelector('#error:not([hidden])');
  assert.ok((await page.textContent('#error')).trim().length > 3);
  assert.equal((await getState(id)).ply, 2);

  // 2: typed in coordinates
  const second = pick(await getState(id));
  await page.fill('#move-input', second.coord);
  await page.press('#move-input', 'Enter');
  await myTurn(page, 4);

  // 3: typed in descriptive notation
  const third = pick(await getState(id));
  await page.fill('#move-input', third.san);
  await page.click('#move-form button[type="submit"]');
  await myTurn(page, 6);

  state = await getState(id);
  assert.equal(state.ply, 6);
  assert.deepEqual(state.moves.filter((m) => m.color === 'white').map((m) => m.coord), [first.coord, second.coord, third.coord]);
  assert.equal(state.moves.filter((m) => m.color === 'black').length, 3, 'the engine answered every move');
  assert.deepEqual(await listedMoves(page), state.moves.map((m) => m.san));
  assert.equal(state.result, null);

  // evaluation and best line on request
  await page.click('#btn-eval');
  await page.waitForSelector('#analysis:has-text("Evaluation")', {timeout: 20000});
  assert.match(await page.textContent('#analysis'), /Best/);

  // hint marks a move on the board
  await page.click('#btn-hint');
  await page.waitForSelector('#analysis:has-text("Hint")', {timeout: 20000});
  await page.waitForSelector('.board2d .cell.hint');

  // take back: back to the person's turn, one move pair less
  await page.click('#btn-undo');
  await page.waitForFunction(() => window.raumTest.state.ply === 4);
  state = await getState(id);
  assert.equal(state.ply, 4);
  assert.equal(state.side, 'white');
  assert.equal((await listedMoves(page)).length, 4);
  noPageErrors(page);
  await context.close();
});
