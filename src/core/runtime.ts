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

export type IdPrefix =
  | 'acct'
  | 'ws'
  | 'usr'
  | 'tok'
  | 'prj'
  | 'out'
  | 'ctx'
  | 'dec'
  | 'iss'
  | 'te'
  | 'wh'
  | 'dlv'
  | 'att';

export const systemClock: Clock = { now: () => Date.now() };

const base62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Ids that sort by creation time, random from one millisecond to the next (see time-ordered-ids.ts). */
export const randomIds: Ids = {
  id: (prefix) => `${prefix}_${timeOrderedIdBody(Date.now())}`,
  uuid: () => uuidV7(Date.now()),
};

/** The secret part of an API token: 40 base62 characters (about 238 bits). */
export const tokenSecret = customAlphabet(base62, 40);

const recent = new Map<number, string>();

/**
 * RFC 3339 UTC with milliseconds, the only timestamp format the API speaks. The last few are
 * remembered: requests arriving within one millisecond (many, under load) format it once.
 */
export function isoTime(ms: number): string {
  let iso = recent.get(ms);
  if (iso === undefined) {
    iso = new Date(ms).toISOString();
    if (recent.size >= 8) recent.clear();
    recent.set(ms, iso);
  }
  return iso;
}
