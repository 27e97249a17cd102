import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Standard Webhooks signatures (https://www.standardwebhooks.com): `webhook-id`,
 * `webhook-timestamp` (unix seconds) and `webhook-signature: v1,<base64>`, the base64 of
 * HMAC-SHA256(key, `${id}.${timestamp}.${body}`) where the key is the secret's bytes: the
 * base64 after its `whsec_` prefix. During a rotation the header carries one `v1,…` per
 * secret, separated by spaces.
 */
export const standardHeaders = {
  id: 'webhook-id',
  timestamp: 'webhook-timestamp',
  signature: 'webhook-signature',
} as const;

const prefix = 'whsec_';

/** The HMAC key of a `whsec_<base64>` secret. Node's base64 decoder also reads base64url. */
export function standardKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith(prefix) ? secret.slice(prefix.length) : secret, 'base64');
}

export function computeStandardSignature(
  secret: string,
  id: string,
  timestamp: number,
  body: string | Uint8Array,
): string {
  return createHmac('sha256', standardKey(secret))
    .update(`${id}.${timestamp}.`)
    .update(body)
    .digest('base64');
}

/** The `webhook-signature` value for `secrets`, newest first. */
export function standardSignatureValue(
  secrets: readonly string[],
  id: string,
  timestamp: number,
  body: string | Uint8Array,
): string {
  return secrets.map((s) => `v1,${computeStandardSignature(s, id, timestamp, body)}`).join(' ');
}

/** Whether any `v1` signature of the header matches (no tolerance check: see the receiver libraries). */
export function standardSignatureMatches(input: {
  secret: string;
  id: string;
  timestamp: number;
  body: string | Uint8Array;
  header: string;
}): boolean {
  const expected = Buffer.from(computeStandardSignature(input.secret, input.id, input.timestamp, input.body));
  return input.header.split(' ').some((part) => {
    const [version, signature] = part.split(',');
    if (version !== 'v1' || signature === undefined) return false;
    const given = Buffer.from(signature);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
