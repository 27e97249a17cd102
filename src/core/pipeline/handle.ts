import { ApiError } from '../errors.js';
import { type Storage, type StorageTx, TransientConflict, UniqueViolation } from '../port/index.js';
import { probePaths } from '../public-routes.js';
import { isoTime } from '../runtime.js';
import { withFields } from '../with-fields.js';
import { ClientGone, withAdmittedBody } from './admit-body.js';
import { allowedMethods, decodePathParams, optionsReply } from './allow.js';
import { authenticate, authorize, type Principal } from './auth.js';
import { type Grant, grantLost } from './authority.js';
import { authorizeReplayedBatch, batchSize, isBatchPath, operationRunner } from './batch.js';
import { checkBodySize, parseJsonBody } from './body.js';
import { noneMatchNames } from './conditional.js';
import { type BatchOperation, operationContext, type Services, tenantOf } from './context.js';
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
import { needsPreparation, prepareServices } from './prepare.js';
import { rateKeys } from './rate-key.js';
import { type RateLimitDecision, rateLimitHeaders } from './rate-limit.js';
import type { AfterCommitDeps, Reply } from './reply.js';
import type { ParsedRequest, TrackerResponse } from './request.js';
import type { Route } from './route.js';
import { apiBase, methodNotAllowed, type RouteMatch, unknownPath } from './router.js';
import { type PublicRoute, type TrackerRuntime, waitForChange } from './runtime.js';
import { chargedStorage, storageTimeSpent } from './storage-time.js';
import { holdingSlot, tooManyStreams } from './stream-slots.js';
import { illFormedText } from './well-formed-text.js';

/** What a request produced, before serialization. */
interface Outcome {
  reply: Reply;
  stream: AsyncIterable<string> | null;
  /** The account the request acted for, once its token was read; null before (and for open routes). */
  account: string | null;
}

const jsonType = 'application/json; charset=utf-8';
const problemType = 'application/problem+json; charset=utf-8';

/**
 * The whole request pipeline: rate limit → authenticate → route → authorize → idempotency and
 * preconditions → validate → handler. The rate limit is taken outside any transaction, once per
 * request (a transaction may be re-run; a re-run must not count twice, and a refused request
 * costs no write lock). Everything after runs inside one storage transaction, authentication
 * included, so a failed request leaves nothing behind and a request sees the token, membership
 * and data of one moment. Errors come back as problem+json.
 */
export async function handleRequest(
  rt: TrackerRuntime,
  headed: ParsedRequest,
  requestId: string,
): Promise<TrackerResponse> {
  let rate: RateLimitDecision | null = null;
  let req = headed;
  try {
    const target = classify(rt, req);
    rate = await takeRate(rt, req, target);
    if (rate && !rate.allowed) {
      throw new ApiError(429, 'rate_limited', `Too many requests; retry in ${rate.resetSeconds} s.`, {
        retryAfter: rate.resetSeconds,
      });
    }
    // The probes and the open endpoints answer GET and HEAD only: any other method is told so.
    if (!target.open && answersGetOnly(rt, req.path)) {
      if (req.method === 'OPTIONS') return serialize(optionsReply(getOnly), req, requestId, rate);
      throw methodNotAllowed(req.method, getOnly);
    }
    // Admitted by its headers (and token): only now is a body the host has not read yet read.
    req = await withAdmittedBody(rt, req, target.needsToken);
    // A batch counts as its number of operations, known once its body is read.
    if (rate && target.isApi && target.method === 'POST' && isBatchPath(req.path)) {
      rate = await takeMoreRate(rt, req, target, batchSize(req.body) - 1, rate);
      if (!rate.allowed) {
        throw new ApiError(429, 'rate_limited', `Too many requests; retry in ${rate.resetSeconds} s.`, {
          retryAfter: rate.resetSeconds,
        });
      }
    }
    // Before anything reads the request's text: refused alike on every adapter, the admin
    // pages' forms included (problem+json, as no browser sends such text). The open endpoints
    // (the API description, its assets) read nothing of a request but a validator to compare.
    const illFormed = target.open ? null : illFormedText(req);
    if (illFormed) {
      const problem = { status: 400, body: illFormed.toProblem(), headers: illFormed.headers };
      return serialize(problem, req, requestId, rate);
    }
    if (req.method === 'OPTIONS' && target.isApi) {
      return serialize(await answerOptions(rt, req), req, requestId, rate);
    }
    const outcome = await handleWithRetry(rt, req, target);
    const budget = rt.storageTime;
    if (!budget || outcome.account === null)
      return serialize(outcome.reply, req, requestId, rate, outcome.stream);
    // Serializing the answer is the account's too: a page of 200 large issues (10 MB of JSON)
    // keeps the event loop for tens of ms, which every other request waits out.
    const started = performance.now();
    const response = serialize(outcome.reply, req, requestId, rate, outcome.stream);
    budget.charge(outcome.account, performance.now() - started, rt.clock.now());
    return response;
  } catch (error) {
    if (error instanceof ClientGone) throw error.reason;
    const apiError =
      error instanceof ApiError
        ? error
        : error instanceof TransientConflict
          ? transientConflict()
          : internal(rt, error, requestId);
    // The admin pages are for browsers: their errors are pages too.
    const reply = rt.admin.owns(req.path)
      ? rt.admin.errorPage(apiError)
      : { status: apiError.status, body: apiError.toProblem(), headers: apiError.headers };
    return serialize(reply, req, requestId, rate);
  }
}

