import type { DeliveryClaim } from '../../core/port/index.js';

/**
 * The fairness budget of one `claimDue`, shared by every adapter: admits deliveries while their
 * subscription and account have slots left, and names the subscriptions and accounts that have
 * none, so a query can leave their rows out instead of scanning past them.
 */
export interface ClaimBudget {
  /** Whether this delivery fits; when it does, its slots are taken. */
  admit(row: { subscriptionId: string; accountId: string }): boolean;
  /**
   * How many more deliveries of this subscription could be admitted now (its account's slots
   * aside): the most of its queue a claim need look at.
   */
  room(subscriptionId: string): number;
  /** Subscriptions known to have no slot left. */
  fullSubscriptions(): string[];
  fullAccounts(): string[];
}

/**
 * How far a thorough claim walks the due queue in order before it takes the head of each
 * subscription's queue instead (migration 12 on SQLite, 8 on PostgreSQL): pages of the claim's
 * size, at least 16 rows, `pagesBeforeHeads` of them (a dispatcher's claims of 64 walk 256 rows).
 * The walk costs what it reads; the heads cost about 10 µs for every subscription with
 * deliveries queued. Past a few pages of refused rows (a slow receiver's backlog) the heads are
 * the cheaper way on.
 */
export const pagesBeforeHeads = 4;
export const claimPageRows = (limit: number): number => Math.max(limit, 16);

export function claimBudget(claim: DeliveryClaim): ClaimBudget {
  // A lease ending by `now` would leave claimed rows due, and a claim loop would see them again.
  if (claim.leaseUntil <= claim.now) throw new RangeError("a claim's lease must end after its now");
  const subscriptionLeft = new Map<string, number>();
  const accountLeft = new Map<string, number>();
  for (const id of claim.fullSubscriptions ?? []) subscriptionLeft.set(id, 0);
  for (const id of claim.fullAccounts ?? []) accountLeft.set(id, 0);
  const unlimited = () => Number.POSITIVE_INFINITY;
  const slotsOfSubscription = claim.subscriptionSlots ?? unlimited;
  const slotsOfAccount = claim.accountSlots ?? unlimited;
  const full = (map: Map<string, number>) => [...map].filter(([, n]) => n <= 0).map(([key]) => key);
  return {
    admit({ subscriptionId, accountId }) {
      const sub = subscriptionLeft.get(subscriptionId) ?? slotsOfSubscription(subscriptionId);
      const acct = accountLeft.get(accountId) ?? slotsOfAccount(accountId);
      if (sub <= 0 || acct <= 0) {
        // Remember them as full, so the next query leaves their rows out.
        if (sub <= 0) subscriptionLeft.set(subscriptionId, 0);
        if (acct <= 0) accountLeft.set(accountId, 0);
        return false;
      }
      subscriptionLeft.set(subscriptionId, sub - 1);
      accountLeft.set(accountId, acct - 1);
      return true;
    },
    room: (subscriptionId) => subscriptionLeft.get(subscriptionId) ?? slotsOfSubscription(subscriptionId),
    fullSubscriptions: () => full(subscriptionLeft),
    fullAccounts: () => full(accountLeft),
  };
}

/** A claimed delivery: moved to `sending` under the claim's lease. */
export const leased = <D extends object>(delivery: D, claim: DeliveryClaim) => ({
  ...delivery,
  status: 'sending' as const,
  leaseId: claim.leaseId,
  leaseExpiresAt: claim.leaseUntil,
});

/** When a delivery may be claimed: a pending one when due, a sending one when its lease runs out. */
export function claimableAt(d: {
  status: string;
  nextAttemptAt: string | null;
  leaseExpiresAt: string | null;
}): string | null {
  if (d.status === 'pending') return d.nextAttemptAt;
  if (d.status === 'sending') return d.leaseExpiresAt;
  return null;
}
