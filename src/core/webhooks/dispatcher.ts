import type { Storage } from '../port/index.js';
import type { Clock, Ids } from '../runtime.js';
import { randomIds } from '../runtime.js';
import type { AttemptEvent } from './attempt-event.js';
import { AttemptRunner } from './attempt-runner.js';
import { type Claimed, DeliveryClaimer } from './claim-batch.js';
import { FairPool } from './fair-pool.js';
import { ResultRecorder } from './result-recorder.js';
import type { WebhookSender } from './sender.js';
import { Wakeup } from './wakeup.js';

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

/**
 * The webhook dispatcher: claims due deliveries from the outbox in batches (claim-batch.ts),
 * sends them signed over kept-alive connections (attempt-runner.ts), and records the outcomes
 * in batches (result-recorder.ts), each fenced by its claim's lease. Delivery is at least once:
 * a crash between sending and recording means the lease runs out and the delivery is sent
 * again, with the same event id.
 */
export function createDispatcher(options: DispatcherOptions): Dispatcher {
  const { storage, clock } = options;
  const ids = options.ids ?? randomIds;
  const wakeup = new Wakeup();
  const pool = new FairPool(
    {
      concurrency: options.concurrency ?? 64,
      ...(options.perSubscription ? { perSubscription: options.perSubscription } : {}),
      ...(options.perAccount ? { perAccount: options.perAccount } : {}),
      ...(options.slowAfterMs ? { slowAfterMs: options.slowAfterMs } : {}),
    },
    wakeup.nudge,
  );
  const claimer = new DeliveryClaimer({ storage, clock, ids, pool });
  const recorder = new ResultRecorder({
    storage,
    clock,
    ids,
    onQueued: () => {
      claimer.unexhaust();
      options.onDeliveriesQueued?.();
    },
    onError: options.onError,
    onAttempt: options.onAttempt,
  });
  const attempts = new AttemptRunner({
    clock,
    ids,
    sender: options.sender,
    allowPrivateTargets: options.allowPrivateTargets,
    random: options.random ?? Math.random,
    pool,
    recorder,
    onError: options.onError,
  });
  let loop: Promise<void> | null = null;
  let stopped = true;

  /** Waits until no attempt is in flight and every result is recorded. */
  async function drainRecords(): Promise<void> {
    while (attempts.inFlight.size > 0 || recorder.flushing) {
      await Promise.all([...attempts.inFlight]);
      await recorder.flushing;
    }
  }

  /** One turn of the loop: claims and starts a batch; null when the claim failed. */
  async function claimAndStart(): Promise<Claimed | null> {
    try {
      const claimed = await claimer.claim();
      attempts.start(claimed);
      return claimed;
    } catch (error) {
      options.onError?.(error);
      return null;
    }
  }

  async function run(idlePollMs: number): Promise<void> {
    while (!stopped) {
      const claimed = await claimAndStart();
      if (stopped) break;
      // A full batch: more may be due at once.
      if (claimed && claimed.requested > 0 && claimed.deliveries.length === claimed.requested) continue;
      // Otherwise sleep until woken (a commit queued deliveries, a slot freed) or the next due time.
      // Something due now yet unclaimed is held back by the budget: a freed slot will wake us.
      const untilDue = claimed?.nextClaimableAt
        ? Date.parse(claimed.nextClaimableAt) - clock.now()
        : idlePollMs;
      await wakeup.idle(untilDue > 0 ? Math.min(untilDue, idlePollMs) : idlePollMs, claimer.unexhaust);
    }
  }

  /** Claims and sends until nothing is due and nothing in flight, then waits for the records. */
  async function dispatchDue(): Promise<number> {
    // Whatever was committed before this call is looked for.
    claimer.unexhaust();
    let handled = 0;
    for (;;) {
      const claimed = await claimer.claim();
      handled += attempts.start(claimed);
      if (claimed.deliveries.length > 0) continue;
      // Nothing claimed and nothing in flight: done, unless slots held during the budget freed since.
      if (attempts.inFlight.size === 0) {
        if (claimed.heldSlots === 0) break;
        continue;
      }
      // Slots are busy: wait for one to free (an attempt ends, or one turns slow and leaves
      // the main pool), then look again.
      wakeup.clear();
      await Promise.race([...attempts.inFlight, wakeup.nudged()]);
    }
    await drainRecords();
    return handled;
  }

  return {
    dispatchDue,
    start(idlePollMs = 5000) {
      if (!stopped) return;
      stopped = false;
      // The first claim is thorough and sees whatever was committed before it: a nudge left over
      // from earlier (slots freed by dispatchDue) would only make the loop claim again at once.
      wakeup.clear();
      claimer.unexhaust();
      loop = run(idlePollMs);
    },
    wake() {
      claimer.unexhaust();
      wakeup.nudge();
    },
    async stop() {
      stopped = true;
      wakeup.nudge();
      await loop;
      loop = null;
      await drainRecords();
      pool.clearTimers();
    },
  };
}

export type { AttemptEvent };
