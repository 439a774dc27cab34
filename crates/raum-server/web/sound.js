// The game page's sounds: a move, a capture, a check and the game's end,
// each a few short tones made with the Web Audio API (no audio files). Played
// when a move arrives (the player's own or another's), never when stepping
// through the move list. Off with the mute switch, remembered in
// localStorage (`raum:sound`). Where the browser has no AudioContext, or
// blocks it, the page plays nothing and says nothing.

const KEY = 'raum:sound';

/** Each sound: its notes [frequency Hz, start s, length s, wave, gain]; 0 Hz is a burst of noise. */
const SOUNDS = {
  move: [[660, 0, 0.07, 'triangle', 0.3]],
  capture: [
    [0, 0, 0.06, 'noise', 0.25],
    [330, 0, 0.11, 'square', 0.12],
  ],
  check: [
    [880, 0, 0.08, 'square', 0.1],
    [1175, 0.09, 0.12, 'square', 0.1],
  ],
  end: [
    [523, 0, 0.16, 'triangle', 0.28],
    [659, 0.16, 0.16, 'triangle', 0.28],
    [784, 0.32, 0.34, 'triangle', 0.3],
  ],
};

/** The sounds played (while not muted), in order: for the tests. */
export const played = [];

let context = null;
let unavailable = false;

/** Whether sounds are on (the default). */
export function soundOn() {
  try {
    return localStorage.getItem(KEY) !== 'off';
  } catch {
    return true;
  }
}

export function setSoundOn(on) {
  try {
    localStorage.setItem(KEY, on ? 'on' : 'off');
  } catch {
    // private mode: on for this page only
  }
}

function audio() {
  if (context || unavailable) return context;
  try {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (typeof Context !== 'function') throw new Error('no AudioContext');
    context = new Context();
  } catch {
    unavailable = true;
    context = null;
  }
  return context;
}

/** The mute switch: shows and flips the setting; the first gesture unlocks the page's audio. */
export function bindMuteSwitch(button) {
  const show = () => {
    const on = soundOn();
    button.setAttribute('aria-pressed', String(on));
    button.textContent = on ? '♪ Sound on' : '♪ Sound off';
  };
  show();
  button.addEventListener('click', () => {
    setSoundOn(!soundOn());
    show();
  });
  for (const type of ['pointerdown', 'keydown']) document.addEventListener(type, unlock, {once: true, capture: true});
}

/** Browsers let a page sound only after a gesture: called on the first click or key. */
export function unlock() {
  const c = audio();
  if (c && c.state === 'suspended') c.resume().catch(() => {});
}

function note(c, [freq, start, length, wave, gain]) {
  const t = c.currentTime + start;
  let source;
  if (wave === 'noise') {
    const buffer = c.createBuffer(1, Math.ceil(c.sampleRate * length), c.sampleRate);
    const data = buffer.getChannelData(0);
    for (let i = 0; i < data.length; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / data.length);
    source = c.createBufferSource();
    source.buffer = buffer;
  } else {
    source = c.createOscillator();
    source.type = wave;
    source.frequency.setValueAtTime(freq, t);
  }
  const env = c.createGain();
  env.gain.setValueAtTime(0.0001, t);
  env.gain.exponentialRampToValueAtTime(gain, t + 0.005);
  env.gain.exponentialRampToValueAtTime(0.0001, t + length);
  source.connect(env).connect(c.destination);
  source.start(t);
  source.stop(t + length + 0.02);
}

/** Plays `name` (move, capture, check, end) unless muted; never throws. */
export function play(name) {
  if (!SOUNDS[name] || !soundOn()) return;
  played.push(name);
  try {
    const c = audio();
    if (!c) return;
    if (c.state === 'suspended') c.resume().catch(() => {});
    for (const n of SOUNDS[name]) note(c, n);
  } catch {
    // a blocked or broken audio stack: silence
  }
}

/**
 * The sound for a new state after `old`: the game's end, else the last
 * move's check, capture (fewer men on the board after it) or plain move;
 * nothing when no event was added (a take-back, a draw offer, a step).
 * `menAt(ply)`: how many men stand after `ply` events.
 */
export function soundFor(old, state, menAt) {
  if (!old) return null;
  if (state.result && !old.result) return 'end';
  if (state.ply <= old.ply) return null;
  const last = state.moves[state.ply - 1];
  if (!last || last.kind === 'resign' || last.kind === 'time') return 'move';
  if (last.check) return 'check';
  return menAt(state.ply) < menAt(state.ply - 1) ? 'capture' : 'move';
}
