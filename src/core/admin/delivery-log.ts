import type { WebhookView } from '../families/webhooks/operations.js';
import type { WebhookDelivery } from '../model.js';
import type { StorageTx } from '../storage.js';
import type { AttemptDetail } from './views/delivery.js';
import type { HourCount } from './views/delivery-chart.js';
import { lastDay } from './views/delivery-chart.js';

const hourMs = 60 * 60 * 1000;
/** How many of the last day's deliveries the chart reads at most. */
const chartScanLimit = 5000;

/** A subscription's newest deliveries and how many it has in all. */
export async function recentDeliveries(tx: StorageTx, webhook: WebhookView, limit: number) {
  return tx.deliveries.list({ accountId: webhook.accountId, subscriptionId: webhook.id, limit });
}

/**
 * Delivered and failed deliveries per hour over the last 24 hours, by the hour of their last
 * attempt: delivered ones count as succeeded, failed ones and retrying ones (whose last attempt
 * failed) as failed. It pages through the deliveries made since then, newest first.
 */
export async function deliveryHours(
  tx: StorageTx,
  webhook: WebhookView,
  nowMs: number,
): Promise<HourCount[]> {
  const since = new Date(Math.floor(nowMs / hourMs) * hourMs - 23 * hourMs).toISOString();
  const counts = new Map<string, HourCount>();
  const count = (delivery: WebhookDelivery) => {
    if (delivery.lastAttemptAt === null || delivery.lastAttemptAt < since || delivery.attempts === 0) return;
    const hour = new Date(Math.floor(Date.parse(delivery.lastAttemptAt) / hourMs) * hourMs).toISOString();
    const entry = counts.get(hour) ?? { hour, succeeded: 0, failed: 0 };
    if (delivery.status === 'delivered') entry.succeeded++;
    else entry.failed++;
    counts.set(hour, entry);
  };
  let after: { createdAt: string; id: string } | undefined;
  for (let read = 0; read < chartScanLimit; ) {
    const page = await tx.deliveries.list({
      accountId: webhook.accountId,
      subscriptionId: webhook.id,
      limit: 500,
      ...(after ? { after } : {}),
    });
    page.rows.forEach(count);
    read += page.rows.length;
    const last = page.rows.at(-1);
    // Deliveries made before the window may still have been attempted in it (retries): stop a
    // day further back, where no retry schedule reaches into the window.
    if (
      !last ||
      page.rows.length < 500 ||
      last.createdAt < new Date(Date.parse(since) - 2 * 24 * hourMs).toISOString()
    )
      break;
    after = { createdAt: last.createdAt, id: last.id };
  }
  return lastDay([...counts.values()], nowMs);
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
