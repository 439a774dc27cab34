// Shared helpers of the browser tests: Debian's chromium driven by
// playwright-core, against a running `raum serve` whose URL is in RAUM_URL.

import {chromium} from 'playwright-core';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import {fileURLToPath} from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

export const BASE = (process.env.RAUM_URL || 'http://127.0.0.1:8080/').replace(/\/?$/, '/');
export const SHOTS = process.env.RAUM_SCREENSHOTS || path.resolve(here, '../../target/browser');
export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
export const VIEWPORT = {width: 1280, height: 800};

export function url(p) {
  return new URL(p, BASE).href;
}

export async function launch() {
  return chromium.launch({
    executablePath: CHROMIUM,
    // playwright gives every launch a fresh, temporary user-data dir
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--enable-unsafe-swiftshader',
    ],
  });
}

/** A new context and page (at `viewport`, by default VIEWPORT); page errors fail the test that reads `errors`. */
export async function newPage(browser, {viewport = VIEWPORT} = {}) {
  const context = await browser.newContext({viewport});
  const page = await context.newPage();
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error' && !/WebSocket|Failed to load resource/.test(m.text())) page.errors.push(m.text());
  });
  page.setDefaultTimeout(15000);
  return {context, page};
}

/** JSON API call from the test itself. */
export async function api(method, p, body) {
  const res = await fetch(url(p), {
    method,
    headers: body === undefined ? {} : {'content-type': 'application/json'},
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let data = null;
  try {
    data = JSON.parse(text);
  } catch {
    data = text;
  }
  if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${text}`);
  return data;
}

export const getState = (id) => api('GET', `/api/games/${encodeURIComponent(id)}`);

export function gameIdOf(page) {
  return decodeURIComponent(new URL(page.url()).pathname.replace(/^\/g\//, ''));
}

/** Opens a game page and waits until its board is drawn. */
export async function openGame(page, link) {
  await page.goto(url(link));
  await page.waitForFunction(() => window.raumTest && window.raumTest.isReady === true);
}

export async function waitPly(page, ply, timeout = 15000) {
  await page.waitForFunction((n) => window.raumTest && window.raumTest.state && window.raumTest.state.ply === n, ply, {timeout});
}

const bareSan = (san) => san.replace(/[+#!?]+$/, '').replace(/^P-/, '');

/**
 * The legal move of a state with this coordinate form (and, if given, this
 * descriptive form up to check marks and a leading "P-").
 */
export function legalMove(state, coord, san) {
  const m = state.legal.find((x) => x.coord === coord);
  assert.ok(m, `${coord} is not among the legal moves: ${state.legal.map((x) => x.coord).join(' ')}`);
  if (san) assert.equal(bareSan(m.san), bareSan(san), `${coord} is written ${m.san}, expected ${san}`);
  return m;
}

/** Plays a move by two clicks on the layered view's cells. */
export async function clickMove2d(page, move) {
  await page.click(`.board2d [data-cell="${move.from}"]`);
  await page.waitForSelector(`.board2d [data-cell="${move.from}"].selected`);
  await page.waitForSelector(`.board2d [data-cell="${move.to}"].dest`);
  await page.click(`.board2d [data-cell="${move.to}"]`);
}

/** Plays a move by two clicks in the 3D canvas, at the projected cells. */
export async function clickMove3d(page, move) {
  const from = await page.evaluate((c) => window.raumTest.project(c), move.from);
  await page.mouse.click(from.x, from.y);
  const to = await page.evaluate((c) => window.raumTest.project(c), move.to);
  await page.mouse.click(to.x, to.y);
}

/** The moves the page lists, as text. */
export async function listedMoves(page) {
  return page.$$eval('#moves button.move', (bs) => bs.map((b) => b.textContent));
}

/** Contents of the layered view: cell name -> piece letters. */
export async function board2d(page) {
  return page.$$eval('.board2d .cell', (cells) => Object.fromEntries(cells.filter((c) => c.dataset.piece).map((c) => [c.dataset.name, c.dataset.piece])));
}

/**
 * Looks at a PNG in the browser: distinct colours, share of pixels unlike the
 * commonest colour, and counts of white-piece and black-piece pixels.
 */
export async function analysePng(browser, png) {
  const {context, page} = await newPage(browser);
  try {
    return await page.evaluate(async (b64) => {
      const img = new Image();
      img.src = `data:image/png;base64,${b64}`;
      await img.decode();
      const canvas = document.createElement('canvas');
      canvas.width = img.width;
      canvas.height = img.height;
      const g = canvas.getContext('2d');
      g.drawImage(img, 0, 0);
      const data = g.getImageData(0, 0, img.width, img.height).data;
      const counts = new Map();
      let white = 0;
      let black = 0;
      for (let i = 0; i < data.length; i += 4) {
        const r = data[i], gr = data[i + 1], b = data[i + 2];
        const key = (r << 16) | (gr << 8) | b;
        counts.set(key, (counts.get(key) || 0) + 1);
        if (r > 238 && gr > 238 && b > 238) white++;
        if (Math.max(r, gr, b) <= 24) black++;
      }
      const pixels = data.length / 4;
      const commonest = Math.max(...counts.values());
      return {width: img.width, height: img.height, colors: counts.size, nonBackground: 1 - commonest / pixels, white, black};
    }, png.toString('base64'));
  } finally {
    await context.close();
  }
}

export async function screenshot(locator, name) {
  fs.mkdirSync(SHOTS, {recursive: true});
  const file = path.join(SHOTS, name);
  const png = await locator.screenshot({path: file});
  return {file, png};
}

export function assertShowsPieces(stats, what) {
  assert.ok(stats.width > 300 && stats.height > 200, `${what}: screenshot too small (${stats.width}x${stats.height})`);
  assert.ok(stats.colors > 150, `${what}: only ${stats.colors} distinct colours: blank?`);
  assert.ok(stats.nonBackground > 0.08, `${what}: ${(stats.nonBackground * 100).toFixed(1)}% of pixels differ from the background`);
  assert.ok(stats.white > 150, `${what}: only ${stats.white} white-piece pixels`);
  assert.ok(stats.black > 150, `${what}: only ${stats.black} black-piece pixels`);
}

export function noPageErrors(...pages) {
  for (const p of pages) assert.deepEqual(p.errors, [], `errors on ${p.url()}`);
}

/** Creates a game through the API: {id, tokens, links, state}. */
export function createGame(body) {
  return api('POST', '/api/games', body);
}

/**
 * A TCP proxy in front of the server, so that a test can drop a page's
 * network for real rather than close its WebSocket cleanly: `cut()` resets
 * every connection through the proxy (RST both ways: the browser sees its
 * socket fail, the server a peer gone without a close frame) and resets each
 * new one until `restore()`; `drop()` resets the open ones and lets new ones
 * through. Open a page at `url` (a link made for the server, re-based) to put
 * it behind the proxy. `resets` counts the connections reset.
 */
export async function startProxy(target = BASE) {
  const to = new URL(target);
  const pairs = new Set();
  let refusing = false;
  let resets = 0;
  const reset = (socket) => {
    if (socket.destroyed) return;
    if (socket.connecting) socket.destroy();
    else socket.resetAndDestroy();
  };
  const server = net.createServer((client) => {
    client.on('error', () => {});
    if (refusing) {
      resets++;
      reset(client);
      return;
    }
    const upstream = net.connect(Number(to.port), to.hostname);
    upstream.on('error', () => {});
    const pair = {client, upstream};
    pairs.add(pair);
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end);
    upstream.on('close', end);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const base = `http://127.0.0.1:${server.address().port}/`;
  const proxy = {
    url: (link) => {
      const u = new URL(link, BASE);
      return new URL(u.pathname + u.search + u.hash, base).href;
    },
    get open() {
      return pairs.size;
    },
    get resets() {
      return resets;
    },
    drop() {
      for (const pair of [...pairs]) {
        pairs.delete(pair);
        resets++;
        reset(pair.client);
        reset(pair.upstream);
      }
    },
    cut() {
      refusing = true;
      proxy.drop();
    },
    restore() {
      refusing = false;
    },
    close() {
      proxy.cut();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
  return proxy;
}
