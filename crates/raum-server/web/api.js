// The JSON API of docs/api.md.

/** A refusal from the server: a 4xx/5xx with {"error": "..."}. */
export class ApiError extends Error {
  /** retryAfter: the seconds a refusal past a limit (429, 503) asks to wait, or null. */
  constructor(status, message, retryAfter = null) {
    super(message);
    this.status = status;
    this.retryAfter = retryAfter;
  }
}

/** The request never got an answer (network down, server gone). */
export class NetworkError extends Error {}

export async function api(method, path, body) {
  let response;
  try {
    response = await fetch(path, {
      method,
      headers: body === undefined ? {} : {'content-type': 'application/json'},
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: 'no-store',
    });
  } catch (e) {
    throw new NetworkError(`No answer from the server (${e.message})`);
  }
  let text;
  try {
    text = await response.text();
  } catch (e) {
    throw new NetworkError(`The answer was cut off (${e.message})`);
  }
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!response.ok) {
    const message = (data && typeof data.error === 'string' && data.error) || text || response.statusText;
    const wait = Number(response.headers.get('retry-after'));
    throw new ApiError(response.status, message, Number.isFinite(wait) && wait > 0 ? wait : null);
  }
  return data;
}

const variantCache = new Map();

/** GET /api/variants/{id}, cached for the page's life. */
export function getVariant(id) {
  if (!variantCache.has(id)) {
    const p = api('GET', `/api/variants/${encodeURIComponent(id)}`);
    p.catch(() => variantCache.delete(id));
    variantCache.set(id, p);
  }
  return variantCache.get(id);
}

export const getVariants = () => api('GET', '/api/variants');
export const getGame = (id) => api('GET', `/api/games/${encodeURIComponent(id)}`);
export const gamePath = (id, rest = '') => `/api/games/${encodeURIComponent(id)}${rest}`;

/** The seat this browser holds in a game: {token, color} kept per game id. */
export function loadSeat(id) {
  try {
    const seat = JSON.parse(localStorage.getItem(`raum:seat:${id}`) || 'null');
    return seat && typeof seat.token === 'string' ? seat : null;
  } catch {
    return null;
  }
}

export function saveSeat(id, seat) {
  try {
    localStorage.setItem(`raum:seat:${id}`, JSON.stringify(seat));
  } catch {
    // private mode: the URL fragment still carries the token
  }
}

/**
 * The seat this page holds in game `gameId`: from the address's fragment
 * (#t=TOKEN&c=SIDE), kept for the game, or kept before.
 */
export function readSeat(gameId) {
  const fragment = new URLSearchParams(location.hash.replace(/^#/, ''));
  const token = fragment.get('t');
  const color = fragment.get('c');
  let seat = loadSeat(gameId);
  // a side: 'white', 'black', or in a multi-player game 'red', 'blue', ...; 'both'/'all' at one screen
  const side = /^[a-z]+$/.test(color || '') && color !== 'both' && color !== 'all' ? color : null;
  if (token) {
    if (!seat || seat.token !== token) seat = {token, color: side};
    else if (side) seat.color = side;
    saveSeat(gameId, seat);
    // Once this browser keeps the seat, the token leaves the address bar (and
    // so the history, screenshots and shared addresses); where it cannot keep
    // it (private mode), the address is the only place it lives.
    const kept = loadSeat(gameId);
    if (kept && kept.token === token) history.replaceState(null, '', location.pathname + location.search);
  }
  return seat;
}

/** Links the creator of an online game shares: {opponent, spectate, color}. */
export function loadInvite(id) {
  try {
    return JSON.parse(localStorage.getItem(`raum:invite:${id}`) || 'null');
  } catch {
    return null;
  }
}

export function saveInvite(id, invite) {
  try {
    localStorage.setItem(`raum:invite:${id}`, JSON.stringify(invite));
  } catch {
    // ignore
  }
}

/** Adds the seat's colour to a link's fragment: /g/id#t=TOKEN&c=black. */
export function seatLink(link, color) {
  if (!link || !color || !link.includes('#')) return link;
  return /[#&]c=/.test(link) ? link : `${link}&c=${color}`;
}

export function absolute(link) {
  return new URL(link, location.origin).href;
}
