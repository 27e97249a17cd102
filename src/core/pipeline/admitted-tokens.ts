import { hashToken } from '../tenancy/token-hash.js';
import { bearerToken } from './auth.js';
import type { TrackerRuntime } from './runtime.js';

/** How long a token that authenticated lets its requests' bodies be read without a read first. */
export const admittedForMs = 60_000;
/** How many tokens are remembered; when full, the memory starts afresh. */
const rememberedTokens = 10_000;

/**
 * The tokens (by hash) that authenticated on this runtime lately. A body still arriving is read
 * only once its token authenticates (admit-body.ts), which is a read of the storage of its own
 * before the request's transaction: on a Citus cluster, a statement planned on two nodes. A token
 * seen valid within `admittedForMs` skips that read; the transaction authenticates it as always.
 * A token revoked since then has one body read more, then is forgotten (its request is refused
 * 401 in the transaction, and `forget` drops it): strangers, whose tokens never authenticated,
 * are refused unread as before.
 */
class AdmittedTokens {
  private readonly until = new Map<string, number>();

  has(hash: string, nowMs: number): boolean {
    const until = this.until.get(hash);
    return until !== undefined && until > nowMs;
  }

  add(hash: string, nowMs: number): void {
    if (this.until.size >= rememberedTokens) this.until.clear();
    this.until.set(hash, nowMs + admittedForMs);
  }

  forget(hash: string): void {
    this.until.delete(hash);
  }
}

const admittedOf = new WeakMap<TrackerRuntime, AdmittedTokens>();

function admitted(rt: TrackerRuntime): AdmittedTokens {
  let tokens = admittedOf.get(rt);
  if (!tokens) {
    tokens = new AdmittedTokens();
    admittedOf.set(rt, tokens);
  }
  return tokens;
}

const hashOf = (authorization: string | undefined): string | null => {
  const token = bearerToken(authorization);
  return token === null ? null : hashToken(token);
};

/** Whether the request's token authenticated on `rt` within the last `admittedForMs`. */
export function admittedLately(rt: TrackerRuntime, authorization: string | undefined): boolean {
  const hash = hashOf(authorization);
  return hash !== null && admitted(rt).has(hash, rt.clock.now());
}

/** Remembers that the request's token authenticated now. */
export function noteAdmitted(rt: TrackerRuntime, authorization: string | undefined): void {
  const hash = hashOf(authorization);
  if (hash !== null) admitted(rt).add(hash, rt.clock.now());
}

/** Forgets the request's token: it no longer authenticates. */
export function forgetAdmitted(rt: TrackerRuntime, authorization: string | undefined): void {
  const hash = hashOf(authorization);
  if (hash !== null) admitted(rt).forget(hash);
}
