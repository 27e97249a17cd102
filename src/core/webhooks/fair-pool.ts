import type { DeliveryClaim } from '../port/index.js';

/** How the dispatcher shares its delivery slots. */
export interface FairPoolOptions {
  /** Slots of the main pool: attempts in flight at once, slow ones apart. */
  concurrency: number;
  /** Slots one subscription whose receiver answers fast may hold. Default: half the pool (at least 1). */
  perSubscription?: number;
  /** Unreserved slots one account may hold. Default: half the pool (at least 1), so two busy accounts share. */
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

/** What the pool knows of a subscription's receiver: absent means nothing yet. */
type Speed = 'fast' | 'slow';

/**
 * The dispatcher's slots, shared so that hanging receivers cannot starve healthy ones:
 *
 * - the main pool has `concurrency` slots; its last quarter is a reserve that only an account
 *   with nothing in flight may take, so such an account is served at the next claim however
 *   busy the others are;
 * - a subscription whose receiver is not yet known to answer fast has one attempt in flight;
 *   one that answered within `slowAfterMs` may have `perSubscription`; an account holds at most
 *   `perAccount` unreserved slots;
 * - an attempt unanswered after `slowAfterMs` leaves the main pool for the slow pool, always,
 *   so no main slot is held longer than that; its subscription is then slow: one attempt in
 *   flight, started only while the slow pool (as large as the main one) has room and its
 *   account holds less than a quarter of it.
 *
 * So a delivery of an account with nothing in flight gets a slot at once, and any other waits
 * at most `slowAfterMs` for one, whatever other accounts' receivers do. The sockets held stay
 * bounded: slow attempts started as such fill at most the slow pool, and attempts turning slow
 * come out of the main pool, at most `concurrency` of them a `slowAfterMs`, each ending at the
 * connect (3 s) or answer (10 s) timeout.
 */
export class FairPool {
  readonly concurrency: number;
  /** Main slots any account may take; the rest are the reserve. */
  private readonly unreserved: number;
  private readonly perSubscription: number;
  private readonly perAccount: number;
  private readonly slowPerAccount: number;
  private readonly slowAfterMs: number;
  private readonly attempts = new Map<number, InFlight>();
  private nextToken = 0;
  private main = 0;
  private slow = 0;
  private readonly bySubscription = new Map<string, number>();
  private readonly byAccount = new Map<string, number>();
  private readonly mainByAccount = new Map<string, number>();
  private readonly slowByAccount = new Map<string, number>();
  /** What was learnt of subscriptions' receivers, with their account (bounded: oldest forgotten first). */
  private readonly speeds = new Map<string, { speed: Speed; accountId: string }>();
  private readonly onChange: () => void;

  constructor(options: FairPoolOptions, onChange: () => void) {
    this.concurrency = Math.max(1, Math.floor(options.concurrency));
    this.unreserved = Math.max(1, this.concurrency - Math.floor(this.concurrency / 4));
    this.perSubscription = options.perSubscription ?? Math.max(1, Math.floor(this.concurrency / 2));
    this.perAccount = options.perAccount ?? Math.max(1, Math.floor(this.concurrency / 2));
    this.slowPerAccount = Math.max(1, Math.floor(this.concurrency / 4));
    this.slowAfterMs = options.slowAfterMs ?? 1000;
    this.onChange = onChange;
  }

  /** Attempts in flight, main and slow pools together. */
  get inFlight(): number {
    return this.attempts.size;
  }

  /** Free main-pool slots, the reserve included. */
  get free(): number {
    return this.concurrency - this.main;
  }

  /**
   * The budget of the next claim: the free main slots, within each subscription's and account's
   * share. A slow subscription's delivery takes one to be claimed, but then runs in the slow pool.
   */
  budget(): Pick<
    DeliveryClaim,
    'limit' | 'subscriptionSlots' | 'accountSlots' | 'fullSubscriptions' | 'fullAccounts'
  > {
    const fullSubscriptions: string[] = [];
    for (const id of this.bySubscription.keys()) {
      if (this.subscriptionSlots(id) <= 0) fullSubscriptions.push(id);
    }
    for (const [id, known] of this.speeds) {
      if (known.speed === 'slow' && !this.bySubscription.has(id) && !this.slowFits(known.accountId)) {
        fullSubscriptions.push(id);
      }
    }
    const fullAccounts = [...this.byAccount.keys()].filter((id) => this.accountSlots(id) <= 0);
    return {
      limit: Math.max(0, this.free),
      subscriptionSlots: (id) => this.subscriptionSlots(id),
      accountSlots: (id) => this.accountSlots(id),
      fullSubscriptions,
      fullAccounts,
    };
  }

