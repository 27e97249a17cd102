import type { WebhookDelivery, WebhookSubscription } from '../model.js';
import type { Storage } from '../port/index.js';
import type { Clock, Ids } from '../runtime.js';
import { isoTime, randomIds } from '../runtime.js';
import { attemptLogEntry, judgeAttempt, sendAttempt } from './attempt.js';
import { FairPool } from './fair-pool.js';
import { type ResultToRecord, recordResults } from './record.js';
import type { WebhookSender } from './sender.js';
import { deliveryTimeoutMs } from './sender.js';

export interface DispatcherOptions {
  storage: Storage;
  clock: Clock;
  sender: WebhookSender;
  allowPrivateTargets: boolean;
  ids?: Ids;
  /**
   * Main-pool slots: deliveries in flight at once, not counting slow ones (see FairPool).
   * Default 64. The last quarter is kept for accounts with nothing in flight (see FairPool).
   */
  concurrency?: number;
  /** Slots one subscription whose receiver answers fast may hold (default: half the pool). */
  perSubscription?: number;
  /** Main-pool slots one account may hold outside the reserve (default: half the pool). */
  perAccount?: number;
  /** An attempt unanswered this long is slow and moves to the slow pool (default 1000 ms). */
  slowAfterMs?: number;
  /** Jitter source in [0, 1); injected so tests can pin the schedule. */
  random?: () => number;
  /** Told about failures of the dispatcher itself (storage errors), not of receivers. */
  onError?: (error: unknown) => void;
  /** Told about every attempt once its result is recorded (the CLI logs them). */
  onAttempt?: (event: AttemptEvent) => void;
  /** Told when the dispatcher's own writes queued deliveries (a disabling's `webhook.updated`). */
  onDeliveriesQueued?: () => void;
}

/** One attempt, as `onAttempt` reports it. */
export interface AttemptEvent {
  deliveryId: string;
  subscriptionId: string;
  accountId: string;
  eventId: string;
  eventType: string;
  /** The delivery's attempt number (1 for its first). */
  attempt: number;
  url: string;
  /** The receiver's status, or null when no answer came. */
  status: number | null;
  error: string | null;
  durationMs: number;
  /** The delivery's status after the attempt: delivered, pending (a retry is scheduled) or failed. */
  outcome: WebhookDelivery['status'];
  nextAttemptAt: string | null;
  /** False when the lease had run out and another dispatcher had claimed the delivery: the result was dropped. */
  recorded: boolean;
}

export interface Dispatcher {
  /**
   * Sends every delivery due now, within the fair pool, records each result, and returns how
   * many deliveries it handled. For tests and embedders that drive the dispatcher themselves.
   */
  dispatchDue(): Promise<number>;
  /**
   * Runs on its own until stop(): wakes when a commit queues deliveries (see wake), when the
   * next scheduled one comes due, and at least every `idlePollMs` (default 5000) to pick up
   * deliveries queued by other processes on the same database.
   */
  start(idlePollMs?: number): void;
  /** Says new deliveries were committed: a started dispatcher claims them at once. */
  wake(): void;
  /** Stops the loop and waits for attempts in flight and their recording. */
  stop(): Promise<void>;
}

/** A claimed delivery stays leased this long: longer than an attempt can take, so no one else sends it meanwhile. */
const leaseMs = deliveryTimeoutMs * 3;
/** The most deliveries one claim takes. */
const claimBatch = 64;
/** After a thorough claim came back short, every this many claims is thorough again anyway. */
const thoroughEvery = 8;

interface Claimed {
  /** How many the claim asked for (0 when the pool had no free slot). */
  requested: number;
  deliveries: WebhookDelivery[];
  subscriptions: Map<string, WebhookSubscription>;
  /** When the next delivery becomes claimable, as far as the claim could tell. */
  nextClaimableAt: string | null;
  /** Attempts in flight when the budget was taken: slots that may have freed during the claim. */
  heldSlots: number;
}

/**
 * The webhook dispatcher: claims due deliveries from the outbox in batches, sends them signed
 * over kept-alive connections, and records the outcomes in batches, each fenced by its claim's
 * lease. Delivery is at least once: a crash between sending and recording means the lease runs
 * out and the delivery is sent again, with the same event id.
 */
