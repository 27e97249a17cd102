/** Webhook subscriptions as typed operations, for embedding without HTTP. */
export {
  createWebhook as create,
  type DeliveryView,
  deleteWebhook as remove,
  getWebhook as get,
  listDeliveries,
  listWebhooks as list,
  retryDelivery,
  rotateWebhookSecret as rotateSecret,
  updateWebhook as update,
  type WebhookView,
} from './operations.js';
export type { WebhookCreate, WebhookListQuery, WebhookPatch } from './schema.js';
