import type { WebhookDelivery, WebhookSubscription } from '../model.js';
import type { Storage } from '../port/index.js';
import type { Clock, Ids } from '../runtime.js';
import { isoTime } from '../runtime.js';
import type { FairPool } from './fair-pool.js';
import { deliveryTimeoutMs } from './sender.js';

/** A claimed delivery stays leased this long: longer than an attempt can take, so no one else sends it meanwhile. */
const leaseMs = deliveryTimeoutMs * 3;
/** The most deliveries one claim takes. */
const claimBatch = 64;
/** After a thorough claim came back short, every this many claims is thorough again anyway. */
const thoroughEvery = 8;

export interface Claimed {
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
 * Claims due deliveries within the fair pool's budget. It remembers whether the last thorough
 * claim came back short with nothing queued or come due since: the next claims may then look at
 * the first page of due rows only (see DeliveryClaim.thorough), which spares a scan past a busy
 * subscription's backlog at every freed slot.
 */
export class DeliveryClaimer {
  private exhausted = false;
  private claimsSinceThorough = 0;

  constructor(private readonly deps: { storage: Storage; clock: Clock; ids: Ids; pool: FairPool }) {}

  /** Says deliveries may be claimable that the last thorough claim did not see. */
  readonly unexhaust = (): void => {
    this.exhausted = false;
  };

  /** Claims a batch within the pool's budget, with their subscriptions, in one transaction. */
  async claim(): Promise<Claimed> {
    const thorough = !this.exhausted || this.claimsSinceThorough >= thoroughEvery;
    const claimed = await this.claimOnce(thorough);
    if (thorough) {
      this.exhausted = claimed.deliveries.length < claimed.requested;
      this.claimsSinceThorough = 0;
      return claimed;
    }
    this.claimsSinceThorough++;
    // The first page had nothing within the budget and no attempt in flight will free a slot and
    // call for another claim: look further before concluding nothing is due.
    if (claimed.requested > 0 && claimed.deliveries.length === 0 && this.deps.pool.inFlight === 0) {
      this.claimsSinceThorough = thoroughEvery;
      return this.claim();
    }
    return claimed;
  }

  private async claimOnce(thorough: boolean): Promise<Claimed> {
    const { storage, clock, ids, pool } = this.deps;
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
}
