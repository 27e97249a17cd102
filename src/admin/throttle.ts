import type { Clock } from '../core/extension-kit.js';
import { slidingWindow } from '../core/extension-kit.js';

/**
 * Sign-in attempts are limited twice: per client address (one machine guessing many accounts'
 * passwords) and per address and email (one machine guessing one account's password). Not per
 * email alone: then anybody, from anywhere, could lock the real admin out by failing on purpose.
 * The budgets are far below the API's, since each attempt is a password guess.
 */
export const signInLimits = { perAddress: 10, perAddressAndEmail: 5, windowMs: 60_000 } as const;

export interface SignInThrottle {
  /** Counts one attempt; when refused, says how many seconds until the next is allowed. */
  take(
    clientAddress: string,
    email: string,
  ): { allowed: true } | { allowed: false; retryAfterSeconds: number };
}

export function signInThrottle(clock: Clock): SignInThrottle {
  const attempts = slidingWindow();
  const { perAddress, perAddressAndEmail, windowMs } = signInLimits;
  return {
    take(clientAddress, email) {
      const now = clock.now();
      const pair = JSON.stringify([clientAddress, email.trim().toLowerCase()]);
      // The pair's budget is checked first: a refused guess at one account spends none of the
      // address's budget for the others.
      const account = attempts.take(`pair:${pair}`, now, perAddressAndEmail, windowMs);
      if (!account.allowed) return { allowed: false, retryAfterSeconds: account.resetSeconds };
      const address = attempts.take(`addr:${clientAddress}`, now, perAddress, windowMs);
      if (!address.allowed) return { allowed: false, retryAfterSeconds: address.resetSeconds };
      return { allowed: true };
    },
  };
}