  private subscriptionSlots(id: string): number {
    const known = this.speeds.get(id);
    const inFlight = this.bySubscription.get(id) ?? 0;
    if (known?.speed === 'slow') return inFlight === 0 && this.slowFits(known.accountId) ? 1 : 0;
    return (known?.speed === 'fast' ? this.perSubscription : 1) - inFlight;
  }

  /** Unreserved slots left to the account, or the one reserve slot an idle account may take. */
  private accountSlots(id: string): number {
    const idle = !this.byAccount.has(id);
    const unreservedLeft = Math.min(
      this.unreserved - this.main,
      this.perAccount - (this.mainByAccount.get(id) ?? 0),
    );
    return Math.max(unreservedLeft, idle && this.main < this.concurrency ? 1 : 0);
  }

  /** Whether a slow subscription of the account may start an attempt: room in the slow pool and in the account's share. */
  private slowFits(accountId: string): boolean {
    return this.slow < this.concurrency && (this.slowByAccount.get(accountId) ?? 0) < this.slowPerAccount;
  }

  /**
   * Takes a slot for an attempt; returns its token, or null when its subscription or account
   * has no room left (a claim can hand out more than fits: those wait in the queue).
   */
  acquire(subscriptionId: string, accountId: string): number | null {
    if (this.subscriptionSlots(subscriptionId) <= 0) return null;
    const knownSlow = this.speeds.get(subscriptionId)?.speed === 'slow';
    if (!knownSlow && this.accountSlots(accountId) <= 0) return null;
    const token = this.nextToken++;
    const attempt: InFlight = { subscriptionId, accountId, slow: false, timer: null };
    this.attempts.set(token, attempt);
    bump(this.bySubscription, subscriptionId, 1);
    bump(this.byAccount, accountId, 1);
    if (knownSlow) this.enterSlow(attempt);
    else {
      this.main++;
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
    bump(this.bySubscription, attempt.subscriptionId, -1);
    bump(this.byAccount, attempt.accountId, -1);
    if (attempt.slow) {
      this.slow--;
      bump(this.slowByAccount, attempt.accountId, -1);
    } else this.leaveMain(attempt);
    const slow = attempt.slow || durationMs >= this.slowAfterMs;
    this.learn(attempt.subscriptionId, attempt.accountId, slow ? 'slow' : 'fast');
    this.onChange();
  }

  /** Forgets every attempt (the dispatcher stopped and waited for them). */
  clearTimers(): void {
    for (const attempt of this.attempts.values()) if (attempt.timer) clearTimeout(attempt.timer);
  }

  /** Unanswered for `slowAfterMs`: out of the main pool, whatever the slow pool holds, so the main slot is free again. */
  private becameSlow(token: number): void {
    const attempt = this.attempts.get(token);
    if (!attempt || attempt.slow) return;
    attempt.timer = null;
    this.learn(attempt.subscriptionId, attempt.accountId, 'slow');
    this.leaveMain(attempt);
    this.enterSlow(attempt);
    this.onChange();
  }

  private learn(subscriptionId: string, accountId: string, speed: Speed): void {
    this.speeds.delete(subscriptionId);
    this.speeds.set(subscriptionId, { speed, accountId });
    if (this.speeds.size > 10_000) {
      const oldest = this.speeds.keys().next().value;
      if (oldest !== undefined) this.speeds.delete(oldest);
    }
  }

  private enterSlow(attempt: InFlight): void {
    attempt.slow = true;
    this.slow++;
    bump(this.slowByAccount, attempt.accountId, 1);
  }

  private leaveMain(attempt: InFlight): void {
    this.main--;
    bump(this.mainByAccount, attempt.accountId, -1);
  }
}

function bump(map: Map<string, number>, key: string, by: number): void {
  const next = (map.get(key) ?? 0) + by;
  if (next <= 0) map.delete(key);
  else map.set(key, next);
}
