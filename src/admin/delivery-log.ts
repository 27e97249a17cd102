import type { StorageTx, WebhookDelivery, WebhookView } from '../core/extension-kit.js';
import type { AttemptDetail } from './views/delivery.js';
import type { HourCount } from './views/delivery-chart.js';
import { lastDay } from './views/delivery-chart.js';

const hourMs = 60 * 60 * 1000;

/** A subscription's newest deliveries and how many it has in all. */
export async function recentDeliveries(tx: StorageTx, webhook: WebhookView, limit: number) {
  return tx.deliveries.list({ accountId: webhook.accountId, subscriptionId: webhook.id, limit });
}

/**
 * Succeeded and failed attempts per hour over the last 24 hours (the current one included). It
 * reads the store's hourly counts from 23 hours back, so it costs the same whatever the
 * subscription's history.
 */
export async function deliveryHours(
  tx: StorageTx,
  webhook: WebhookView,
  nowMs: number,
): Promise<HourCount[]> {
  const since = new Date(Math.floor(nowMs / hourMs) * hourMs - 23 * hourMs).toISOString();
  return lastDay(await tx.deliveries.attemptsPerHour(webhook.accountId, webhook.id, since), nowMs);
}

/** How many of a delivery's attempts its page shows (the latest ones). */
const shownAttempts = 20;

/** The recorded attempts of a delivery, oldest first: what each one sent and received. */
export async function attemptsOf(tx: StorageTx, delivery: WebhookDelivery): Promise<AttemptDetail[]> {
  const attempts = await tx.deliveries.attempts(delivery.accountId, delivery.id, shownAttempts);
  return attempts.map(({ number, startedAt, durationMs, request, response, error, succeeded }) => ({
    number,
    startedAt,
    durationMs,
    request,
    response,
    error,
    succeeded,
  }));
}
