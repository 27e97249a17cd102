import { ok, resource } from '../../pipeline/reply.js';
import { defineRoute } from '../../pipeline/route.js';
import { familyRoutes, standardOperationIds } from '../shared/routes.js';
import { webhookExamples } from './examples.js';
import {
  createWebhook,
  deleteWebhook,
  deliveryStats,
  getDelivery,
  getWebhook,
  listDeliveries,
  listWebhooks,
  resolveTargetHost,
  retryDelivery,
  rotateWebhookSecret,
  updateWebhook,
} from './operations.js';
import { replayWebhook, webhookReplayResultSchema, webhookReplaySchema } from './replay.js';
import {
  deliveryDetailSchema,
  deliveryListQuerySchema,
  deliveryPageSchema,
  deliverySchema,
  deliveryStatsQuerySchema,
  deliveryStatsSchema,
  webhookCreatedSchema,
  webhookCreateSchema,
  webhookListQuerySchema,
  webhookPageSchema,
  webhookPatchSchema,
  webhookRotatedSchema,
  webhookSchema,
  webhookTestResultSchema,
} from './schema.js';
import { testWebhook } from './test-delivery.js';

const id = (params: Record<string, string>) => params.id ?? '';

/** Webhooks belong to the account: workspace admins manage them; a read token may only look. */
export const webhookRoutes = [
  ...familyRoutes({
    path: '/webhooks',
    noun: 'webhook',
    responses: { item: webhookSchema, page: webhookPageSchema, created: webhookCreatedSchema },
    readAccess: 'admin_read',
    writeAccess: 'admin_write',
    list: { query: webhookListQuerySchema, run: listWebhooks },
    // The secret is shown once: a replay of the create answers `secret: null`, and the stored
    // answer never holds it.
    create: {
      body: webhookCreateSchema,
      run: createWebhook,
      replay: (created) => ({ ...created, secret: null }),
    },
    get: getWebhook,
    update: { body: webhookPatchSchema, run: updateWebhook },
    remove: deleteWebhook,
    operationIds: standardOperationIds('Webhook', 'Webhooks'),
    about: {
      create:
        'The answer holds the signing `secret`, shown only here: a replay answers `secret: null`. The URL must be https:// and its host must not resolve to a private, loopback or link-local address.',
      update: 'Setting `status` to `disabled` stops deliveries; back to `active` resumes them.',
    },
    examples: webhookExamples,
  }),
  defineRoute({
    method: 'POST',
    path: '/webhooks/:id/rotate-secret',
    access: 'admin_write',
    kind: 'action',
    operationId: 'rotateWebhookSecret',
    summary: "Rotate a webhook's signing secret",
    description:
      'Issues a new signing secret, shown only in this answer (a replay of its Idempotency-Key answers `secret: null`). For 24 hours (until `previousSecretExpiresAt`) deliveries carry a second `v1` signature made with the old secret, so a receiver can switch without losing any.',
    examples: { response: webhookExamples.rotated },
    response: webhookRotatedSchema,
    handle: async (ctx, { params }) => {
      const rotated = await rotateWebhookSecret(ctx, id(params));
      // The secret is shown once: a replay of the request's Idempotency-Key answers it null, as a
      // create's replay does, so no stored answer holds it.
      return { ...resource(rotated), replayBody: { ...rotated, secret: null } };
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/webhooks/:id/test',
    access: 'admin_write',
    kind: 'action',
    operationId: 'testWebhook',
    summary: 'Send a signed test event',
    description:
      "Sends one signed `webhook.test` event to the webhook's URL now and answers what the receiver did. The attempt is logged among the deliveries; it is never retried on schedule.",
    examples: { response: webhookExamples.testResult },
    response: webhookTestResultSchema,
    handle: (ctx, { params }) => testWebhook(ctx, id(params)),
  }),
  defineRoute({
    method: 'POST',
    path: '/webhooks/:id/replay',
    access: 'admin_write',
    kind: 'action',
    accepted: true,
    operationId: 'replayWebhook',
    summary: 'Replay the event stream to a webhook',
    description:
      "Queues one delivery for each signal still in the stream after `after` (a signal's `sequence`), up to `until`, of the types the webhook subscribes to (and of `types`, when given), in sequence order, each carrying the signal's event id: receivers de-duplicate by it. An event the webhook had delivered, or one an earlier replay queued, is not queued again, so a replay is idempotent; a delivery of a queued event still waiting for a retry is superseded. Answers 202 with the number queued; the dispatcher sends them. At most 10,000 signals a request: `nextAfter` says where to go on.",
    examples: { request: { after: 41, types: ['issue.created'] }, response: { queued: 3, nextAfter: null } },
    body: webhookReplaySchema,
    response: webhookReplayResultSchema,
    handle: async (ctx, { params, body }) => ({
      status: 202,
      body: await replayWebhook(ctx, id(params), body),
    }),
  }),
  defineRoute({
    method: 'GET',
    path: '/webhooks/:id/deliveries',
    access: 'admin_read',
    kind: 'read',
    operationId: 'listWebhookDeliveries',
    summary: "List a webhook's deliveries",
    description:
      'One page of the deliveries made for this webhook, one per event sent, with their state and attempts. Follow `nextCursor` (null on the last page) for the next page.',
    examples: { response: webhookExamples.deliveryPage },
    query: deliveryListQuerySchema,
    response: deliveryPageSchema,
    handle: async (ctx, { params, query }) => ok(await listDeliveries(ctx, id(params), query)),
  }),
  defineRoute({
    method: 'GET',
    path: '/webhooks/:id/deliveries/:deliveryId',
    access: 'admin_read',
    kind: 'read',
    operationId: 'getWebhookDelivery',
    summary: 'Get a delivery with its attempts',
    description:
      "One delivery with the payload sent and its attempt log: each signed request as sent and the receiver's answer (status, headers, the start of the body).",
    examples: { response: webhookExamples.deliveryDetail },
    response: deliveryDetailSchema,
    handle: async (ctx, { params }) => ok(await getDelivery(ctx, id(params), params.deliveryId ?? '')),
  }),
  defineRoute({
    method: 'POST',
    path: '/webhooks/:id/deliveries/:deliveryId/retry',
    access: 'admin_write',
    kind: 'action',
    operationId: 'retryWebhookDelivery',
    summary: 'Redeliver a delivery now',
    description:
      'Puts the delivery back in the queue for an attempt now, with a fresh retry schedule, whatever its state. The attempts made stay logged. A delivery being sent at that moment is answered 409 delivery_in_flight rather than sent twice.',
    examples: { response: webhookExamples.delivery },
    response: deliverySchema,
    handle: async (ctx, { params }) => ok(await retryDelivery(ctx, id(params), params.deliveryId ?? '')),
  }),
  defineRoute({
    method: 'GET',
    path: '/webhooks/:id/delivery-stats',
    access: 'admin_read',
    kind: 'read',
    operationId: 'getWebhookDeliveryStats',
    summary: "Count a webhook's attempts per hour",
    description:
      'Attempts that succeeded (2xx) and failed in each of the last `hours` hours (24 by default), oldest first, every hour listed.',
    examples: { response: webhookExamples.stats },
    query: deliveryStatsQuerySchema,
    response: deliveryStatsSchema,
    handle: async (ctx, { params, query }) => ok(await deliveryStats(ctx, id(params), query.hours)),
  }),
].map((route) =>
  // Create and PATCH resolve the URL's host before their transaction.
  route.path === '/webhooks' && route.method === 'POST'
    ? { ...route, prepare: resolveTargetHost }
    : route.path === '/webhooks/:id' && route.method === 'PATCH'
      ? { ...route, prepare: resolveTargetHost }
      : route,
);
