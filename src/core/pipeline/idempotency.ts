import { createHash } from 'node:crypto';
import { z } from 'zod';
import { canonicalJson } from '../canonical-json.js';
import { ApiError } from '../errors.js';
import type { IdempotencyRecord } from '../model.js';

/** Keys are kept 24 hours (seed, Limits). */
export const idempotencyRetentionMs = 24 * 60 * 60 * 1000;

const uuid = z.uuid();

/** Reads the Idempotency-Key header: required on creates, optional on actions. */
export function readIdempotencyKey(header: string | undefined, required: boolean): string | null {
  if (header === undefined || header.trim() === '') {
    if (!required) return null;
    throw new ApiError(
      400,
      'idempotency_key_missing',
      'Creates need an Idempotency-Key header holding a UUID.',
    );
  }
  const key = header.trim().toLowerCase();
  if (!uuid.safeParse(key).success) {
    throw new ApiError(400, 'idempotency_key_invalid', 'The Idempotency-Key header must be a UUID.', {
      received: header.slice(0, 100),
    });
  }
  return key;
}

/** The request's identity for a key: method, path and the body with key order ignored. */
export function fingerprint(method: string, path: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method} ${path}\n${canonicalJson(body ?? null)}`)
    .digest('hex');
}

export type IdempotencyOutcome =
  | { kind: 'fresh' }
  | { kind: 'replay'; record: IdempotencyRecord }
  | { kind: 'mismatch'; record: IdempotencyRecord };

/** Judges a stored record against this request. An expired record counts as absent. */
export function judge(
  record: IdempotencyRecord | null,
  print: string,
  expiredBefore: string,
): IdempotencyOutcome {
  if (!record || record.createdAt < expiredBefore) return { kind: 'fresh' };
  return record.fingerprint === print ? { kind: 'replay', record } : { kind: 'mismatch', record };
}

export const keyReused = (): ApiError =>
  new ApiError(
    422,
    'idempotency_key_reused',
    'This Idempotency-Key was already used with a different request; use a new key for a new request.',
  );

export const keyInUse = (): ApiError =>
  new ApiError(
    409,
    'idempotency_key_in_use',
    'A request with this Idempotency-Key is still being processed; retry shortly.',
    {},
    { 'Retry-After': '1' },
  );
