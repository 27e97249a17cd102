import type { Clock, Ids } from '../core/index.js';

const base62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A small, fast pseudo-random generator (mulberry32): the same seed gives the same numbers in [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function base62Digits(value: number, length: number): string {
  let rest = Math.max(0, Math.floor(value));
  let out = '';
  for (let i = 0; i < length; i++) {
    out = base62[rest % 62] + out;
    rest = Math.floor(rest / 62);
  }
  return out;
}

const hex = (value: number, length: number) => value.toString(16).padStart(length, '0');

/**
 * Ids in the tracker's own formats (`iss_` + 8 characters of creation time + 12 more; UUID v7
 * event ids) whose random parts come from `seed`: the same calls on a fresh test tracker make
 * the same ids. Within one millisecond each id follows the one before, as the tracker's do, so
 * they still list newest first under a clock that stands still.
 */
export function seededIds(seed: number, clock: Clock): Ids {
  const random = seededRandom(seed);
  const word = () => Math.floor(random() * 62 ** 6);
  let lastMs = -1;
  let counter = 0;
  let base: [number, number] = [0, 0];
  const body = () => {
    const ms = clock.now();
    if (ms !== lastMs) {
      lastMs = ms;
      counter = 0;
      // Room below the top of the random part, so the millisecond's ids can count up from it.
      base = [Math.floor(random() * 62 ** 5), word()];
    } else counter++;
    const low = base[1] + counter;
    return `${base62Digits(ms, 8)}${base62Digits(base[0] + Math.floor(low / 62 ** 6), 6)}${base62Digits(low % 62 ** 6, 6)}`;
  };
  return {
    id: (prefix) => `${prefix}_${body()}`,
    uuid: () => {
      const ms = Math.max(0, Math.floor(clock.now()));
      const time = hex(ms, 12);
      const r = () => Math.floor(random() * 0x10000);
      return (
        `${time.slice(0, 8)}-${time.slice(8, 12)}-${hex(0x7000 | (r() & 0x0fff), 4)}-` +
        `${hex(0x8000 | (r() & 0x3fff), 4)}-${hex(r(), 4)}${hex(r(), 4)}${hex(r(), 4)}`
      );
    },
  };
}
