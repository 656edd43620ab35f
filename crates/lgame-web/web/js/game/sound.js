// @ts-check
// Move sounds, made in the page (a WebAudio oscillator, no file): off unless the person turns
// them on; the choice is kept in the browser's storage (storage.js).

import { readOneOf, write } from '../storage.js';

/** @type {AudioContext | null} */
let audio = null;

/** Whether move sounds are on. */
export function soundOn() {
  return readOneOf('sound', ['on', 'off']) === 'on';
}

/** @param {boolean} on */
export function setSound(on) {
  // Storage refused (a private window): the choice lasts this page only.
  write('sound', on ? 'on' : 'off');
}

/**
 * A short knock for a move: lower for the other side's than for one's own; a high double
 * beep for one's own time running low.
 * @param {'mine' | 'theirs' | 'end' | 'low'} kind
 */
export function moveSound(kind) {
  if (!soundOn()) return;
  try {
    audio = audio || new AudioContext();
    const now = audio.currentTime;
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.type = 'triangle';
    tone.frequency.setValueAtTime({ mine: 520, theirs: 390, end: 660, low: 990 }[kind], now);
    if (kind === 'end') tone.frequency.setValueAtTime(880, now + 0.12);
    if (kind === 'low') tone.frequency.setValueAtTime(0.0001, now + 0.08).setValueAtTime(990, now + 0.16);
    gain.gain.setValueAtTime(0.0001, now);
    gain.gain.exponentialRampToValueAtTime(0.18, now + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + (kind === 'end' ? 0.35 : 0.12));
    tone.connect(gain).connect(audio.destination);
    tone.start(now);
    tone.stop(now + 0.4);
  } catch {
    // No audio on this machine: silence.
  }
}
