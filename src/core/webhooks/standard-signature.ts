/**
 * Standard Webhooks signatures (https://www.standardwebhooks.com): `webhook-id`,
 * `webhook-timestamp` (unix seconds) and `webhook-signature: v1,<base64>`, the base64 of
 * HMAC-SHA256(key, `${id}.${timestamp}.${body}`) where the key is the secret's bytes: the
 * base64 after its `whsec_` prefix. During a rotation the header carries one `v1,…` per
 * secret, separated by spaces. The scheme itself is the client's (webhook-signature.ts).
 */
export { computeStandardSignature, standardSignatureValue } from '@outcome-tracker/client';

export const standardHeaders = {
  id: 'webhook-id',
  timestamp: 'webhook-timestamp',
  signature: 'webhook-signature',
} as const;
