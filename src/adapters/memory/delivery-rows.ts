import type { WebhookDelivery } from '../../core/model.js';
import { claimableAt } from '../shared/claim-budget.js';

/**
 * Deliveries by id, with two indexes kept beside them on every set and delete (the undo log's
 * included, so a rolled-back transaction leaves them as it found them): the ids of the deliveries
 * a claim may take (pending, or sending under a lease), and the ids of each subscription's. A
 * claim then looks at the deliveries still in flight rather than every one kept, and a list or a
 * subscription's deletion at that subscription's rather than every account's.
 */
export class DeliveryRows extends Map<string, WebhookDelivery> {
  // Made on first use: Map's constructor may call set() before a subclass's fields exist.
  private openIds?: Set<string>;
  private idsBySubscription?: Map<string, Set<string>>;

  /** The deliveries a claim may take, now or once due. */
  open(): IterableIterator<WebhookDelivery> {
    return this.rowsOf(this.openSet());
  }

  /** One subscription's deliveries. */
  ofSubscription(subscriptionId: string): IterableIterator<WebhookDelivery> {
    return this.rowsOf(this.subscriptions().get(subscriptionId) ?? new Set());
  }

  override set(id: string, delivery: WebhookDelivery): this {
    const before = super.get(id);
    if (before && before.subscriptionId !== delivery.subscriptionId) this.unindex(before);
    super.set(id, delivery);
    if (claimableAt(delivery) === null) this.openSet().delete(id);
    else this.openSet().add(id);
    const subscriptions = this.subscriptions();
    let ids = subscriptions.get(delivery.subscriptionId);
    if (!ids) {
      ids = new Set();
      subscriptions.set(delivery.subscriptionId, ids);
    }
    ids.add(id);
    return this;
  }

  override delete(id: string): boolean {
    const before = super.get(id);
    if (!before) return false;
    this.unindex(before);
    return super.delete(id);
  }

  override clear(): void {
    this.openIds = undefined;
    this.idsBySubscription = undefined;
    super.clear();
  }

  private unindex(delivery: WebhookDelivery): void {
    this.openSet().delete(delivery.id);
    const ids = this.subscriptions().get(delivery.subscriptionId);
    ids?.delete(delivery.id);
    if (ids?.size === 0) this.subscriptions().delete(delivery.subscriptionId);
  }

  private *rowsOf(ids: Set<string>): IterableIterator<WebhookDelivery> {
    // A copy: callers write deliveries back while they go through them.
    for (const id of [...ids]) {
      const row = super.get(id);
      if (row) yield row;
    }
  }

  private openSet(): Set<string> {
    this.openIds ??= new Set();
    return this.openIds;
  }

  private subscriptions(): Map<string, Set<string>> {
    this.idsBySubscription ??= new Map();
    return this.idsBySubscription;
  }
}
