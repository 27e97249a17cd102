import type { WebhookEvent } from './types.js';

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

const encoder = new TextEncoder();

async function verifyService(body: Uint8Array, header: HeaderReader, secrets: string[]): Promise<number> {
  const value = header('x-service-signature');
  if (value === null) throw new WebhookVerificationError('missing_header', 'No signature header');
  let timestamp: number | null = null;
  const signatures: Uint8Array[] = [];
  for (const part of value.split(',')) {
    const at = part.indexOf('=');
    const key = part.slice(0, at).trim();
    const field = part.slice(at + 1).trim();
    if (key === 't' && /^\d{1,12}$/.test(field)) timestamp = Number(field);
    else if (key === 'v1' && /^[0-9a-fA-F]{64}$/.test(field)) signatures.push(hexBytes(field));
  }
  if (timestamp === null || signatures.length === 0) {
    throw new WebhookVerificationError('malformed_header', 'X-Service-Signature needs t= and v1=');
  }
  const signed = concat(encoder.encode(`${timestamp}.`), body);
  await expectMatch(
    secrets.map((s) => encoder.encode(s)),
    signed,
    signatures,
  );
  return timestamp;
}

async function verifyStandard(
  body: Uint8Array,
  header: HeaderReader,
  signatureValue: string,
  secrets: string[],
): Promise<number> {
  const id = header('webhook-id');
  const stamp = header('webhook-timestamp');
  if (id === null || stamp === null) {
    throw new WebhookVerificationError('missing_header', 'webhook-id and webhook-timestamp are needed');
  }
  if (!/^\d{1,12}$/.test(stamp.trim())) {
    throw new WebhookVerificationError('malformed_header', 'webhook-timestamp is not unix seconds');
  }
  const signatures: Uint8Array[] = [];
  for (const entry of signatureValue.split(' ')) {
    const comma = entry.indexOf(',');
    if (comma === -1 || entry.slice(0, comma) !== 'v1') continue;
    const decoded = base64Bytes(entry.slice(comma + 1));
    if (decoded) signatures.push(decoded);
  }
  if (signatures.length === 0) throw new WebhookVerificationError('malformed_header', 'No v1 signature');
  const keys = secrets.map((s) => {
    const key = base64Bytes(s.startsWith('whsec_') ? s.slice('whsec_'.length) : s);
    if (!key) throw new WebhookVerificationError('malformed_header', 'The secret is not whsec_<base64>');
    return key;
  });
  await expectMatch(keys, concat(encoder.encode(`${id}.${stamp.trim()}.`), body), signatures);
  return Number(stamp.trim());
}

/** Passes when any signature is the HMAC-SHA256 of `signed` under any key, checked in constant time. */
async function expectMatch(keys: Uint8Array[], signed: Uint8Array, signatures: Uint8Array[]): Promise<void> {
  for (const raw of keys) {
    const key = await crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, [
      'verify',
    ]);
    for (const signature of signatures) {
      if (await crypto.subtle.verify('HMAC', key, signature, signed)) return;
    }
  }
  throw new WebhookVerificationError('no_matching_signature', 'No signature matches the secret');
}

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

function bytesOf(body: string | Uint8Array | ArrayBuffer): Uint8Array {
  if (typeof body === 'string') return encoder.encode(body);
  return body instanceof Uint8Array ? body : new Uint8Array(body);
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

function hexBytes(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/** Base64 or base64url, padding optional; null when it is neither. */
function base64Bytes(text: string): Uint8Array | null {
  const normalized = text.trim().replaceAll('-', '+').replaceAll('_', '/').replace(/=+$/, '');
  if (!/^[A-Za-z0-9+/]*$/.test(normalized) || normalized.length % 4 === 1) return null;
  const binary = atob(normalized.padEnd(Math.ceil(normalized.length / 4) * 4, '='));
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}
