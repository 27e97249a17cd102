import type { WebhookEvent } from './types.js';
import {
  bytesOf,
  MalformedSecretError,
  parseServiceSignature,
  parseStandardSignature,
  serviceSignatureMatches,
  standardSignatureMatches,
} from './webhook-signature.js';

/**
 * Verifies a webhook delivery and returns its event. Two signature schemes are understood:
 *
 * - `X-Service-Signature: t=<unix seconds>,v1=<hex>` where the hex is HMAC-SHA256 keyed with the
 *   secret's text over `<t>.<raw body>` (Stripe's scheme);
 * - Standard Webhooks (https://www.standardwebhooks.com): `webhook-id`, `webhook-timestamp` and
 *   `webhook-signature: v1,<base64>` where the base64 is HMAC-SHA256 keyed with the bytes the
 *   `whsec_<base64>` secret encodes, over `<id>.<timestamp>.<raw body>`.
 *
 * A delivery carrying Standard Webhooks headers is judged by them, otherwise by
 * `X-Service-Signature`. Any one of several signatures (a secret being rotated) may match;
 * signatures are compared in constant time (Web Crypto's `verify`); a timestamp further than
 * `toleranceSeconds` (default 300) from now is refused, so an old delivery cannot be replayed.
 * Pass the exact bytes received, before any JSON parsing. Throws `WebhookVerificationError`.
 */
export async function verifyWebhook<E extends { type: string } = WebhookEvent>(
  rawBody: string | Uint8Array | ArrayBuffer,
  headers: HeadersLike,
  secret: string | readonly string[],
  options: VerifyWebhookOptions = {},
): Promise<E> {
  const body = bytesOf(rawBody);
  const header = headerReader(headers);
  const secrets = typeof secret === 'string' ? [secret] : [...secret];
  const tolerance = options.toleranceSeconds ?? 300;
  const nowSeconds = Math.floor((options.now?.() ?? Date.now()) / 1000);
  const standard = header('webhook-signature');
  const timestamp =
    standard !== null
      ? await verifyStandard(body, header, standard, secrets)
      : await verifyService(body, header, secrets);
  if (Math.abs(nowSeconds - timestamp) > tolerance) {
    throw new WebhookVerificationError(
      'timestamp_outside_tolerance',
      'The delivery is too old or too far ahead',
    );
  }
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body)) as E;
  } catch {
    throw new WebhookVerificationError('invalid_body', 'The signed body is not JSON');
  }
}

export interface VerifyWebhookOptions {
  /** How far the signed timestamp may be from now, in seconds; default 300. */
  toleranceSeconds?: number;
  /** The current time in ms (for tests); default `Date.now`. */
  now?: () => number;
}

/** Headers as `fetch`, `node:http` or a plain object give them. */
export type HeadersLike =
  | Headers
  | { get(name: string): string | null }
  | Record<string, string | readonly string[] | undefined>;

export type WebhookVerificationReason =
  | 'missing_header'
  | 'malformed_header'
  | 'no_matching_signature'
  | 'timestamp_outside_tolerance'
  | 'invalid_body';

/** A delivery that does not verify: answer it with a 400 and do not act on it. */
export class WebhookVerificationError extends Error {
  readonly reason: WebhookVerificationReason;

  constructor(reason: WebhookVerificationReason, message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
    this.reason = reason;
  }
}

async function verifyService(body: Uint8Array, header: HeaderReader, secrets: string[]): Promise<number> {
  const value = header('x-service-signature');
  if (value === null) throw new WebhookVerificationError('missing_header', 'No signature header');
  const parsed = parseServiceSignature(value);
  if (!parsed) {
    throw new WebhookVerificationError('malformed_header', 'X-Service-Signature needs t= and v1=');
  }
  if (!(await serviceSignatureMatches(secrets, parsed.timestamp, body, parsed.signatures))) throw noMatch();
  return parsed.timestamp;
}

async function verifyStandard(
  body: Uint8Array,
  header: HeaderReader,
  signatureValue: string,
  secrets: string[],
): Promise<number> {
  const id = header('webhook-id');
  const stamp = header('webhook-timestamp')?.trim() ?? null;
  if (id === null || stamp === null) {
    throw new WebhookVerificationError('missing_header', 'webhook-id and webhook-timestamp are needed');
  }
  if (!/^\d{1,12}$/.test(stamp)) {
    throw new WebhookVerificationError('malformed_header', 'webhook-timestamp is not unix seconds');
  }
  const signatures = parseStandardSignature(signatureValue);
  if (signatures.length === 0) throw new WebhookVerificationError('malformed_header', 'No v1 signature');
  let matches: boolean;
  try {
    matches = await standardSignatureMatches(secrets, id, stamp, body, signatures);
  } catch (error) {
    if (error instanceof MalformedSecretError)
      throw new WebhookVerificationError('malformed_header', error.message);
    throw error;
  }
  if (!matches) throw noMatch();
  return Number(stamp);
}

const noMatch = () =>
  new WebhookVerificationError('no_matching_signature', 'No signature matches the secret');

type HeaderReader = (name: string) => string | null;

function headerReader(headers: HeadersLike): HeaderReader {
  if (typeof (headers as Headers).get === 'function') {
    const h = headers as { get(name: string): string | null };
    return (name) => h.get(name);
  }
  const lower = new Map<string, string>();
  for (const [name, value] of Object.entries(
    headers as Record<string, string | readonly string[] | undefined>,
  )) {
    if (value === undefined) continue;
    lower.set(name.toLowerCase(), typeof value === 'string' ? value : value.join(', '));
  }
  return (name) => lower.get(name) ?? null;
}
