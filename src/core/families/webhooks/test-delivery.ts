import type { WebhookDelivery } from '../../model.js';
import type { OperationContext } from '../../pipeline/context.js';
import { ok, type Reply } from '../../pipeline/reply.js';
import { isoTime } from '../../runtime.js';
import {
  attemptLogEntry,
  judgeAttempt,
  type SentAttempt,
  sendAttempt,
  succeeded,
} from '../../webhooks/attempt.js';
import { webhookTestEvent } from '../../webhooks/events.js';
import { deliveryPayload, newDelivery } from '../../webhooks/outbox.js';
import { deliveryTimeoutMs } from '../../webhooks/sender.js';
import { getWebhookRow } from './operations.js';

/**
 * POST /webhooks/{id}/test: logs one signed `webhook.test` delivery, already `sending` under
 * this request's lease, sends it once the transaction has committed (a slow receiver must not
 * hold the database), records the attempt and answers `{ eventId, delivered, responseStatus,
 * durationMs, error }`. It is never retried on schedule; if the process dies before recording
 * it, the lease runs out and the dispatcher sends it once more, as any delivery.
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
  const leaseId = ctx.ids.uuid();
  const delivery: WebhookDelivery = {
    ...newDelivery(ctx.ids, {
      accountId: webhook.accountId,
      subscriptionId: webhook.id,
      eventId,
      eventType: webhookTestEvent,
      payload,
      now: ctx.now,
    }),
    status: 'sending',
    nextAttemptAt: null,
    leaseId,
    leaseExpiresAt: isoTime(Date.parse(ctx.now) + deliveryTimeoutMs * 3),
  };
  await ctx.tx.deliveries.insert(delivery);
  const { sender, allowPrivateTargets } = ctx.services.webhooks;

  return {
    status: 200,
    after: async ({ storage, nowMs }) => {
      const startedAt = nowMs();
      const sent: SentAttempt = sender
        ? await sendAttempt(sender, webhook, delivery, startedAt, allowPrivateTargets)
        : {
            headers: {},
            result: {
              status: null,
              retryAfter: null,
              error: 'no webhook sender is configured',
              durationMs: 0,
            },
          };
      const { result } = sent;
      const outcome = judgeAttempt(delivery, webhook, result, nowMs(), 0);
      const attempt = attemptLogEntry({
        id: ctx.ids.id('att'),
        delivery,
        url: webhook.url,
        sent,
        startedAtMs: startedAt,
      });
      await storage.transaction((tx) =>
        tx.deliveries.recordAttempts([{ delivery: outcome.delivery, leaseId, attempt }]),
      );
      return ok({
        eventId,
        delivered: succeeded(result),
        responseStatus: result.status,
        durationMs: result.durationMs,
        error: result.error,
      });
    },
  };
}