const getOnly = ['GET', 'HEAD'];

/** Whether the path is a probe's or an open endpoint's, which answer GET and HEAD alone. */
const answersGetOnly = (rt: TrackerRuntime, path: string): boolean =>
  (probePaths as readonly string[]).includes(path) || rt.publicRoutes[`GET ${path}`] !== undefined;

/** OPTIONS: which methods the path answers, or 404 for a path no route answers. */
async function answerOptions(rt: TrackerRuntime, req: ParsedRequest): Promise<Reply> {
  const match = await rt.route('OPTIONS', req.url);
  if (match.kind === 'method_not_allowed') return optionsReply(allowedMethods(match.allow));
  throw unknownPath(req.path);
}

/**
 * Which part of the server a request is for: an open endpoint, an admin page, or the token API
 * (`needsToken`: every API request but OPTIONS, as a browser's CORS preflight never sends one).
 */
interface Target {
  method: string;
  open: PublicRoute | undefined;
  isApi: boolean;
  needsToken: boolean;
}

function classify(rt: TrackerRuntime, req: ParsedRequest): Target {
  const method = effectiveMethod(req);
  const open = rt.publicRoutes[`${method} ${req.path}`];
  const isApi = req.path.startsWith(`${apiBase}/`) && !open;
  return { method, open, isApi, needsToken: isApi && req.method !== 'OPTIONS' };
}

/** Each runtime's rate-limit keys (which remember token ids by hash). */
const rateKeysOf = new WeakMap<TrackerRuntime, ReturnType<typeof rateKeys>>();

/**
 * Counts the request against its token's budget, or its client address's when it has no valid
 * token. Called once per request, outside the storage transaction.
 */
async function takeRate(
  rt: TrackerRuntime,
  req: ParsedRequest,
  target: Target,
): Promise<RateLimitDecision | null> {
  if (!rt.limiter) return null;
  if (!target.needsToken) return rt.limiter.take(`addr:${req.clientAddress}`);
  let keyOf = rateKeysOf.get(rt);
  if (!keyOf) {
    keyOf = rateKeys(rt.storage, () => rt.clock.now());
    rateKeysOf.set(rt, keyOf);
  }
  return rt.limiter.take(await keyOf(req.headers.authorization, req.clientAddress));
}

/**
 * Counts `more` requests on top of the one taken for the request, one by one as the limiter
 * counts them (a shared store admits at most its limit whatever runs beside), stopping at the
 * first refused: the decision of the last one taken.
 */
async function takeMoreRate(
  rt: TrackerRuntime,
  req: ParsedRequest,
  target: Target,
  more: number,
  first: RateLimitDecision,
): Promise<RateLimitDecision> {
  let decision = first;
  for (let i = 0; i < more && decision.allowed; i++) {
    decision = (await takeRate(rt, req, target)) ?? decision;
  }
  return decision;
}

/**
 * A transaction that lost its race with concurrent ones as often as the storage re-runs it:
 * nothing of it was saved, and sending it again shortly will most likely work.
 */
