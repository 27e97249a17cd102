import { randomFillSync } from 'node:crypto';
import { customAlphabet } from 'nanoid';

const base62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Characters of an id body that spell its creation time: 62^8 ms reach past the year 8000. */
const timeChars = 8;
const randomChars = customAlphabet(base62, 12);

/** `ms` as `timeChars` base62 digits, most significant first, so the text sorts as the number. */
function timeDigits(ms: number): string {
  let rest = Math.max(0, Math.floor(ms));
  let digits = '';
  for (let i = 0; i < timeChars; i++) {
    digits = base62[rest % 62] + digits;
    rest = Math.floor(rest / 62);
  }
  return digits;
}

/**
 * A 20-character base62 id body that begins with its creation time: ids made later sort later,
 * so a new row's key lands at the right edge of each B-tree instead of on a random page, which
 * keeps an insert's writes to a page or two. The 12 random characters (about 71 bits) keep ids
 * made in the same millisecond apart.
 */
export const timeOrderedIdBody = (nowMs: number): string => timeDigits(nowMs) + randomChars();

/** Random bytes are fetched 4 kB at a time: a system call per UUID would cost more than the rest. */
const pool = new Uint8Array(4096);
let poolOffset = pool.length;

function randomBytes16(): Uint8Array {
  if (poolOffset + 16 > pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  poolOffset += 16;
  return pool.slice(poolOffset - 16, poolOffset);
}

/**
 * A version 7 UUID (RFC 9562): 48 bits of Unix milliseconds, then 74 random bits, so event ids,
 * too, are inserted in order into the indexes that hold them.
 */
export function uuidV7(nowMs: number): string {
  const bytes = randomBytes16();
  let ms = Math.max(0, Math.floor(nowMs));
  for (let i = 5; i >= 0; i--) {
    bytes[i] = ms % 256;
    ms = Math.floor(ms / 256);
  }
  bytes[6] = 0x70 | ((bytes[6] as number) & 0x0f);
  bytes[8] = 0x80 | ((bytes[8] as number) & 0x3f);
  const hex = Buffer.from(bytes).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
