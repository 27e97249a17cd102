import { customAlphabet } from 'nanoid';

const base62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Characters of an id body that spell its creation time: 62^8 ms reach past the year 8000. */
const timeChars = 8;
const randomChars = customAlphabet(base62, 12);

/** `ms` is spelled as two halves of four digits, each a small integer. */
const halfDigits = 62 ** (timeChars / 2);

/**
 * `ms` as `timeChars` base62 digits, most significant first, so the text sorts as the number.
 * Split in halves below 2^31: `%` of a number past that is a call to C's fmod (a sixth of the
 * cost of an id, and a request makes several ids).
 */
export function timeDigits(ms: number): string {
  const whole = Math.max(0, Math.floor(ms));
  const high = Math.floor(whole / halfDigits) % halfDigits;
  return fourDigits(high) + fourDigits(whole - Math.floor(whole / halfDigits) * halfDigits);
}

function fourDigits(value: number): string {
  let rest = value;
  let digits = '';
  for (let i = 0; i < 4; i++) {
    digits = base62[rest % 62] + digits;
    rest = Math.floor(rest / 62);
  }
  return digits;
}

/** The id body made last: the next one of the same millisecond follows it. */
let last = { ms: -1, random: '' };

/** `random` plus one, as a base62 number of its length; null when it is all 'z'. */
function nextRandom(random: string): string | null {
  for (let i = random.length - 1; i >= 0; i--) {
    const digit = base62.indexOf(random[i] as string);
    if (digit < 61) return random.slice(0, i) + base62[digit + 1] + '0'.repeat(random.length - i - 1);
  }
  return null;
}

/**
 * A 20-character base62 id body that begins with its creation time: ids made later sort later,
 * so a new row's key lands at the right edge of each B-tree instead of on a random page, which
 * keeps an insert's writes to a page or two. The 12 random characters (about 71 bits) keep ids
 * made in the same millisecond apart, and within one process those follow each other: the
 * random part of the previous id plus one. So resources created one after another in the same
 * millisecond (a fast client, a group commit) list newest first, as `createdAt desc, id desc`
 * promises.
 */
export function timeOrderedIdBody(nowMs: number): string {
  const ms = Math.max(0, Math.floor(nowMs));
  const following = ms === last.ms ? nextRandom(last.random) : null;
  last = { ms, random: following ?? randomChars() };
  return timeDigits(ms) + last.random;
}

/** Random bytes are fetched 4 kB at a time: a system call per UUID would cost more than the rest. */
const pool = new Uint8Array(4096);
let poolOffset = pool.length;

/** Where the next `count` random bytes start in the pool (refilled when they would not fit). */
function takeRandom(count: number): number {
  if (poolOffset + count > pool.length) {
    globalThis.crypto.getRandomValues(pool);
    poolOffset = 0;
  }
  poolOffset += count;
  return poolOffset - count;
}

/** Each byte's two hex digits. */
const hex = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

/**
 * A version 7 UUID (RFC 9562): 48 bits of Unix milliseconds, then 74 random bits, so event ids,
 * too, are inserted in order into the indexes that hold them. Spelled digit by digit from the
 * pool (every request's id is one): no buffer is made for it.
 */
export function uuidV7(nowMs: number): string {
  // The 48 bits as 12 hex digits: 6 from each 24-bit half, small integers (see timeDigits).
  const ms = Math.max(0, Math.floor(nowMs));
  const high = Math.floor(ms / 2 ** 24) % 2 ** 24;
  const low = ms - Math.floor(ms / 2 ** 24) * 2 ** 24;
  const time = `${hex[high >> 16]}${hex[(high >> 8) & 0xff]}${hex[high & 0xff]}${hex[low >> 16]}`;
  const at = takeRandom(10);
  const r = (i: number) => pool[at + i] as number;
  return (
    `${time}-${hex[(low >> 8) & 0xff]}${hex[low & 0xff]}-` +
    // Version 7 in the high nibble of byte 6, the RFC's variant (0b10) in the top bits of byte 8.
    `${hex[0x70 | (r(0) & 0x0f)]}${hex[r(1)]}-${hex[0x80 | (r(2) & 0x3f)]}${hex[r(3)]}-` +
    `${hex[r(4)]}${hex[r(5)]}${hex[r(6)]}${hex[r(7)]}${hex[r(8)]}${hex[r(9)]}`
  );
}
