import type { WebhookDelivery, WebhookSubscription } from '../model.js';
import type { Clock } from '../runtime.js';
import { isoTime } from '../runtime.js';
import type { Storage } from '../storage.js';
import { judgeAttempt, sendAttempt } from './attempt.js';
import type { WebhookSender } from './sender.js';
import { deliveryTimeoutMs } from './sender.js';

export interface DispatcherOptions {
  storage: Storage;
  clock: Clock;
  sender: WebhookSender;
  allowPrivateTargets: boolean;
  /**
   * Deliveries in flight at once. Default 8. One subscription may hold at most half of them
   * (at least one), so a receiver that hangs can never take every slot.
   */
  concurrency?: number;
  /** Jitter source in [0, 1); injected so tests can pin the schedule. */
  random?: () => number;
  /** Told about failures of the dispatcher itself (storage errors), not of receivers. */
  onError?: (error: unknown) => void;
}

export interface Dispatcher {
  /**
   * Sends every delivery due now, `concurrency` at a time, and records each result; returns how
   * many were attempted. A subscription never holds more than half of the slots.
   */
  dispatchDue(): Promise<number>;
  /** Runs dispatchDue every `intervalMs` until stop(). */
  start(intervalMs?: number): void;
  /** Stops the loop and waits for attempts in flight. */
  stop(): Promise<void>;
}

/** A claimed delivery stays leased this long: longer than an attempt can take, so no one else sends it meanwhile. */
const leaseMs = deliveryTimeoutMs * 3;

/**
 * The webhook dispatcher: claims due deliveries from the outbox, sends them signed, and records
 * the outcome with the retry schedule. Delivery is at least once: a crash between sending and
 * recording means the lease runs out and the delivery is sent again, with the same event id.
 */
export function createDispatcher(options: DispatcherOptions): Dispatcher {
  const { storage, clock, sender, allowPrivateTargets } = options;
  const concurrency = options.concurrency ?? 8;
  const perSubscription = Math.max(1, Math.floor(concurrency / 2));
  /** Attempts in flight in this dispatcher, by subscription id. */
  const busy = new Map<string, number>();
  const random = options.random ?? Math.random;
  const sleepers = new Set<() => void>();
  let running: Promise<unknown> = Promise.resolve();
  let stopped = true;

  async function attempt(delivery: WebhookDelivery): Promise<void> {
    const subscription = await storage.transaction(
      (tx) => tx.webhooks.get(delivery.accountId, delivery.subscriptionId),
      {
        mode: 'read',
      },
    );
    if (subscription?.status !== 'active') {
      await record(
        { ...delivery, status: 'failed', nextAttemptAt: null, lastError: 'subscription disabled or deleted' },
        null,
      );
      return;
    }
    const startedAt = clock.now();
    const result = await sendAttempt(sender, subscription, delivery, startedAt, allowPrivateTargets);
    const outcome = judgeAttempt(delivery, subscription, result, clock.now(), random());
    await record(
      outcome.delivery,
      outcome.subscriptionChanges ? { subscription, changes: outcome.subscriptionChanges } : null,
    );
  }

  async function record(
    delivery: WebhookDelivery,
    subscriptionUpdate: { subscription: WebhookSubscription; changes: Partial<WebhookSubscription> } | null,
  ): Promise<void> {
    await storage.transaction(async (tx) => {
      await tx.deliveries.update({ ...delivery, updatedAt: isoTime(clock.now()) });
      if (!subscriptionUpdate) return;
      // Re-read: an admin may have changed the subscription while the attempt was in flight.
      const current = await tx.webhooks.get(delivery.accountId, delivery.subscriptionId);
      if (!current) return;
      const changes = subscriptionUpdate.changes;
      if (current.status === 'disabled' && changes.failingSince !== undefined && changes.status === undefined)
        return;
      await tx.webhooks.update(
        { ...current, ...changes, version: current.version + 1, updatedAt: isoTime(clock.now()) },
        current.version,
      );
    });
  }

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        sleepers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      sleepers.add(wake);
    });

  /** Subscriptions holding their share of the slots: their deliveries wait for a free one. */
  const saturated = () => [...busy].filter(([, n]) => n >= perSubscription).map(([id]) => id);
  const release = (subscriptionId: string) => {
    const left = (busy.get(subscriptionId) ?? 1) - 1;
    if (left === 0) busy.delete(subscriptionId);
    else busy.set(subscriptionId, left);
  };

  /** Claims and sends one due delivery; false when none is due (for a subscription with a free slot). */
  async function workOnce(): Promise<boolean> {
    const now = clock.now();
    let reserved: string | null = null;
    let delivery: WebhookDelivery | undefined;
    try {
      delivery = await storage.transaction(async (tx) => {
        // An adapter may run this function again (PostgreSQL, after a serialization failure):
        // the slot a previous run reserved is given back first, or it would stay taken forever.
        if (reserved) release(reserved);
        reserved = null;
        // Read the busy subscriptions and reserve a slot inside the (serialized) claim, so two
        // workers of this dispatcher cannot both take the last slot of one subscription.
        const [claimed] = await tx.deliveries.claimDue(isoTime(now), isoTime(now + leaseMs), 1, saturated());
        if (claimed) {
          reserved = claimed.subscriptionId;
          busy.set(reserved, (busy.get(reserved) ?? 0) + 1);
        }
        return claimed;
      });
    } catch (error) {
      if (reserved) release(reserved);
      throw error;
    }
    if (!delivery) return false;
    try {
      await attempt(delivery);
    } catch (error) {
      options.onError?.(error);
    } finally {
      release(delivery.subscriptionId);
    }
    return true;
  }

  /** One worker: sends due deliveries one after another until none is left. */
  async function drain(): Promise<number> {
    let sent = 0;
    while (await workOnce()) sent++;
    return sent;
  }

  return {
    async dispatchDue() {
      const counts = await Promise.all(Array.from({ length: concurrency }, drain));
      return counts.reduce((a, b) => a + b, 0);
    },
    start(intervalMs = 1000) {
      if (!stopped) return;
      stopped = false;
      // Independent workers: a receiver that takes its full 10 s holds at most its share of them.
      const worker = async () => {
        while (!stopped) {
          const worked = await workOnce().catch((error) => {
            options.onError?.(error);
            return false;
          });
          if (!worked && !stopped) await sleep(intervalMs);
        }
      };
      running = Promise.all(Array.from({ length: concurrency }, worker));
    },
    async stop() {
      stopped = true;
      for (const wake of sleepers) wake();
      sleepers.clear();
      await running;
    },
  };
}
