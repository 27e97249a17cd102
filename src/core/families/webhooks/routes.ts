import { ok, resource } from '../../pipeline/reply.js';
import { defineRoute } from '../../pipeline/route.js';
import { familyRoutes } from '../shared/routes.js';
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
  }),
  defineRoute({
    method: 'POST',
    path: '/webhooks/:id/rotate-secret',
    access: 'admin_write',
    kind: 'action',
    summary: "Rotate a webhook's signing secret",
    response: webhookRotatedSchema,
    handle: async (ctx, { params }) => resource(await rotateWebhookSecret(ctx, id(params))),
  }),
  defineRoute({
    method: 'POST',
    path: '/webhooks/:id/test',
    access: 'admin_write',
    kind: 'action',
    summary: 'Send a signed test event',
    response: webhookTestResultSchema,
    handle: (ctx, { params }) => testWebhook(ctx, id(params)),
  }),
  defineRoute({
    method: 'GET',
    path: '/webhooks/:id/deliveries',
    access: 'admin_read',
    kind: 'read',
    summary: "List a webhook's deliveries",
    query: deliveryListQuerySchema,
    response: deliveryPageSchema,
    handle: async (ctx, { params, query }) => ok(await listDeliveries(ctx, id(params), query)),
  }),
  defineRoute({
    method: 'GET',
    path: '/webhooks/:id/deliveries/:deliveryId',
    access: 'admin_read',
    kind: 'read',
    summary: 'Get a delivery with its attempts',
    response: deliveryDetailSchema,
    handle: async (ctx, { params }) => ok(await getDelivery(ctx, id(params), params.deliveryId ?? '')),
  }),
  defineRoute({
    method: 'POST',
    path: '/webhooks/:id/deliveries/:deliveryId/retry',
    access: 'admin_write',
    kind: 'action',
    summary: 'Redeliver a delivery now',
    response: deliverySchema,
    handle: async (ctx, { params }) => ok(await retryDelivery(ctx, id(params), params.deliveryId ?? '')),
  }),
  defineRoute({
    method: 'GET',
    path: '/webhooks/:id/delivery-stats',
    access: 'admin_read',
    kind: 'read',
    summary: "Count a webhook's attempts per hour",
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
