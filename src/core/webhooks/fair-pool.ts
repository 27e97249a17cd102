import type { DeliveryClaim } from '../storage.js';

/** How the dispatcher shares its delivery slots. */
export interface FairPoolOptions {
  /** Slots of the main pool: attempts in flight at once, slow ones apart. */
  concurrency: number;
  /** Main-pool slots one subscription may hold. Default: half the pool (at least 1). */
  perSubscription?: number;
  /** Main-pool slots one account may hold. Default: three quarters of the pool (at least 1). */
  perAccount?: number;
  /** An attempt still unanswered after this long is slow (default 1 s). */
  slowAfterMs?: number;
}

interface InFlight {
  subscriptionId: string;
  accountId: string;
  slow: boolean;
  timer: ReturnType<typeof setTimeout> | null;
}

/**
 * The dispatcher's slots, shared so that hanging receivers cannot starve healthy ones:
 *
 * - a main pool of `concurrency` slots, with per-subscription and per-account caps;
 * - an attempt unanswered after `slowAfterMs` moves to a separate slow pool (as large as the
 *   main one) and gives its main slot back, so receivers that hang or crawl stop holding the
 *   slots healthy receivers need;
 * - a subscription known to be slow (an attempt of it moved to the slow pool, or its last attempt
 *   took `slowAfterMs` or more) gets at most one attempt in flight, taken from the slow pool;
 *   each account holds at most a quarter of the slow pool.
 *
 * So a healthy receiver's delivery waits at most `slowAfterMs` for a slot, however many of the
 * other accounts' receivers hang, as long as the hanging attempts fit in the slow pool: that
 * takes more than `concurrency` slow subscriptions spread over at least four accounts.
 */
export class FairPool {
  readonly concurrency: number;
  private readonly perSubscription: number;
  private readonly perAccount: number;
  private readonly slowPerAccount: number;
  private readonly slowAfterMs: number;
  private readonly attempts = new Map<number, InFlight>();
  private nextToken = 0;
  private main = 0;
  private slow = 0;
  private readonly mainBySubscription = new Map<string, number>();
  private readonly mainByAccount = new Map<string, number>();
  private readonly slowBySubscription = new Map<string, number>();
  private readonly slowByAccount = new Map<string, number>();
  /** Subscriptions whose receivers were slow lately, with their account (bounded: oldest forgotten first). */
  private readonly slowSubscriptions = new Map<string, string>();
  private readonly onChange: () => void;

  constructor(options: FairPoolOptions, onChange: () => void) {
    this.concurrency = Math.max(1, Math.floor(options.concurrency));
    this.perSubscription = options.perSubscription ?? Math.max(1, Math.floor(this.concurrency / 2));
    this.perAccount = options.perAccount ?? Math.max(1, Math.ceil((this.concurrency * 3) / 4));
    this.slowPerAccount = Math.max(1, Math.floor(this.concurrency / 4));
    this.slowAfterMs = options.slowAfterMs ?? 1000;
    this.onChange = onChange;
  }

  /** Attempts in flight, main and slow pools together. */
  get inFlight(): number {
    return this.attempts.size;
  }

  /** Free main-pool slots. */
  get free(): number {
    return this.concurrency - this.main;
  }

  /**
   * The budget of the next claim: the free main slots. A slow subscription's delivery needs one
   * to be claimed, but its attempt then runs in the slow pool.
   */
  budget(): Pick<
    DeliveryClaim,
    'limit' | 'subscriptionSlots' | 'accountSlots' | 'fullSubscriptions' | 'fullAccounts'
  > {
    const fullSubscriptions: string[] = [];
    for (const [id, n] of this.mainBySubscription) if (n >= this.perSubscription) fullSubscriptions.push(id);
    for (const [id, accountId] of this.slowSubscriptions) {
      if (!this.slowFits(id, accountId)) fullSubscriptions.push(id);
    }
    const fullAccounts = [...this.mainByAccount].filter(([, n]) => n >= this.perAccount).map(([id]) => id);
    return {
      limit: Math.max(0, this.free),
      subscriptionSlots: (id) =>
        this.slowSubscriptions.has(id)
          ? Math.max(0, 1 - this.inFlightOf(id))
          : this.perSubscription - (this.mainBySubscription.get(id) ?? 0),
      accountSlots: (id) => this.perAccount - (this.mainByAccount.get(id) ?? 0),
      fullSubscriptions,
      fullAccounts,
    };
  }

