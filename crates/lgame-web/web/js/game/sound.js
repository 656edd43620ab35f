// @ts-check
// The game's sounds, made in the page (a WebAudio oscillator, no file): a game starting, each
// move, an end, an abort, low time. On unless the person turns them off; the choice is kept
// in the browser's storage (storage.js).

import { readOneOf, write } from '../storage.js';

/** @type {AudioContext | null} */
let audio = null;

/** Whether the sounds are on (they are until the person turns them off). */
export function soundOn() {
  return readOneOf('sound', ['on', 'off']) !== 'off';
}

/** @param {boolean} on */
export function setSound(on) {
  // Storage refused (a private window): the choice lasts this page only.
  write('sound', on ? 'on' : 'off');
}

/** The notes of each sound (Hz, one every 0.12 s) and how long it lasts (s). @type {Record<string, [number[], number]>} */
const TUNES = {
  mine: [[520], 0.12], theirs: [[390], 0.12], end: [[660, 880], 0.35], low: [[990, 0.0001, 990], 0.3],
  start: [[440, 660, 880], 0.45], abort: [[660, 440], 0.35],
};

/** The sounds played so far (for the tests: `window.lgameSounds`). @type {string[]} */
const played = [];
/** @type {any} */ (window).lgameSounds = played;

/**
 * A short knock for a move (lower for the other side's than for one's own), a rising chord
 * when a game starts, a falling one when it is aborted, two notes at its end, and a double
 * beep for one's own time running low.
 * @param {'mine' | 'theirs' | 'end' | 'low' | 'start' | 'abort'} kind
 */
export function moveSound(kind) {
  if (!soundOn()) return;
  played.push(kind);
  try {
    audio = audio || new AudioContext();
    const now = audio.currentTime;
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    const [notes, length] = TUNES[kind];
    tone.type = 'triangle';
    notes.forEach((hz, i) => tone.frequency.setValueAtTime(hz, now + i * 0.12));
    gain.gain.setValueAtTime(0.0001, now);
    gain.gain.exponentialRampToValueAtTime(0.18, now + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + length);
    tone.connect(gain).connect(audio.destination);
    tone.start(now);
    tone.stop(now + length + 0.05);
  } catch {
    // No audio on this machine: silence.
  }
}
