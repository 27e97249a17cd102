/**
 * The webhook signature schemes, on Web Crypto alone: what the server signs deliveries with and
 * what `verifyWebhook` checks, one implementation for both (and for any runtime: Node 20,
 * browsers, Deno, Bun, workers).
 *
 * - Stripe-style: `X-Service-Signature: t=<unix seconds>,v1=<hex>`, the hex of HMAC-SHA256 keyed
 *   with the secret's text over `<t>.<raw body>`;
 * - Standard Webhooks (https://www.standardwebhooks.com): `webhook-signature: v1,<base64>`, the
 *   base64 of HMAC-SHA256 keyed with the bytes the `whsec_<base64>` secret encodes, over
 *   `<webhook-id>.<webhook-timestamp>.<raw body>`.
 *
 * During a secret rotation a header carries one signature per secret, newest first; a delivery
 * verifies when any of them matches any secret.
 */

export type SignedBody = string | Uint8Array | ArrayBuffer;

const encoder = new TextEncoder();

export function bytesOf(body: SignedBody): Uint8Array {
  if (typeof body === 'string') return encoder.encode(body);
  return body instanceof Uint8Array ? body : new Uint8Array(body);
}

/** The Stripe-style signature of `<timestamp>.<body>` under `secret`, in hex. */
export async function computeServiceSignature(
  secret: string,
  timestamp: number,
  body: SignedBody,
): Promise<string> {
  return hex(await hmac(encoder.encode(secret), serviceSigned(timestamp, body)));
}

/** The `X-Service-Signature` value for a delivery signed with each of `secrets` at `timestamp`. */
export async function serviceSignatureValue(
  secrets: readonly string[],
  timestamp: number,
  body: SignedBody,
): Promise<string> {
  const signatures = await Promise.all(secrets.map((s) => computeServiceSignature(s, timestamp, body)));
  return [`t=${timestamp}`, ...signatures.map((signature) => `v1=${signature}`)].join(',');
}

/** An `X-Service-Signature` value's timestamp and signatures; null when it lacks either. */
export function parseServiceSignature(value: string): { timestamp: number; signatures: Uint8Array[] } | null {
  let timestamp: number | null = null;
  const signatures: Uint8Array[] = [];
  for (const part of value.split(',')) {
    const at = part.indexOf('=');
    if (at <= 0) continue;
    const key = part.slice(0, at).trim();
    const field = part.slice(at + 1).trim();
    if (key === 't' && /^\d{1,12}$/.test(field)) timestamp = Number(field);
    else if (key === 'v1' && /^[0-9a-fA-F]{64}$/.test(field)) signatures.push(hexBytes(field));
  }
  return timestamp === null || signatures.length === 0 ? null : { timestamp, signatures };
}

/** Whether any of `signatures` is the Stripe-style signature under any of `secrets`. */
export function serviceSignatureMatches(
  secrets: readonly string[],
  timestamp: number,
  body: SignedBody,
  signatures: readonly Uint8Array[],
): Promise<boolean> {
  const keys = secrets.map((s) => encoder.encode(s));
  return anyMatches(keys, serviceSigned(timestamp, body), signatures);
}

/** The HMAC key of a `whsec_<base64>` secret (base64 or base64url); null when it is neither. */
export function standardKey(secret: string): Uint8Array | null {
  return base64Bytes(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret);
}

/** The Standard Webhooks signature of `<id>.<timestamp>.<body>` under `secret`, in base64. */
export async function computeStandardSignature(
  secret: string,
  id: string,
  timestamp: number | string,
  body: SignedBody,
): Promise<string> {
  return base64(await hmac(requiredKey(secret), standardSigned(id, timestamp, body)));
}

/** The `webhook-signature` value for `secrets`, newest first. */
export async function standardSignatureValue(
  secrets: readonly string[],
  id: string,
  timestamp: number,
  body: SignedBody,
): Promise<string> {
  const signatures = await Promise.all(secrets.map((s) => computeStandardSignature(s, id, timestamp, body)));
  return signatures.map((signature) => `v1,${signature}`).join(' ');
}

/** The `v1` signatures of a `webhook-signature` value (entries of other versions are skipped). */
export function parseStandardSignature(value: string): Uint8Array[] {
  const signatures: Uint8Array[] = [];
  for (const entry of value.split(' ')) {
    const comma = entry.indexOf(',');
    if (comma === -1 || entry.slice(0, comma) !== 'v1') continue;
    const decoded = base64Bytes(entry.slice(comma + 1));
    if (decoded) signatures.push(decoded);
  }
  return signatures;
}

/** Whether any of `signatures` is the Standard Webhooks signature under any of `secrets`. */
export function standardSignatureMatches(
  secrets: readonly string[],
  id: string,
  timestamp: number | string,
  body: SignedBody,
  signatures: readonly Uint8Array[],
): Promise<boolean> {
  return anyMatches(secrets.map(requiredKey), standardSigned(id, timestamp, body), signatures);
}

/** A secret that is not `whsec_<base64>` cannot key Standard Webhooks signatures. */
export class MalformedSecretError extends Error {
  constructor() {
    super('The secret is not whsec_<base64>');
    this.name = 'MalformedSecretError';
  }
}

function requiredKey(secret: string): Uint8Array {
  const key = standardKey(secret);
  if (!key) throw new MalformedSecretError();
  return key;
}

const serviceSigned = (timestamp: number, body: SignedBody) =>
  concat(encoder.encode(`${timestamp}.`), bytesOf(body));

const standardSigned = (id: string, timestamp: number | string, body: SignedBody) =>
  concat(encoder.encode(`${id}.${timestamp}.`), bytesOf(body));

const hmacKey = (raw: Uint8Array, usage: 'sign' | 'verify') =>
  crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, [usage]);

async function hmac(key: Uint8Array, data: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.sign('HMAC', await hmacKey(key, 'sign'), data));
}

/** Checked by Web Crypto's `verify`, which compares in constant time. */
async function anyMatches(
  keys: readonly Uint8Array[],
  signed: Uint8Array,
  signatures: readonly Uint8Array[],
): Promise<boolean> {
  for (const raw of keys) {
    const key = await hmacKey(raw, 'verify');
    for (const signature of signatures) {
      if (await crypto.subtle.verify('HMAC', key, signature, signed)) return true;
    }
  }
  return false;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

const hex = (bytes: Uint8Array): string => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

function hexBytes(text: string): Uint8Array {
  const out = new Uint8Array(text.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(text.slice(i * 2, i * 2 + 2), 16);
  return out;
}

function base64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
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
