import type { WebhookDelivery, WebhookSubscription } from '../model.js';
import type { Clock, Ids } from '../runtime.js';
import { isoTime } from '../runtime.js';
import { attemptLogEntry, judgeAttempt, sendAttempt } from './attempt.js';
import type { Claimed } from './claim-batch.js';
import type { FairPool } from './fair-pool.js';
import type { ResultRecorder } from './result-recorder.js';
import type { WebhookSender } from './sender.js';

/** Whatever happened to a claimed delivery that is not sent: released as it was, or failed. */
const giveBack = (delivery: WebhookDelivery): WebhookDelivery => ({
  ...delivery,
  status: 'pending',
  leaseId: null,
  leaseExpiresAt: null,
});

/**
 * Sends claimed deliveries, each in a slot of the fair pool, and hands their results to the
 * recorder; keeps the attempts in flight so the dispatcher can wait for them.
 */
export class AttemptRunner {
  /** The attempts in flight. */
  readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly deps: {
      clock: Clock;
      ids: Ids;
      sender: WebhookSender;
      allowPrivateTargets: boolean;
      random: () => number;
      pool: FairPool;
      recorder: ResultRecorder;
      onError?: ((error: unknown) => void) | undefined;
    },
  ) {}

  /** Starts the attempts of a claimed batch; returns how many deliveries it handled. */
  start(claimed: Claimed): number {
    const { clock, pool, recorder } = this.deps;
    let handled = 0;
    for (const delivery of claimed.deliveries) {
      const leaseId = delivery.leaseId ?? '';
      const subscription = claimed.subscriptions.get(delivery.subscriptionId);
      if (subscription?.status !== 'active') {
        handled++;
        void recorder.record(
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
        void recorder.record(
          { delivery: giveBack(delivery), leaseId, attempt: null, subscriptionChanges: null },
          null,
        );
        continue;
      }
      handled++;
      const running = this.attempt(delivery, subscription, slot);
      this.inFlight.add(running);
      void running.finally(() => this.inFlight.delete(running));
    }
    return handled;
  }

  /** Sends one claimed delivery in its slot and queues its result. */
  private async attempt(delivery: WebhookDelivery, subscription: WebhookSubscription, slot: number) {
    const { clock, ids, sender, allowPrivateTargets, random, pool, recorder } = this.deps;
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
      await recorder.record(
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
      this.deps.onError?.(error);
    } finally {
      if (!released) pool.release(slot, durationMs);
    }
  }
}
