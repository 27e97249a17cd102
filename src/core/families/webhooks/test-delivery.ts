import type { OperationContext } from '../../pipeline/context.js';
import { ok, type Reply } from '../../pipeline/reply.js';
import { isoTime } from '../../runtime.js';
import { sendAttempt, succeeded } from '../../webhooks/attempt.js';
import { deliveryPayload, newDelivery } from '../../webhooks/outbox.js';
import { webhookTestEvent } from './events.js';
import { getWebhookRow } from './operations.js';

/**
 * POST /webhooks/{id}/test: logs one signed `webhook.test` delivery, sends it once the
 * transaction has committed (a slow receiver must not hold the database), records the result
 * and answers `{ eventId, delivered, responseStatus, durationMs, error }`. It is never retried.
 */
export async function testWebhook(ctx: OperationContext, id: string): Promise<Reply> {
  const webhook = await getWebhookRow(ctx, id);
  const eventId = ctx.ids.uuid();
  const payload = deliveryPayload({
    id: eventId,
    type: webhookTestEvent,
    occurredAt: ctx.now,
    data: { object: { webhookId: webhook.id, message: 'This is a test delivery from outcome-tracker.' } },
  });
  const delivery = {
    ...newDelivery(ctx.ids, {
      accountId: webhook.accountId,
      subscriptionId: webhook.id,
      eventId,
      eventType: webhookTestEvent,
      payload,
      now: ctx.now,
    }),
    // Not due: the dispatcher never picks a test delivery up; this request sends it.
    nextAttemptAt: null,
  };
  await ctx.tx.deliveries.insert(delivery);
  const { sender, allowPrivateTargets } = ctx.services.webhooks;

  return {
    status: 200,
    after: async ({ storage, nowMs }) => {
      const startedAt = nowMs();
      const result = sender
        ? await sendAttempt(sender, webhook, delivery, startedAt, allowPrivateTargets)
        : { status: null, retryAfter: null, error: 'no webhook sender is configured', durationMs: 0 };
      const delivered = succeeded(result);
      const now = isoTime(nowMs());
      await storage.transaction(async (tx) =>
        tx.deliveries.update({
          ...delivery,
          status: delivered ? 'delivered' : 'failed',
          attempts: 1,
          lastAttemptAt: isoTime(startedAt),
          lastResponseStatus: result.status,
          lastError: result.error,
          lastDurationMs: result.durationMs,
          deliveredAt: delivered ? now : null,
          updatedAt: now,
        }),
      );
      return ok({
        eventId,
        delivered,
        responseStatus: result.status,
        durationMs: result.durationMs,
        error: result.error,
      });
    },
  };
}
