import type { WebhookDelivery } from '../../core/model.js';
import { claimableAt } from './claim-budget.js';

/** The columns both SQL adapters insert a delivery with, in order: `deliveryValues` fills them. */
export const deliveryColumns =
  'id, account_id, subscription_id, status, next_attempt_at, lease_id, created_at, data';

/**
 * A delivery's values for `deliveryColumns`. next_attempt_at holds when the row is claimable (see
 * claimableAt), not the model's field of that name.
 */
export const deliveryValues = (d: WebhookDelivery): unknown[] => [
  d.id,
  d.accountId,
  d.subscriptionId,
  d.status,
  claimableAt(d),
  d.leaseId,
  d.createdAt,
  JSON.stringify(d),
];

/** A delivery's values for `UPDATE deliveries SET status, next_attempt_at, lease_id, data WHERE id`. */
export const deliveryUpdateValues = (d: WebhookDelivery): unknown[] => [
  d.status,
  claimableAt(d),
  d.leaseId,
  JSON.stringify(d),
  d.id,
];
