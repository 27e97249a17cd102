import { z } from 'zod';
import type { SignalEvent, WebhookDelivery, WebhookSubscription } from '../../model.js';
import type { OperationContext } from '../../pipeline/context.js';
import { sha256Hex } from '../../sha256.js';
import { deliveryPayload, newDelivery } from '../../webhooks/outbox.js';
import { eventTypes, unknownEventType } from '../events.js';
import { serviceOwnedFields, withoutReadOnly } from '../shared/schema.js';
import { getWebhookRow } from './operations.js';

/** At most this many signals are looked at by one replay; `nextAfter` says where to go on. */
export const maxReplayedSignals = 10_000;

const sequence = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

// Service-owned fields a client copied from something it read are ignored, as in every body.
export const webhookReplaySchema = withoutReadOnly(
  serviceOwnedFields,
  z
    .strictObject({
      after: sequence.describe(
        'Replay the signals after this sequence (a signal cursor: the `sequence` of the last event the receiver has)',
      ),
      until: sequence
        .optional()
        .describe('…up to and including this sequence (default: the latest); not below `after`'),
      types: z
        .array(z.enum(eventTypes, { error: unknownEventType('') }))
        .min(1)
        .optional()
        .describe('Only these event types (of those the webhook subscribes to)'),
    })
    // An empty range said backwards is a mistake of the caller's, not a replay of nothing.
    .refine((body) => body.until === undefined || body.until >= body.after, {
      path: ['until'],
      message: 'until must not be before after',
    }),
);
export type WebhookReplay = z.output<typeof webhookReplaySchema>;

export const webhookReplayResultSchema = z.strictObject({
  queued: z.number().int().min(0).describe('Deliveries queued by this request'),
  nextAfter: sequence
    .nullable()
    .describe(
      `Where to replay on from when the range held more than ${maxReplayedSignals} signals; null when it was done`,
    ),
});
export type WebhookReplayResult = z.output<typeof webhookReplayResultSchema>;

const base62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * The id of the replay delivery of one event to one subscription: the same whatever the request,
 * so a second replay of a range finds the first one's deliveries (the replay is idempotent), and,
 * beginning with the event's sequence, sorting as the events do.
 */
export function replayDeliveryId(
  subscriptionId: string,
  event: Pick<SignalEvent, 'id' | 'sequence'>,
): string {
  let sequenceDigits = '';
  for (let rest = event.sequence, i = 0; i < 9; i++, rest = Math.floor(rest / 62))
    sequenceDigits = base62[rest % 62] + sequenceDigits;
  const hash = sha256Hex(`replay\u0000${subscriptionId}\u0000${event.id}`);
  let hashDigits = '';
  for (let i = 0; i < 11; i++) hashDigits += base62[Number.parseInt(hash.slice(i * 2, i * 2 + 2), 16) % 62];
  return `dlv_${sequenceDigits}${hashDigits}`;
}

const wants = (subscription: WebhookSubscription, type: string) =>
  subscription.eventTypes.includes('*') || subscription.eventTypes.includes(type);

/** The subscription's deliveries made since `since`, by event id (newest first: they are listed so). */
async function deliveriesSince(
  ctx: OperationContext,
  subscriptionId: string,
  since: string,
): Promise<Map<string, WebhookDelivery[]>> {
  const byEvent = new Map<string, WebhookDelivery[]>();
  let after: { createdAt: string; id: string } | undefined;
  for (;;) {
    const page = await ctx.tx.deliveries.list({
      accountId: ctx.tenant.accountId,
      subscriptionId,
      limit: 200,
      ...(after ? { after } : {}),
    });
    for (const delivery of page.rows) {
      if (delivery.createdAt < since) return byEvent;
      byEvent.set(delivery.eventId, [...(byEvent.get(delivery.eventId) ?? []), delivery]);
    }
    const last = page.rows.at(-1);
    if (!last || page.rows.length < 200) return byEvent;
    after = { createdAt: last.createdAt, id: last.id };
  }
}

/**
 * Queues, for the subscription, one delivery of every signal of the account still in the stream
 * with a sequence in (after, until] whose type it subscribes to (and, with `types`, of those types),
 * in sequence order, carrying the signal's event id and payload as first sent.
 *
 * An event the subscription has had delivered already, or one this replay queued before (its
 * delivery has a fixed id, replayDeliveryId), is not queued again: replaying a range twice queues
 * nothing more, and a receiver does not get twice what it acknowledged. A delivery of a queued
 * event still waiting for a retry is superseded (marked failed), so the event is sent once.
 */
export async function replayWebhook(
  ctx: OperationContext,
  webhookId: string,
  input: WebhookReplay,
): Promise<WebhookReplayResult> {
  const subscription = await getWebhookRow(ctx, webhookId);
  const types = (input.types ?? null)?.filter((type) => wants(subscription, type));
  if (types?.length === 0) return { queued: 0, nextAfter: null };
  const until = input.until ?? Number.MAX_SAFE_INTEGER;

  const events: SignalEvent[] = [];
  let cursor = input.after;
  let more = false;
  while (cursor < until) {
    const page = await ctx.tx.signals.list({
      accountId: ctx.tenant.accountId,
      afterSequence: cursor,
      ...(types ? { types } : {}),
      limit: 500,
    });
    for (const event of page) {
      if (event.sequence > until) break;
      if (events.length === maxReplayedSignals) {
        more = true;
        break;
      }
      if (wants(subscription, event.type)) events.push(event);
      cursor = event.sequence;
    }
    if (more || page.length < 500 || (page.at(-1)?.sequence ?? until) > until) break;
  }
  const first = events[0];
  if (!first) return { queued: 0, nextAfter: null };

  const existing = await deliveriesSince(ctx, subscription.id, first.occurredAt);
  let queued = 0;
  for (const event of events) {
    const id = replayDeliveryId(subscription.id, event);
    const earlier = existing.get(event.id) ?? [];
    if (earlier.some((d) => d.status === 'delivered')) continue;
    if ((await ctx.tx.deliveries.get(ctx.tenant.accountId, id)) !== null) continue;
    for (const waiting of earlier.filter((d) => d.status === 'pending')) {
      await ctx.tx.deliveries.update({
        ...waiting,
        status: 'failed',
        nextAttemptAt: null,
        lastError: `superseded by the replay delivery ${id}`,
        updatedAt: ctx.now,
      });
    }
    const delivery = newDelivery(
      { id: () => id, uuid: () => ctx.ids.uuid() },
      {
        accountId: ctx.tenant.accountId,
        subscriptionId: subscription.id,
        eventId: event.id,
        eventType: event.type,
        payload: deliveryPayload(event),
        now: ctx.now,
      },
    );
    await ctx.tx.deliveries.insert(delivery);
    queued++;
  }
  if (queued > 0) ctx.services.webhooks.deliveriesQueued?.();
  return { queued, nextAfter: more ? cursor : null };
}
