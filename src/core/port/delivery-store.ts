import type { DeliveryAttempt, WebhookDelivery } from '../model.js';
import type { ListResult } from './collection.js';

/** What a dispatcher asks of `DeliveryStore.claimDue`. */
export interface DeliveryClaim {
  /** Deliveries due at or before this time are claimable. */
  now: string;
  /** A fresh, unique id for this claim: it fences `recordAttempts`. */
  leaseId: string;
  /** The claimed deliveries stay leased to this claim until then. */
  leaseUntil: string;
  /** At most this many deliveries. */
  limit: number;
  /**
   * Fairness budget: a delivery is claimed only while its subscription and its account both have
   * a slot left, counting the deliveries this claim already took. `subscriptionSlots(id)` and
   * `accountSlots(id)` give the slots at the start of the claim (unlimited when absent).
   */
  subscriptionSlots?: (subscriptionId: string) => number;
  accountSlots?: (accountId: string) => number;
  /** Subscriptions and accounts known to have no slot: a query may leave their rows out. */
  fullSubscriptions?: readonly string[];
  fullAccounts?: readonly string[];
  /**
   * False when a thorough claim came back short lately and no delivery was queued since: the
   * claim may then stop after its first page of due rows rather than scan on past the rows of
   * subscriptions and accounts out of slots (behind a large backlog that scan is long). Default
   * true: every claimable delivery within the budget is considered.
   */
  thorough?: boolean;
}

/** The result of one attempt, for `DeliveryStore.recordAttempts`. */
export interface AttemptRecord {
  /** The delivery as it stands after the attempt (its leaseId and leaseExpiresAt cleared). */
  delivery: WebhookDelivery;
  /** The lease under which it was claimed. */
  leaseId: string;
  /** The attempt to append to the delivery's log, or null when nothing was sent. */
  attempt: DeliveryAttempt | null;
}

/** Attempts of one hour: how many delivered (2xx) and how many did not. */
export interface AttemptHour {
  /** The hour's start, e.g. `2026-11-23T17:00:00.000Z`. */
  hour: string;
  succeeded: number;
  failed: number;
}

export interface DeliveryStore {
  insert(delivery: WebhookDelivery): Promise<void>;
  get(accountId: string, id: string): Promise<WebhookDelivery | null>;
  /**
   * Replaces the delivery unconditionally (no fence). Concurrency contract: callers that may
   * race a dispatcher (a retry through the API) read it and decide in the same transaction;
   * transactions are serializable, so a claim cannot slip between the read and the write.
   */
  update(delivery: WebhookDelivery): Promise<void>;
  /** One subscription's deliveries, newest first, keyset-paged. */
  list(query: {
    accountId: string;
    subscriptionId: string;
    after?: { createdAt: string; id: string };
    limit: number;
  }): Promise<ListResult<WebhookDelivery>>;
  /**
   * Claims up to `limit` claimable deliveries, oldest due first, within the claim's fairness
   * budget: `pending` ones with nextAttemptAt <= now, and `sending` ones whose lease expired
   * (leaseExpiresAt <= now: their claimant died or stalled). Each is moved to `sending` with
   * leaseId = claim.leaseId and leaseExpiresAt = claim.leaseUntil, and returned as stored.
   * Concurrency contract: concurrent claims (in this process or any other on the same
   * database) never return the same delivery while its lease is live; a claimer that dies
   * leaves its deliveries to be claimed again once the lease passes.
   */
  claimDue(claim: DeliveryClaim): Promise<WebhookDelivery[]>;
  /**
   * Records attempts' results, fenced by lease: a record applies only when the stored delivery
   * is still `sending` under the record's leaseId; it then replaces the delivery and appends
   * the attempt to the log. A stale record (its lease expired and the delivery was claimed
   * again, or re-queued by a retry) changes nothing. Returns, per record, whether it applied.
   * Concurrency contract: of a stale claimant and a new one recording concurrently, only the
   * one holding the current lease applies.
   */
  recordAttempts(records: readonly AttemptRecord[]): Promise<boolean[]>;
  /** Adds an attempt to a delivery's log as it is (for a whole-database copy). */
  insertAttempt(attempt: DeliveryAttempt): Promise<void>;
  /** The delivery's attempts, oldest first (at most the last `limit`). */
  attempts(accountId: string, deliveryId: string, limit: number): Promise<DeliveryAttempt[]>;
  /**
   * One subscription's attempts from the hour starting at `since` (an hour's start) on, counted
   * per hour, oldest hour first; hours without attempts are left out. It reads per-hour counts or
   * an index bounded by `since`, never the subscription's whole log, so a day's chart stays cheap
   * however many attempts the subscription has made. Rolled-back attempts are not counted, and
   * deleting the subscription deletes its counts.
   */
  attemptsPerHour(accountId: string, subscriptionId: string, since: string): Promise<AttemptHour[]>;
  /**
   * The earliest time any delivery becomes claimable (a pending one's nextAttemptAt, a sending
   * one's leaseExpiresAt), or null when none will: the dispatcher sleeps until then.
   */
  nextClaimableAt(): Promise<string | null>;
}
