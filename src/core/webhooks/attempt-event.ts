import type { WebhookDelivery } from '../model.js';

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
