import { z } from 'zod';
import { canonicalJson } from '../canonical-json.js';
import { ApiError } from '../errors.js';
import type { IdempotencyRecord } from '../model.js';
import type { StorageTx } from '../port/index.js';
import { isoTime } from '../runtime.js';
import { sha256Hex } from '../sha256.js';
import { withFields } from '../with-fields.js';
import type { Reply } from './reply.js';

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

/**
 * The request's identity for a key: method, path, query and the body with key order ignored. A
 * request without a query is fingerprinted as before queries counted, so keys stored by an older
 * version still replay.
 */
export function fingerprint(
  method: string,
  path: string,
  body: unknown,
  query: Readonly<Record<string, unknown>> = {},
): string {
  const identity = `${method} ${path}\n${canonicalJson(body ?? null)}`;
  return sha256Hex(Object.keys(query).length === 0 ? identity : `${identity}\n${canonicalJson(query)}`);
}

/**
 * The status of a record that holds a key while its request's after-commit work (the send of a
 * test delivery) runs: a request with the same key meanwhile is told to retry (409).
 */
export const pendingStatus = 0;

/** A key given back by a request whose after-commit work failed: dated so long ago it is expired. */
const released = '1970-01-01T00:00:00.000Z';

export type IdempotencyOutcome =
  | { kind: 'fresh' }
  | { kind: 'pending' }
  | { kind: 'replay'; record: IdempotencyRecord }
  | { kind: 'mismatch'; record: IdempotencyRecord };

/** Judges a stored record against this request. An expired record counts as absent. */
export function judge(
  record: IdempotencyRecord | null,
  print: string,
  expiredBefore: string,
): IdempotencyOutcome {
  if (!record || record.createdAt < expiredBefore) return { kind: 'fresh' };
  if (record.fingerprint !== print) return { kind: 'mismatch', record };
  return record.status === pendingStatus ? { kind: 'pending' } : { kind: 'replay', record };
}

/**
 * The body a replay answers: the stored text, or the object of the signal the record refers to.
 * A live record's signal is kept (see IdempotencyRecord.body): one found missing was deleted from
 * outside (or purged by an older version, which kept signals as briefly as configured).
 */
export async function replayedBody(tx: StorageTx, accountId: string, body: IdempotencyRecord['body']) {
  if (typeof body === 'string') return JSON.parse(body) as unknown;
  const signal = await tx.signals.get(accountId, body.signalId);
  if (!signal) throw new Error(`the signal ${body.signalId} holding an idempotent answer is gone`);
  return signal.data.object;
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

/** Who used a key, and when: the record's identity, before the answer is known. */
export type KeyUse = Omit<IdempotencyRecord, 'status' | 'body' | 'headers'>;

const isSuccess = (reply: Reply) => reply.status >= 200 && reply.status < 300;

/**
 * Stores a successful answer with its key, in the request's transaction (CONTRACT §4), as a replay
 * will answer it (`replayBody` when the first answer showed a secret once). An answer made after
 * commit (the send of a test delivery) cannot be: its key is held by a pending record in this
 * transaction, so concurrent requests with the key get 409 instead of sending again, and a second
 * transaction stores the answer once it exists (or gives the key back when the work failed).
 * `expiredBefore`: records dated before are expired (replaced); `bodySignal`: the signal whose
 * object is this answer's body (a create's), kept instead of the body.
 */
export async function remember(
  tx: StorageTx,
  reply: Reply,
  use: KeyUse,
  { expiredBefore, bodySignal }: { expiredBefore: string; bodySignal: string | null },
): Promise<Reply> {
  const recordOf = (answer: Reply): IdempotencyRecord & { body: string } =>
    recordOfUse(
      use,
      answer.status,
      JSON.stringify(answer.replayBody ?? answer.body ?? null),
      answer.headers ?? {},
    );
  const after = reply.after;
  if (!after) {
    if (!isSuccess(reply)) return reply;
    if (bodySignal !== null) {
      const headers = reply.headers ?? {};
      await tx.idempotency.put(
        recordOfUse(use, reply.status, { signalId: bodySignal }, headers),
        expiredBefore,
      );
      return reply;
    }
    const record = recordOf(reply);
    await tx.idempotency.put(record, expiredBefore);
    // The answer shows what is stored: it is sent as that text rather than serialized again.
    const storedIsShown = reply.replayBody === undefined && reply.body !== undefined;
    return storedIsShown ? withFields(reply, { json: record.body }) : reply;
  }
  await tx.idempotency.put(recordOfUse(use, pendingStatus, 'null', {}), expiredBefore);
  // Replaces exactly the pending record: nothing else with this key can be dated at or before it.
  const pendingOnly = isoTime(Date.parse(use.createdAt) + 1);
  return {
    ...reply,
    after: async (deps) => {
      let answer: Reply | null = null;
      try {
        answer = await after(deps);
        return answer;
      } finally {
        const final =
          answer && isSuccess(answer)
            ? recordOf(answer)
            : recordOfUse({ ...use, createdAt: released }, pendingStatus, 'null', {});
        await deps.storage.transaction((later) => later.idempotency.put(final, pendingOnly));
      }
    },
  };
}

/**
 * The record of a key's use with its answer, written out field by field: a spread of `use` with
 * the answer's fields added would take V8's slow path (see withFields), once per keyed request.
 */
function recordOfUse<Body extends IdempotencyRecord['body']>(
  use: KeyUse,
  status: number,
  body: Body,
  headers: Record<string, string>,
): IdempotencyRecord & { body: Body } {
  return {
    workspaceId: use.workspaceId,
    key: use.key,
    fingerprint: use.fingerprint,
    createdAt: use.createdAt,
    status,
    body,
    headers,
  };
}
