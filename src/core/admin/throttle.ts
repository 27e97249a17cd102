import { gcraRateLimiter } from '../pipeline/rate-limit.js';
import type { Clock } from '../runtime.js';

/**
 * Sign-in attempts are limited twice: per client address (one machine guessing many
 * accounts' passwords) and per email (many machines guessing one account's password).
 * The budgets are far below the API's, since each attempt is a password guess.
 */
export const signInLimits = { perAddress: 10, perEmail: 5, windowMs: 60_000 } as const;

export interface SignInThrottle {
  /** Counts one attempt; when refused, says how many seconds until the next is allowed. */
  take(
    clientAddress: string,
    email: string,
  ): { allowed: true } | { allowed: false; retryAfterSeconds: number };
}

export function signInThrottle(clock: Clock): SignInThrottle {
  const byAddress = gcraRateLimiter(
    { limit: signInLimits.perAddress, windowMs: signInLimits.windowMs },
    clock,
  );
  const byEmail = gcraRateLimiter({ limit: signInLimits.perEmail, windowMs: signInLimits.windowMs }, clock);
  return {
    take(clientAddress, email) {
      const address = byAddress.take(clientAddress);
      const account = byEmail.take(email.trim().toLowerCase());
      if (address.allowed && account.allowed) return { allowed: true };
      const waits = [address, account].filter((d) => !d.allowed).map((d) => d.resetSeconds);
      return { allowed: false, retryAfterSeconds: Math.max(...waits) };
    },
  };
}
