/**
 * What a host (src/http) builds on besides the tracker itself (`index.ts`): reading a Node
 * request's body within the tracker's limits, and sending webhooks over Node's
 * sockets. Hosts import only this file and `index.ts`, so the core's insides can move freely.
 */
export { announcesBody, readCapped, readStreamCapped } from './edge/read-capped.js';
export { responseBodyCaptureBytes } from './model.js';
export { bodyTimeoutMs, bodyTooSlow } from './pipeline/admit-body.js';
export { declaresOversizedBody } from './pipeline/body.js';
export {
  connectTimeoutMs,
  type WebhookRequest,
  type WebhookResult,
  type WebhookSender,
} from './webhooks/sender.js';
export { isForbiddenAddress } from './webhooks/ssrf.js';
export { withFields } from './with-fields.js';
