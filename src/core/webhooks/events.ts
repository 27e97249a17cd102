/** The event types of webhook subscriptions themselves (CONTRACT §6). */
export const webhookEvents = {
  created: 'webhook.created',
  updated: 'webhook.updated',
  deleted: 'webhook.deleted',
} as const;

/** Sent only by POST /webhooks/{id}/test, never as a signal. */
export const webhookTestEvent = 'webhook.test';
