import { ApiError } from '../errors.js';
import { rateKeys } from './rate-key.js';
import type { RateLimitDecision } from './rate-limit.js';
import type { ParsedRequest } from './request.js';
import type { Target } from './request-state.js';
import type { TrackerRuntime } from './runtime.js';

/** Each runtime's rate-limit keys (which remember token ids by hash). */
const rateKeysOf = new WeakMap<TrackerRuntime, ReturnType<typeof rateKeys>>();

/**
 * Counts the request against its token's budget, or its client address's when it has no valid
 * token. Called once per request, outside the storage transaction.
 */
export async function takeRate(
  rt: TrackerRuntime,
  req: ParsedRequest,
  target: Target,
): Promise<RateLimitDecision | null> {
  if (!rt.limiter) return null;
  if (!target.needsToken) return rt.limiter.take(`addr:${req.clientAddress}`);
  let keyOf = rateKeysOf.get(rt);
  if (!keyOf) {
    keyOf = rateKeys(rt.storage, () => rt.clock.now());
    rateKeysOf.set(rt, keyOf);
  }
  return rt.limiter.take(await keyOf(req.headers.authorization, req.clientAddress));
}

/**
 * Counts `more` requests on top of the one taken for the request, one by one as the limiter
 * counts them (a shared store admits at most its limit whatever runs beside), stopping at the
 * first refused: the decision of the last one taken.
 */
export async function takeMoreRate(
  rt: TrackerRuntime,
  req: ParsedRequest,
  target: Target,
  more: number,
  first: RateLimitDecision,
): Promise<RateLimitDecision> {
  let decision = first;
  for (let i = 0; i < more && decision.allowed; i++) {
    decision = (await takeRate(rt, req, target)) ?? decision;
  }
  return decision;
}

/** Throws the 429 of a refused decision. */
export function refuseIfLimited(rate: RateLimitDecision | null): void {
  if (rate && !rate.allowed) {
    throw new ApiError(429, 'rate_limited', `Too many requests; retry in ${rate.resetSeconds} s.`, {
      retryAfter: rate.resetSeconds,
    });
  }
}
