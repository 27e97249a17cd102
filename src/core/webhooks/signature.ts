import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Webhook signatures, Stripe-style: `X-Service-Signature: t=<unix seconds>,v1=<hex>` where the hex
 * is HMAC-SHA256(secret, `${t}.${raw body}`). During a secret rotation a header carries one v1
 * per secret, newest first, and a receiver accepts the delivery when any of them verifies.
 */

export const signatureHeader = 'X-Service-Signature';
export const eventIdHeader = 'X-Service-Event-Id';

/** Five minutes either way, as Stripe's libraries default to. */
export const defaultToleranceSeconds = 300;

export function computeSignature(secret: string, timestamp: number, body: string | Uint8Array): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex');
}

/** The header value for a delivery signed with each of `secrets` at `timestamp` (unix seconds). */
export function signatureHeaderValue(
  secrets: readonly string[],
  timestamp: number,
  body: string | Uint8Array,
): string {
  return [`t=${timestamp}`, ...secrets.map((s) => `v1=${computeSignature(s, timestamp, body)}`)].join(',');
}

export type VerifyResult =
  | { ok: true; timestamp: number }
  | { ok: false; reason: 'malformed_header' | 'no_matching_signature' | 'timestamp_outside_tolerance' };

/**
 * Verifies a delivery the way a receiver should: over the exact bytes received, comparing in
 * constant time, and refusing timestamps outside the tolerance (replays).
 */
export function verifySignature(input: {
  body: string | Uint8Array;
  header: string;
  secret: string;
  nowSeconds: number;
  toleranceSeconds?: number;
}): VerifyResult {
  let timestamp: number | null = null;
  const candidates: string[] = [];
  for (const part of input.header.split(',')) {
    const at = part.indexOf('=');
    if (at <= 0) continue;
    const key = part.slice(0, at).trim();
    const value = part.slice(at + 1).trim();
    if (key === 't' && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    if (key === 'v1' && /^[0-9a-f]{64}$/.test(value)) candidates.push(value);
  }
  if (timestamp === null || candidates.length === 0) return { ok: false, reason: 'malformed_header' };
  const expected = Buffer.from(computeSignature(input.secret, timestamp, input.body), 'hex');
  const matches = candidates.some((c) => timingSafeEqual(Buffer.from(c, 'hex'), expected));
  if (!matches) return { ok: false, reason: 'no_matching_signature' };
  const tolerance = input.toleranceSeconds ?? defaultToleranceSeconds;
  if (Math.abs(input.nowSeconds - timestamp) > tolerance)
    return { ok: false, reason: 'timestamp_outside_tolerance' };
  return { ok: true, timestamp };
}
