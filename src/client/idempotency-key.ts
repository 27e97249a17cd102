/** Each byte's two hex digits. */
const hex = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

/** The last millisecond a version 7 UUID can tell: its time has 48 bits. */
const lastMs = 2 ** 48 - 1;

/**
 * A version 7 UUID (RFC 9562) for an Idempotency-Key: 48 bits of Unix milliseconds, then 74
 * random bits. Keys of later milliseconds sort later, so the keys a client sends land next to
 * each other in the server's index of keys, on the page it wrote last, where a random key lands
 * on a random page that the database must write out at its next commit (about 5 % of a create's
 * CPU on the server's SQLite file). The random bits keep keys of one millisecond, and of
 * different clients, apart. `nowMs` is the time the key tells (now by default), a whole number
 * of milliseconds from 0 to 2^48 - 1 (a RangeError otherwise). Web Crypto only: the client runs
 * in browsers too.
 */
export function timeOrderedKey(nowMs: number = Date.now()): string {
  if (!Number.isInteger(nowMs) || nowMs < 0 || nowMs > lastMs) {
    throw new RangeError(`a version 7 UUID tells a whole millisecond from 0 to 2^48 - 1, not ${nowMs}`);
  }
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  let ms = nowMs;
  for (let i = 5; i >= 0; i--) {
    bytes[i] = ms % 256;
    ms = Math.floor(ms / 256);
  }
  // Version 7 in the high nibble of byte 6, the RFC's variant (0b10) in the top bits of byte 8.
  bytes[6] = 0x70 | ((bytes[6] as number) & 0x0f);
  bytes[8] = 0x80 | ((bytes[8] as number) & 0x3f);
  const h = (from: number, to: number) => {
    let text = '';
    for (let i = from; i < to; i++) text += hex[bytes[i] as number];
    return text;
  };
  return `${h(0, 4)}-${h(4, 6)}-${h(6, 8)}-${h(8, 10)}-${h(10, 16)}`;
}