function transientConflict(): ApiError {
  return new ApiError(
    503,
    'transient_conflict',
    'The request collided with concurrent requests too often and was not carried out; send it again.',
    {},
    { 'Retry-After': '1' },
  );
}

function internal(rt: TrackerRuntime, error: unknown, requestId: string): ApiError {
  rt.onError(error, requestId);
  return new ApiError(
    500,
    'internal_error',
    `Something went wrong on our side; quote request id ${requestId}.`,
  );
}

/**
 * Concurrent creates with one Idempotency-Key: in a database that does not serialize them,
 * the loser's insert of the key fails. Running the request once more then finds the winner's
 * record and replays it (or finds none yet and answers 409 idempotency_key_in_use).
 */
async function handleWithRetry(rt: TrackerRuntime, req: ParsedRequest, target: Target): Promise<Outcome> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await handleOnce(rt, req, target);
    } catch (error) {
      if (!(error instanceof UniqueViolation && error.what === 'idempotency.key')) throw error;
      if (attempt >= 1) throw keyInUse();
    }
  }
}

async function handleOnce(
  rt: TrackerRuntime,
  req: ParsedRequest,
  { method, open, isApi, needsToken }: Target,
): Promise<Outcome> {
  // GETs, and the admin routes that only read (signing in looks the user up; the password is
  // checked after the transaction), run in a read transaction.
  const readsOnly =
    method === 'GET' || (!needsToken && !open && !isApi && rt.admin.readsOnly(method, req.path));
  const mode = readsOnly ? 'read' : 'write';
  // Routing is pure: done once, before the transaction, which may run more than once.
  const match = needsToken ? await rt.route(method, req.url) : null;
  const services = match === null || method === 'GET' ? rt.services : await servicesFor(rt, req, match);
  // Who the request acts as: known once its transaction has authenticated it.
  let principal: Principal | null = null;
  const reply = await rt.storage.transaction(
    async (tx) => {
      const nowMs = rt.clock.now();
      principal = null;
      if (!needsToken) {
        if (open) return open(tx, req);
        const admin = isApi ? null : rt.admin.match(method, req.path);
        if (admin) return admin(tx, req, nowMs);
        throw unknownPath(req.path);
      }
      const authenticated = await authenticate(tx, req.headers.authorization, nowMs);
      if (authenticated instanceof ApiError) throw authenticated;
      principal = authenticated;
      const budget = rt.storageTime;
      if (!budget) return answerAuthenticated(rt, req, method, match, authenticated, nowMs, tx, services);
      const wait = budget.refusal(authenticated.accountId, nowMs);
      if (wait !== null) throw storageTimeSpent(wait);
      try {
        return await answerAuthenticated(rt, req, method, match, authenticated, nowMs, tx, services);
      } finally {
        // Whatever it answered: a request that failed (a 404, a 409) kept the storage busy too.
        budget.charge(authenticated.accountId, tx.busyMs(), rt.clock.now());
      }
    },
    { mode },
  );
  // The account whose writes this request may make, and whose changes its stream waits for.
  const account = (principal as Principal | null)?.accountId ?? null;
  if (mode === 'write' && account !== null) rt.changes.notify(account);
  // Most answers have no work after the commit: they make none of its closures.
  if (!reply.after && !reply.streamFrom) return { reply, stream: null, account };
  // The work after the commit is the account's too: its transactions are charged to its share,
  // and a stream's wait while the share is spent (see chargedStorage).
  const budget = rt.storageTime;
  const grant = grantOf(req, method, match, principal as Principal | null);
  const depsWith = (storage: Storage): AfterCommitDeps => ({
    storage,
    nowMs: () => rt.clock.now(),
    waitForChange: (ms) =>
      account === null
        ? new Promise((resolve) => setTimeout(resolve, ms))
        : waitForChange(rt.changes, account, ms),
    grantLost: (tx) => (grant === null ? Promise.resolve(null) : grantLost(tx, grant, rt.clock.now())),
  });
  const chargedTo = (throttle: boolean): Storage =>
    budget && account !== null ? chargedStorage(rt.storage, budget, account, rt.clock, throttle) : rt.storage;
  const final = reply.after ? await reply.after(depsWith(chargedTo(false))) : reply;
  if (!final.streamFrom) return { reply: final, stream: null, account };
  const streamDeps = depsWith(chargedTo(true));
  // HEAD learns what a GET would start, and no stream starts (serialize drops it unread): it
  // takes no slot.
  if (req.method === 'HEAD') return { reply: final, stream: final.streamFrom(streamDeps), account };
  const free = account === null ? () => {} : rt.streams.take(account);
  if (free === null) throw tooManyStreams();
  return { reply: final, stream: holdingSlot(final.streamFrom(streamDeps), free), account };
}

