import { webhookEvents } from '../../webhooks/events.js';
import { defineFamily } from '../family.js';
import { webhookReplayResultSchema, webhookReplaySchema } from './replay.js';
import { webhookRoutes } from './routes.js';
import {
  attemptSchema,
  deliveryDetailSchema,
  deliveryPageSchema,
  deliverySchema,
  deliveryStatsSchema,
  webhookCreatedSchema,
  webhookCreateSchema,
  webhookPageSchema,
  webhookPatchSchema,
  webhookRotatedSchema,
  webhookSchema,
  webhookTestResultSchema,
} from './schema.js';

export const webhooksFamily = defineFamily({
  name: 'webhooks',
  routes: webhookRoutes,
  about:
    "Subscriptions that receive the account's events, signed, at an https:// URL, and their deliveries. Workspace admins only.",
  events: webhookEvents,
  eventObject: { prefix: 'webhook', schema: webhookSchema },
  schemas: {
    responses: {
      Webhook: webhookSchema,
      WebhookPage: webhookPageSchema,
      WebhookCreated: webhookCreatedSchema,
      WebhookRotated: webhookRotatedSchema,
      WebhookDelivery: deliverySchema,
      WebhookDeliveryPage: deliveryPageSchema,
      WebhookDeliveryDetail: deliveryDetailSchema,
      WebhookDeliveryAttempt: attemptSchema,
      WebhookDeliveryStats: deliveryStatsSchema,
      WebhookTestResult: webhookTestResultSchema,
      WebhookReplayResult: webhookReplayResultSchema,
    },
    requests: {
      WebhookCreate: webhookCreateSchema,
      WebhookPatch: webhookPatchSchema,
      WebhookReplay: webhookReplaySchema,
    },
  },
});
