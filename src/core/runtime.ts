import { customAlphabet } from 'nanoid';
import { timeOrderedIdBody, uuidV7 } from './time-ordered-ids.js';

/** Where the core gets the time: injected so tests (and fast-check) can drive it. */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

/** Where the core gets identifiers: injected so tests can make them deterministic. */
export interface Ids {
  /** A new prefixed id such as `iss_3kT9…`. */
  id(prefix: IdPrefix): string;
  /** A new UUID (RFC 9562), for event ids. */
  uuid(): string;
}

/**
 * The id prefixes, as the keys of an interface so that a family brings its own from its folder
 * (`declare module '../../runtime.js' { interface IdPrefixes { ms: true } }`) instead of an
 * edit here; `npm run new-family` writes that declaration.
 */
export interface IdPrefixes {
  acct: true;
  ws: true;
  usr: true;
  tok: true;
  prj: true;
  out: true;
  ctx: true;
  dec: true;
  iss: true;
  te: true;
  cmt: true;
  rel: true;
  view: true;
  wh: true;
  dlv: true;
  att: true;
}
export type IdPrefix = keyof IdPrefixes;

export const systemClock: Clock = { now: () => Date.now() };

const base62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Ids that sort by creation time, random from one millisecond to the next (see time-ordered-ids.ts). */
export const randomIds: Ids = {
  id: (prefix) => `${prefix}_${timeOrderedIdBody(Date.now())}`,
  uuid: () => uuidV7(Date.now()),
};

/** The secret part of an API token: 40 base62 characters (about 238 bits). */
export const tokenSecret = customAlphabet(base62, 40);

/** "YYYY-MM-DDTHH:MM:" of the last few minutes formatted, by the minute's number since the epoch. */
const minutes = new Map<number, string>();

/** Two-digit and three-digit zero-padded numbers, for the seconds and milliseconds. */
const twoDigits = Array.from({ length: 60 }, (_, n) => String(n).padStart(2, '0'));
const threeDigits = Array.from({ length: 1000 }, (_, n) => String(n).padStart(3, '0'));

/**
 * RFC 3339 UTC with milliseconds, the only timestamp format the API speaks: what
 * `Date.prototype.toISOString` says. That costs a formatted print in C each time (a fiftieth of a
 * create, which dates itself and the expiry of idempotency keys); the calendar part is formatted
 * once a minute instead, and the seconds and milliseconds appended.
 */
export function isoTime(ms: number): string {
  // A Date drops a fraction of a millisecond toward zero.
  const whole = Math.trunc(ms);
  const minute = Math.floor(whole / 60_000);
  let prefix = minutes.get(minute);
  if (prefix === undefined) {
    const iso = new Date(minute * 60_000).toISOString();
    // Years past 9999 (or before 0) are spelled with six digits and a sign: printed whole.
    if (iso.length !== 24) return new Date(whole).toISOString();
    prefix = iso.slice(0, 17);
    if (minutes.size >= 8) minutes.clear();
    minutes.set(minute, prefix);
  }
  const within = whole - minute * 60_000;
  const seconds = Math.floor(within / 1000);
  return `${prefix}${twoDigits[seconds]}.${threeDigits[within - seconds * 1000]}Z`;
}
