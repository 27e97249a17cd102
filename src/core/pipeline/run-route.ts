import { isoTime } from '../runtime.js';
import { withFields } from '../with-fields.js';
import { authorizeReplayedBatch, operationRunner } from './batch.js';
import { checkBodySize, parseJsonBody } from './body.js';
import { noneMatchNames, type Precondition } from './conditional.js';
import { type BatchOperation, operationContext, tenantOf } from './context.js';
import {
  fingerprint,
  idempotencyRetentionMs,
  judge,
  keyInUse,
  keyReused,
  readIdempotencyKey,
  remember,
  replayedBody,
} from './idempotency.js';
import {
  type Announced,
  announcing,
  preconditionFor,
  validatedInput,
  withAnnouncedText,
  withLocation,
} from './operation.js';
import type { Reply } from './reply.js';
import type { ParsedRequest } from './request.js';
import { type Authorized, effectiveMethod } from './request-state.js';

/** With an Idempotency-Key: the key, the request's fingerprint, and before when keys are expired. */
interface Keyed {
  key: string;
  print: string;
  expiredBefore: string;
}

/**
 * Runs an authorized request's route in its transaction: its idempotency key judged (a replay
 * answers as the first request did), its input validated, its handler run, its answer
 * remembered under the key or compared with the client's validator.
 */
export async function runRoute(state: Authorized): Promise<Reply> {
  const { req, route, principal, tx, nowMs } = state;
  const key =
    route.kind === 'create' || route.kind === 'action'
      ? readIdempotencyKey(req.headers['idempotency-key'], route.kind === 'create')
      : null;
  const precondition = preconditionFor(route, req.headers['if-match']);
  // A read's body has no meaning (RFC 9110 §9.3.1) and not every host can even see one (a fetch
  // Request cannot carry it): ignored, so every host answers a GET alike.
  const rawBody = route.kind === 'read' ? undefined : readJsonBody(req);
  // The key is judged before the body is validated: a key already used for another request is
  // 422 whatever this body is, and a replay answers as the first request did.
  const keyed = key ? keyedRequest(state, key, rawBody) : null;
  if (keyed) {
    const replay = await replayOf(state, keyed, rawBody);
    if (replay) return replay;
  }
  const { query, body } = validatedInput(route, state.query, rawBody);
  const { reply, announced } = await runHandler(state, precondition, query, body);
  if (keyed) {
    const { key, print, expiredBefore } = keyed;
    const use = { workspaceId: principal.workspaceId, key, fingerprint: print, createdAt: isoTime(nowMs) };
    return remember(tx, reply, use, { expiredBefore, bodySignal: bodySignalOf(reply, announced) });
  }
  return notModified(req, reply) ?? reply;
}

/** The request's fingerprint and the time before which keys are expired, dated for keyed requests only. */
function keyedRequest({ req, route, query, nowMs }: Authorized, key: string, rawBody: unknown): Keyed {
  return {
    key,
    // The query too: a replay answers only the request that was made (a query the route
    // refuses is refused, not replayed).
    print: fingerprint(route.method, req.path, rawBody, query),
    expiredBefore: isoTime(nowMs - idempotencyRetentionMs),
  };
}

/**
 * The first answer under the request's key, replayed; null when the key is new. A batch's is
 * replayed only to a caller who may run each of its operations (keys are the workspace's).
 */
async function replayOf(
  { rt, tx, principal, route, query }: Authorized,
  keyed: Keyed,
  rawBody: unknown,
): Promise<Reply | null> {
  const outcome = judge(
    await tx.idempotency.get(principal.workspaceId, keyed.key),
    keyed.print,
    keyed.expiredBefore,
  );
  if (outcome.kind === 'mismatch') throw keyReused();
  if (outcome.kind === 'pending') throw keyInUse();
  if (outcome.kind !== 'replay') return null;
  const replayed = await replayedBody(tx, principal.accountId, outcome.record.body);
  if (route.runsOperations) {
    const { operations } = validatedInput(route, query, rawBody).body as { operations: BatchOperation[] };
    await authorizeReplayedBatch(rt.route, principal, operations, replayed);
  }
  return {
    status: route.kind === 'create' ? 200 : outcome.record.status,
    body: replayed,
    headers: withFields(outcome.record.headers, { 'Idempotent-Replayed': 'true' }),
  };
}

/**
 * The route's handler run with the request's operation context; its answer, and the last signal
 * the request wrote with the object it carries (a create answers with that object).
 */
async function runHandler(
  state: Authorized,
  precondition: Precondition | null,
  query: unknown,
  body: unknown,
): Promise<{ reply: Reply; announced: Announced | null }> {
  const { rt, req, route, principal, params, tx, nowMs, services } = state;
  const now = isoTime(nowMs);
  const plain = operationContext(tx, now, rt.ids, tenantOf(principal), precondition, services);
  const { ctx, announced } = announcing(plain);
  if (route.runsOperations) ctx.operations = operationRunner(batchOf(state, now));
  const handled = await route.handle(ctx, { params, query, body, headers: req.headers, secure: req.secure });
  const reply = withAnnouncedText(withLocation(handled, req.path), announced());
  return { reply, announced: announced() };
}

/** What a batch's operations run with: the request's transaction, time and token. */
const batchOf = ({ rt, req, tx, principal, services }: Authorized, now: string) => ({
  route: rt.route,
  tx,
  now,
  ids: rt.ids,
  principal,
  services,
  headers: req.headers,
  secure: req.secure,
});

/** 304 for a GET whose validator the client already holds; null otherwise. */
function notModified(req: ParsedRequest, reply: Reply): Reply | null {
  if (effectiveMethod(req) !== 'GET' || reply.status !== 200 || !reply.headers?.ETag) return null;
  const noneMatch = req.headers['if-none-match'];
  if (noneMatch === undefined || !noneMatchNames(noneMatch, reply.headers.ETag)) return null;
  return { status: 304, headers: { ETag: reply.headers.ETag } };
}

/**
 * The signal whose object is the answer's body, if any: the same object (not an equal one; views
 * are not changed once announced), and the answer shows it as it is (no `replayBody`).
 */
function bodySignalOf(reply: Reply, announced: Announced | null): string | null {
  if (announced === null || reply.replayBody !== undefined || reply.body === undefined) return null;
  return reply.body === announced.object ? announced.id : null;
}

/** The request's JSON body (undefined when empty), within the size limit. */
function readJsonBody(req: ParsedRequest): unknown {
  checkBodySize(req.headers, req.body);
  return parseJsonBody(req.headers, req.body);
}