  private inFlightOf(subscriptionId: string): number {
    return (
      (this.slowBySubscription.get(subscriptionId) ?? 0) + (this.mainBySubscription.get(subscriptionId) ?? 0)
    );
  }

  /** Whether a slow subscription may start an attempt: none of its own in flight, room in the slow pool and in its account's share. */
  private slowFits(subscriptionId: string, accountId: string): boolean {
    return (
      this.inFlightOf(subscriptionId) === 0 &&
      this.slow < this.concurrency &&
      (this.slowByAccount.get(accountId) ?? 0) < this.slowPerAccount
    );
  }

  /**
   * Takes a slot for an attempt; returns its token, or null when the pools have no room for it
   * (a claim can hand out more slow subscriptions than the slow pool holds: those wait).
   */
  acquire(subscriptionId: string, accountId: string): number | null {
    const knownSlow = this.slowSubscriptions.has(subscriptionId);
    if (knownSlow ? !this.slowFits(subscriptionId, accountId) : this.main >= this.concurrency) return null;
    const token = this.nextToken++;
    const attempt: InFlight = { subscriptionId, accountId, slow: false, timer: null };
    this.attempts.set(token, attempt);
    if (knownSlow) this.enterSlow(attempt);
    else {
      this.main++;
      bump(this.mainBySubscription, subscriptionId, 1);
      bump(this.mainByAccount, accountId, 1);
      attempt.timer = setTimeout(() => this.becameSlow(token), this.slowAfterMs);
      attempt.timer.unref?.();
    }
    return token;
  }

  /** Gives the slot back once the attempt is over, learning from how long it took. */
  release(token: number, durationMs: number): void {
    const attempt = this.attempts.get(token);
    if (!attempt) return;
    this.attempts.delete(token);
    if (attempt.timer) clearTimeout(attempt.timer);
    if (attempt.slow) this.leaveSlow(attempt);
    else this.leaveMain(attempt);
    if (durationMs >= this.slowAfterMs) this.markSlow(attempt.subscriptionId, attempt.accountId);
    else this.slowSubscriptions.delete(attempt.subscriptionId);
    this.onChange();
  }

  /** Forgets every attempt (the dispatcher stopped and waited for them). */
  clearTimers(): void {
    for (const attempt of this.attempts.values()) if (attempt.timer) clearTimeout(attempt.timer);
  }

  private becameSlow(token: number): void {
    const attempt = this.attempts.get(token);
    if (!attempt || attempt.slow) return;
    attempt.timer = null;
    this.markSlow(attempt.subscriptionId, attempt.accountId);
    // Only while the slow pool has room (and the account its share): otherwise it keeps its main slot.
    if (
      this.slow >= this.concurrency ||
      (this.slowByAccount.get(attempt.accountId) ?? 0) >= this.slowPerAccount
    )
      return;
    this.leaveMain(attempt);
    this.enterSlow(attempt);
    this.onChange();
  }

  private markSlow(subscriptionId: string, accountId: string): void {
    this.slowSubscriptions.delete(subscriptionId);
    this.slowSubscriptions.set(subscriptionId, accountId);
    if (this.slowSubscriptions.size > 10_000) {
      const oldest = this.slowSubscriptions.keys().next().value;
      if (oldest !== undefined) this.slowSubscriptions.delete(oldest);
    }
  }

  private enterSlow(attempt: InFlight): void {
    attempt.slow = true;
    this.slow++;
    bump(this.slowBySubscription, attempt.subscriptionId, 1);
    bump(this.slowByAccount, attempt.accountId, 1);
  }

  private leaveSlow(attempt: InFlight): void {
    this.slow--;
    bump(this.slowBySubscription, attempt.subscriptionId, -1);
    bump(this.slowByAccount, attempt.accountId, -1);
  }

  private leaveMain(attempt: InFlight): void {
    this.main--;
    bump(this.mainBySubscription, attempt.subscriptionId, -1);
    bump(this.mainByAccount, attempt.accountId, -1);
  }
}

function bump(map: Map<string, number>, key: string, by: number): void {
  const next = (map.get(key) ?? 0) + by;
  if (next <= 0) map.delete(key);
  else map.set(key, next);
}