/** What an authenticated request was granted, for work after its commit to check again. */
function grantOf(
  req: ParsedRequest,
  method: string,
  match: RouteMatch | null,
  principal: Principal | null,
): Grant | null {
  if (principal === null || match === null || match.kind !== 'route') return null;
  return { authorization: req.headers.authorization, access: match.route.access, method, principal };
}

/** A request whose token authenticated: routed, authorized and run. */
function answerAuthenticated(
  rt: TrackerRuntime,
  req: ParsedRequest,
  method: string,
  match: RouteMatch | null,
  principal: Principal,
  nowMs: number,
  tx: StorageTx,
  services: Services,
): Promise<Reply> {
  if (match === null) throw unknownPath(req.path);
  if (match.kind === 'not_found') throw unknownPath(req.path);
  if (match.kind === 'method_not_allowed') {
    throw methodNotAllowed(req.method, allowedMethods(match.allow));
  }
  const { route, query } = match;
  const params = decodePathParams(match.params);
  const denied = authorize(principal, route.access, method);
  if (denied) throw denied;
  return runRoute(rt, req, route, principal, params, query, nowMs, tx, services);
}

/**
 * Outside work a route needs (DNS lookups) happens before the transaction, which may be re-run;
 * only for an authenticated request, so no stranger can make the server resolve names. Few
 * routes have such work: only for those is the token resolved ahead, in a read of its own (the
 * transaction authenticates it again).
 */
async function servicesFor(rt: TrackerRuntime, req: ParsedRequest, match: RouteMatch): Promise<Services> {
  if (!needsPreparation(match)) return rt.services;
  const principal = await rt.storage.transaction(
    (tx) => authenticate(tx, req.headers.authorization, rt.clock.now()),
    { mode: 'read' },
  );
  return principal instanceof ApiError ? rt.services : prepareServices(rt, req, match);
}