export function createDispatcher(options: DispatcherOptions): Dispatcher {
  const { storage, clock, sender, allowPrivateTargets } = options;
  const ids = options.ids ?? randomIds;
  const random = options.random ?? Math.random;
  const onQueued = () => {
    unexhaust();
    options.onDeliveriesQueued?.();
  };
  let poke: (() => void) | null = null;
  let dirty = false;
  /** Wakes the loop (or dispatchDue) waiting for something to do. */
  const nudge = () => {
    dirty = true;
    const wake = poke;
    poke = null;
    wake?.();
  };
  const pool = new FairPool(
    {
      concurrency: options.concurrency ?? 64,
      ...(options.perSubscription ? { perSubscription: options.perSubscription } : {}),
      ...(options.perAccount ? { perAccount: options.perAccount } : {}),
      ...(options.slowAfterMs ? { slowAfterMs: options.slowAfterMs } : {}),
    },
    nudge,
  );
  const attempts = new Set<Promise<void>>();
  let buffer: { result: ResultToRecord; report: AttemptEvent | null; recorded: () => void }[] = [];
  let flushing: Promise<void> | null = null;
  let loop: Promise<void> | null = null;
  let stopped = true;

  /**
   * Whether the last thorough claim came back short with nothing queued or come due since: the
   * next claims may then look at the first page of due rows only (see DeliveryClaim.thorough),
   * which spares a scan past a busy subscription's backlog at every freed slot.
   */
  let exhausted = false;
  let claimsSinceThorough = 0;
  /** Says deliveries may be claimable that the last thorough claim did not see. */
  const unexhaust = () => {
    exhausted = false;
  };

  /** Claims a batch within the pool's budget, with their subscriptions, in one transaction. */
  async function claim(): Promise<Claimed> {
    const thorough = !exhausted || claimsSinceThorough >= thoroughEvery;
    const claimed = await claimOnce(thorough);
    if (thorough) {
      exhausted = claimed.deliveries.length < claimed.requested;
      claimsSinceThorough = 0;
      return claimed;
    }
    claimsSinceThorough++;
    // The first page had nothing within the budget and no attempt in flight will free a slot and
    // call for another claim: look further before concluding nothing is due.
    if (claimed.requested > 0 && claimed.deliveries.length === 0 && pool.inFlight === 0) {
      claimsSinceThorough = thoroughEvery;
      return claim();
    }
    return claimed;
  }

  async function claimOnce(thorough: boolean): Promise<Claimed> {
    const budget = pool.budget();
    const heldSlots = pool.inFlight;
    const now = clock.now();
    const requested = Math.min(budget.limit, claimBatch);
    if (requested <= 0)
      return { requested, deliveries: [], subscriptions: new Map(), nextClaimableAt: null, heldSlots };
    return storage.transaction(async (tx) => {
      const deliveries = await tx.deliveries.claimDue({
        ...budget,
        limit: requested,
        now: isoTime(now),
        leaseId: ids.uuid(),
        leaseUntil: isoTime(now + leaseMs),
        thorough,
      });
      const subscriptions = new Map<string, WebhookSubscription>();
      for (const d of deliveries) {
        if (subscriptions.has(d.subscriptionId)) continue;
        const s = await tx.webhooks.get(d.accountId, d.subscriptionId);
        if (s) subscriptions.set(s.id, s);
      }
      const nextClaimableAt = deliveries.length === 0 ? await tx.deliveries.nextClaimableAt() : null;
      return { requested, deliveries, subscriptions, nextClaimableAt, heldSlots };
    });
  }

  /** Queues a result for the next recording batch; resolves once that batch is committed (or failed). */
  function toRecord(result: ResultToRecord, report: AttemptEvent | null): Promise<void> {
    return new Promise((recorded) => {
      buffer.push({ result, report, recorded });
      if (!flushing)
        flushing = flush().finally(() => {
          flushing = null;
        });
    });
  }

  /** Records buffered results, a batch per transaction, until none is left. */
  async function flush(): Promise<void> {
    // Let the attempts finishing in this turn of the event loop join the batch.
    await new Promise((resolve) => setImmediate(resolve));
    while (buffer.length > 0) {
      const batch = buffer;
      buffer = [];
      try {
        const applied = await storage.transaction((tx) =>
          recordResults(
            tx,
            ids,
            isoTime(clock.now()),
            batch.map((b) => b.result),
            onQueued,
          ),
        );
        batch.forEach((b, i) => {
          if (b.report) report({ ...b.report, recorded: applied[i] ?? false });
        });
      } catch (error) {
        // Unrecorded results leave their deliveries leased: they are sent again after the lease.
        options.onError?.(error);
      } finally {
        for (const b of batch) b.recorded();
      }
    }
  }

  function report(event: AttemptEvent): void {
    try {
      options.onAttempt?.(event);
    } catch (error) {
      options.onError?.(error);
    }
  }

  /** Whatever happened to a claimed delivery that is not sent: released as it was, or failed. */
  const giveBack = (delivery: WebhookDelivery): WebhookDelivery => ({
    ...delivery,
    status: 'pending',
    leaseId: null,
    leaseExpiresAt: null,
  });

  /** Sends one claimed delivery in its slot and queues its result. */
  async function attempt(delivery: WebhookDelivery, subscription: WebhookSubscription, slot: number) {
    const startedAt = clock.now();
    let durationMs = 0;
    let released = false;
    try {
      const sent = await sendAttempt(sender, subscription, delivery, startedAt, allowPrivateTargets);
      durationMs = sent.result.durationMs;
      const outcome = judgeAttempt(delivery, subscription, sent.result, clock.now(), random());
      const entry = attemptLogEntry({
        id: ids.id('att'),
        delivery,
        url: subscription.url,
        sent,
        startedAtMs: startedAt,
      });
      // A result that changes the subscription (a 410 disables it, a failure streak starts or
      // ends) holds the slot until recorded, so the next claim sees what it meant. Any other
      // frees it now: the delivery stays leased until recorded, and recording is batched.
      if (outcome.subscriptionChanges === null) {
        pool.release(slot, durationMs);
        released = true;
      }
      await toRecord(
        {
          delivery: outcome.delivery,
          leaseId: delivery.leaseId ?? '',
          attempt: entry,
          subscriptionChanges: outcome.subscriptionChanges,
        },
        {
          deliveryId: delivery.id,
          subscriptionId: delivery.subscriptionId,
          accountId: delivery.accountId,
          eventId: delivery.eventId,
          eventType: delivery.eventType,
          attempt: entry.number,
          url: subscription.url,
          status: sent.result.status,
          error: sent.result.error,
          durationMs,
          outcome: outcome.delivery.status,
          nextAttemptAt: outcome.delivery.nextAttemptAt,
          recorded: false,
        },
      );
    } catch (error) {
      options.onError?.(error);
    } finally {
      if (!released) pool.release(slot, durationMs);
    }
  }

  /** Starts the attempts of a claimed batch; returns how many deliveries it handled. */
  function start(claimed: Claimed): number {
    let handled = 0;
    for (const delivery of claimed.deliveries) {
      const leaseId = delivery.leaseId ?? '';
      const subscription = claimed.subscriptions.get(delivery.subscriptionId);
      if (subscription?.status !== 'active') {
        handled++;
        void toRecord(
          {
            delivery: {
              ...giveBack(delivery),
              status: 'failed',
              nextAttemptAt: null,
              lastError: 'subscription disabled or deleted',
              updatedAt: isoTime(clock.now()),
            },
            leaseId,
            attempt: null,
            subscriptionChanges: null,
          },
          null,
        );
        continue;
      }
      const slot = pool.acquire(delivery.subscriptionId, delivery.accountId);
      if (slot === null) {
        // The claim took more of a slow account's share than is left: back in the queue, unsent.
        void toRecord(
          { delivery: giveBack(delivery), leaseId, attempt: null, subscriptionChanges: null },
          null,
        );
        continue;
      }
      handled++;
      const running = attempt(delivery, subscription, slot);
      attempts.add(running);
      void running.finally(() => attempts.delete(running));
    }
    return handled;
  }

  /** Resolves at the next nudge, or after `ms`; a sleep to its end means deliveries may have come due. */
  function idle(ms: number): Promise<void> {
    if (dirty) {
      dirty = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(
        () => {
          unexhaust();
          done();
        },
        Math.max(0, ms),
      );
      function done() {
        clearTimeout(timer);
        if (poke === done) poke = null;
        dirty = false;
        resolve();
      }
      poke = done;
    });
  }

  /** Resolves at the next nudge. */
  function nudged(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        if (poke === done) poke = null;
        resolve();
      };
      poke = done;
    });
  }

  async function drainRecords(): Promise<void> {
    while (attempts.size > 0 || flushing) {
      await Promise.all([...attempts]);
      await flushing;
    }
  }

  async function run(idlePollMs: number): Promise<void> {
    while (!stopped) {
      let claimed: Claimed | null = null;
      try {
        claimed = await claim();
        start(claimed);
      } catch (error) {
        options.onError?.(error);
      }
      if (stopped) break;
      // A full batch: more may be due at once.
      if (claimed && claimed.requested > 0 && claimed.deliveries.length === claimed.requested) continue;
      // Otherwise sleep until woken (a commit queued deliveries, a slot freed) or the next due time.
      // Something due now yet unclaimed is held back by the budget: a freed slot will wake us.
      const untilDue = claimed?.nextClaimableAt
        ? Date.parse(claimed.nextClaimableAt) - clock.now()
        : idlePollMs;
      await idle(untilDue > 0 ? Math.min(untilDue, idlePollMs) : idlePollMs);
    }
  }

  return {
    async dispatchDue() {
      // Whatever was committed before this call is looked for.
      unexhaust();
      let handled = 0;
      for (;;) {
        const claimed = await claim();
        handled += start(claimed);
        if (claimed.deliveries.length > 0) continue;
        // Nothing claimed and nothing in flight: done, unless slots held during the budget freed since.
        if (attempts.size === 0) {
          if (claimed.heldSlots === 0) break;
          continue;
        }
        // Slots are busy: wait for one to free (an attempt ends, or one turns slow and leaves
        // the main pool), then look again.
        dirty = false;
        await Promise.race([...attempts, nudged()]);
      }
      await drainRecords();
      return handled;
    },
    start(idlePollMs = 5000) {
      if (!stopped) return;
      stopped = false;
      // The first claim is thorough and sees whatever was committed before it: a nudge left over
      // from earlier (slots freed by dispatchDue) would only make the loop claim again at once.
      dirty = false;
      unexhaust();
      loop = run(idlePollMs);
    },
    wake() {
      unexhaust();
      nudge();
    },
    async stop() {
      stopped = true;
      nudge();
      await loop;
      loop = null;
      await drainRecords();
      pool.clearTimers();
    },
  };
}
