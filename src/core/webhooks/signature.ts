import {
  computeServiceSignature,
  parseServiceSignature,
  type SignedBody,
  serviceSignatureMatches,
  serviceSignatureValue,
} from '@outcome-tracker/client';

/**
 * Webhook signatures, Stripe-style: `X-Service-Signature: t=<unix seconds>,v1=<hex>` where the hex
 * is HMAC-SHA256(secret, `${t}.${raw body}`). During a secret rotation a header carries one v1
 * per secret, newest first, and a receiver accepts the delivery when any of them verifies. The
 * scheme itself is the client's (webhook-signature.ts, on Web Crypto): the server signs with the
 * code receivers verify with.
 */

export const signatureHeader = 'X-Service-Signature';
export const eventIdHeader = 'X-Service-Event-Id';

/** Five minutes either way, as Stripe's libraries default to. */
export const defaultToleranceSeconds = 300;

/** The hex signature of a delivery signed with `secret` at `timestamp` (unix seconds). */
export const computeSignature: (secret: string, timestamp: number, body: SignedBody) => Promise<string> =
  computeServiceSignature;

/** The header value for a delivery signed with each of `secrets` at `timestamp` (unix seconds). */
export const signatureHeaderValue: (
  secrets: readonly string[],
  timestamp: number,
  body: SignedBody,
) => Promise<string> = serviceSignatureValue;

export type VerifyResult =
  | { ok: true; timestamp: number }
  | { ok: false; reason: 'malformed_header' | 'no_matching_signature' | 'timestamp_outside_tolerance' };

/**
 * Verifies a delivery the way a receiver should: over the exact bytes received, comparing in
 * constant time, and refusing timestamps outside the tolerance (replays).
 */
export async function verifySignature(input: {
  body: SignedBody;
  header: string;
  secret: string;
  nowSeconds: number;
  toleranceSeconds?: number;
}): Promise<VerifyResult> {
  const parsed = parseServiceSignature(input.header);
  if (!parsed) return { ok: false, reason: 'malformed_header' };
  const { timestamp, signatures } = parsed;
  if (!(await serviceSignatureMatches([input.secret], timestamp, input.body, signatures))) {
    return { ok: false, reason: 'no_matching_signature' };
  }
  const tolerance = input.toleranceSeconds ?? defaultToleranceSeconds;
  if (Math.abs(input.nowSeconds - timestamp) > tolerance)
    return { ok: false, reason: 'timestamp_outside_tolerance' };
  return { ok: true, timestamp };
}