async function runRoute(
  rt: TrackerRuntime,
  req: ParsedRequest,
  route: Route,
  principal: Principal,
  params: Record<string, string>,
  rawQuery: Record<string, string | string[]>,
  nowMs: number,
  tx: StorageTx,
  services: Services,
): Promise<Reply> {
  const key =
    route.kind === 'create' || route.kind === 'action'
      ? readIdempotencyKey(req.headers['idempotency-key'], route.kind === 'create')
      : null;
  const precondition = preconditionFor(route, req.headers['if-match']);

  // A read's body has no meaning (RFC 9110 §9.3.1) and not every host can even see one (a fetch
  // Request cannot carry it): ignored, so every host answers a GET alike.
  const rawBody = route.kind === 'read' ? undefined : readJsonBody(req);

  const now = isoTime(nowMs);
  // The key is judged before the body is validated: a key already used for another request is
  // 422 whatever this body is, and a replay answers as the first request did.
  // With its key: the request's fingerprint, and the time before which keys are expired (dated
  // here, for requests that carry a key only).
  const keyed = key
    ? {
        key,
        // The query too: a replay answers only the request that was made (a query the route
        // refuses is refused, not replayed).
        print: fingerprint(route.method, req.path, rawBody, rawQuery),
        expiredBefore: isoTime(nowMs - idempotencyRetentionMs),
      }
    : null;
  if (keyed) {
    const { key, print, expiredBefore } = keyed;
    const outcome = judge(await tx.idempotency.get(principal.workspaceId, key), print, expiredBefore);
    if (outcome.kind === 'mismatch') throw keyReused();
    if (outcome.kind === 'pending') throw keyInUse();
    if (outcome.kind === 'replay') {
      const replayed = await replayedBody(tx, principal.accountId, outcome.record.body);
      if (route.runsOperations) {
        const { operations } = validatedInput(route, rawQuery, rawBody).body as {
          operations: BatchOperation[];
        };
        await authorizeReplayedBatch(rt.route, principal, operations, replayed);
      }
      return {
        status: route.kind === 'create' ? 200 : outcome.record.status,
        body: replayed,
        headers: withFields(outcome.record.headers, { 'Idempotent-Replayed': 'true' }),
      };
    }
  }

  const { query, body } = validatedInput(route, rawQuery, rawBody);

  const plain = operationContext(tx, now, rt.ids, tenantOf(principal), precondition, services);
  // The last signal the request wrote and the object it carries (with its text, when made): a
  // create answers with that object.
  const { ctx, announced } = announcing(plain);

  if (route.runsOperations) {
    const batch = {
      route: rt.route,
      tx,
      now,
      ids: rt.ids,
      principal,
      services,
      headers: req.headers,
      secure: req.secure,
    };
    ctx.operations = operationRunner(batch);
  }
  const reply = withAnnouncedText(
    withLocation(
      await route.handle(ctx, { params, query, body, headers: req.headers, secure: req.secure }),
      req.path,
    ),
    announced(),
  );

  if (keyed) {
    const { key, print, expiredBefore } = keyed;
    const use = { workspaceId: principal.workspaceId, key, fingerprint: print, createdAt: now };
    return remember(tx, reply, use, { expiredBefore, bodySignal: bodySignalOf(reply, announced()) });
  }
  if (effectiveMethod(req) === 'GET' && reply.status === 200 && reply.headers?.ETag) {
    const noneMatch = req.headers['if-none-match'];
    if (noneMatch !== undefined && noneMatchNames(noneMatch, reply.headers.ETag)) {
      return { status: 304, headers: { ETag: reply.headers.ETag } };
    }
  }
  return reply;
}

/**
 * The signal whose object is the answer's body, if any: the same object (not an equal one; views
 * are not changed once announced), and the answer shows it as it is (no `replayBody`).
 */
function bodySignalOf(reply: Reply, announced: Announced | null): string | null {
  if (announced === null || reply.replayBody !== undefined || reply.body === undefined) return null;
  return reply.body === announced.object ? announced.id : null;
}

/** HEAD is answered as GET without a body. */
const effectiveMethod = (req: ParsedRequest) => (req.method === 'HEAD' ? 'GET' : req.method);

/** The request's JSON body (undefined when empty), within the size limit. */
function readJsonBody(req: ParsedRequest): unknown {
  checkBodySize(req.headers, req.body);
  return parseJsonBody(req.headers, req.body);
}

function serialize(
  reply: Reply,
  req: ParsedRequest,
  requestId: string,
  rate: RateLimitDecision | null,
  stream: AsyncIterable<string> | null = null,
): TrackerResponse {
  if (stream) {
    const headers = {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache',
      'X-Accel-Buffering': 'no',
      'X-Request-Id': requestId,
      ...(rate ? rateLimitHeaders(rate) : {}),
    };
    // HEAD learns what a GET would start, and its answer ends there: a stream never ends by itself.
    return { status: 200, headers, body: null, ...(req.method === 'HEAD' ? {} : { stream }) };
  }
  if (reply.text) {
    const headers = {
      'Content-Type': reply.text.contentType,
      'X-Request-Id': requestId,
      ...(rate ? rateLimitHeaders(rate) : {}),
      ...reply.headers,
    };
    return { status: reply.status, headers, body: req.method === 'HEAD' ? null : reply.text.body };
  }
  const isProblem = reply.status >= 400;
  const hasBody =
    (reply.body !== undefined || reply.json !== undefined) && reply.status !== 204 && reply.status !== 304;
  // Built in place rather than spread together: this runs for every answer.
  const headers: Record<string, string> = {};
  if (hasBody) headers['Content-Type'] = isProblem ? problemType : jsonType;
  headers['X-Request-Id'] = requestId;
  if (rate) Object.assign(headers, rateLimitHeaders(rate));
  if (reply.headers) Object.assign(headers, reply.headers);
  const body = hasBody && req.method !== 'HEAD' ? (reply.json ?? JSON.stringify(reply.body)) : null;
  return { status: reply.status, headers, body };
}
