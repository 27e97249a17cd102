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
  /** Deliveries in flight at once; one slow receiver holds one slot, not the queue. Default 8. */
  concurrency?: number;
  /** Jitter source in [0, 1); injected so tests can pin the schedule. */
  random?: () => number;
  /** Told about failures of the dispatcher itself (storage errors), not of receivers. */
  onError?: (error: unknown) => void;
}

export interface Dispatcher {
  /** Sends every delivery due now (in bounded parallel batches) and records each result. Returns how many were attempted. */
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

  /** Claims and sends one due delivery; false when none is due. */
  async function workOnce(): Promise<boolean> {
    const now = clock.now();
    const [delivery] = await storage.transaction((tx) =>
      tx.deliveries.claimDue(isoTime(now), isoTime(now + leaseMs), 1),
    );
    if (!delivery) return false;
    try {
      await attempt(delivery);
    } catch (error) {
      options.onError?.(error);
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
      // Independent workers: a receiver that takes its full 10 s holds one of them, not the queue.
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
