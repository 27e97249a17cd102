import { ApiError } from '../errors.js';
import {
  type RowRead,
  StorageUnavailable,
  type TransactionOptions,
  TransientConflict,
  UniqueViolation,
} from '../port/index.js';
import { ClientGone, withAdmittedBody } from './admit-body.js';
import { forgetAdmitted, noteAdmitted } from './admitted-tokens.js';
import { afterCommit, type Outcome } from './after-commit.js';
import { allowedMethods, decodePathParams, optionsReply } from './allow.js';
import { authenticate, authorize, type Principal } from './auth.js';
import { batchSize, isBatchPath } from './batch.js';
import { checkBodySize, parseJsonBody } from './body.js';
import type { Services } from './context.js';
import { keyInUse, readIdempotencyKey } from './idempotency.js';
import { internal } from './internal-error.js';
import { needsPreparation, prepareServices } from './prepare.js';
import { probePaths } from './probe-paths.js';
import type { RateLimitDecision } from './rate-limit.js';
import type { Reply } from './reply.js';
import type { ParsedRequest, TrackerResponse } from './request.js';
import { classify, type InTransaction, type RequestState, type Target } from './request-state.js';
import { methodNotAllowed, type RouteMatch, unknownPath } from './router.js';
import { runRoute } from './run-route.js';
import type { TrackerRuntime } from './runtime.js';
import { serialize } from './serialize.js';
import { storageTimeSpent } from './storage-time.js';
import { refuseIfLimited, takeMoreRate, takeRate } from './take-rate.js';
import { illFormedText } from './well-formed-text.js';

/**
 * The whole request pipeline: rate limit → authenticate → route → authorize → idempotency and
 * preconditions → validate → handler. The rate limit is taken outside any transaction, once per
 * request (a transaction may be re-run; a re-run must not count twice, and a refused request
 * costs no write lock). Everything after runs inside one storage transaction, authentication
 * included, so a failed request leaves nothing behind and a request sees the token, membership
 * and data of one moment. Errors come back as problem+json, or as an extension shows them.
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
    refuseIfLimited(rate);
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
      refuseIfLimited(rate);
    }
    // Before anything reads the request's text: refused alike on every adapter, the extensions'
    // forms included (problem+json, as no browser sends such text). The open endpoints (the API
    // description, its assets) read nothing of a request but a validator to compare.
    const illFormed = target.open ? null : illFormedText(req);
    if (illFormed) {
      const problem = { status: 400, body: illFormed.toProblem(), headers: illFormed.headers };
      return serialize(problem, req, requestId, rate);
    }
    if (req.method === 'OPTIONS' && target.isApi) {
      return serialize(await answerOptions(rt, req), req, requestId, rate);
    }
    const outcome = await handleWithRetry(rt, req, target);
    return serializeCharged(rt, outcome, req, requestId, rate);
  } catch (error) {
    if (error instanceof ClientGone) throw error.reason;
    return serialize(errorReply(rt, req, error, requestId), req, requestId, rate);
  }
}

/**
 * The outcome as the response. Serializing the answer is the account's too: a page of 200 large
 * issues (10 MB of JSON) keeps the event loop for tens of ms, which every other request waits out.
 */
function serializeCharged(
  rt: TrackerRuntime,
  outcome: Outcome,
  req: ParsedRequest,
  requestId: string,
  rate: RateLimitDecision | null,
): TrackerResponse {
  const budget = rt.storageTime;
  if (!budget || outcome.account === null)
    return serialize(outcome.reply, req, requestId, rate, outcome.stream);
  const started = performance.now();
  const response = serialize(outcome.reply, req, requestId, rate, outcome.stream);
  budget.charge(outcome.account, performance.now() - started, rt.clock.now());
  return response;
}

/** A failed request's answer: problem+json, or the page of an extension that shows the path's errors. */
function errorReply(rt: TrackerRuntime, req: ParsedRequest, error: unknown, requestId: string): Reply {
  const apiError =
    error instanceof ApiError
      ? error
      : error instanceof TransientConflict
        ? transientConflict()
        : error instanceof StorageUnavailable
          ? storageUnavailable(rt, error, requestId)
          : internal(rt, error, requestId);
  return (
    rt.extensions.errorReply(req.path, apiError) ?? {
      status: apiError.status,
      body: apiError.toProblem(),
      headers: apiError.headers,
    }
  );
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

/**
 * The storage, or the node of it that holds the account's rows, did not answer (a database
 * server down or restarting, a Citus worker away): the request may be sent again shortly, with
 * the same Idempotency-Key. The probes say the same of the whole storage (probes.ts).
 */
function storageUnavailable(rt: TrackerRuntime, error: StorageUnavailable, requestId: string): ApiError {
  // Told like any failure, with its cause (which node, which error), for the operator.
  rt.onError(error, requestId);
  return new ApiError(
    503,
    'service_unavailable',
    'Storage did not answer; retry in 1 s.',
    {},
    { 'Retry-After': '1' },
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
      return await handleOnce(await requestState(rt, req, target));
    } catch (error) {
      if (!(error instanceof UniqueViolation && error.what === 'idempotency.key')) throw error;
      if (attempt >= 1) throw keyInUse();
    }
  }
}

/** The request's state before its transaction: routed, and its route's outside work done. */
async function requestState(rt: TrackerRuntime, req: ParsedRequest, target: Target): Promise<RequestState> {
  const match = target.needsToken ? await rt.route(target.method, req.url) : null;
  const services =
    match === null || target.method === 'GET' ? rt.services : await servicesFor(rt, req, match);
  return { rt, req, target, match, services };
}

/** One run: the request's transaction, then its work after the commit. */
async function handleOnce(state: RequestState): Promise<Outcome> {
  const { rt, target } = state;
  // GETs, and the extensions' pages that only read (signing in looks the user up; the password
  // is checked after the transaction), run in a read transaction.
  const mode = target.method === 'GET' || target.page?.readsOnly ? 'read' : 'write';
  const { reply, principal } = await rt.storage.transaction(
    (tx) => answerInTransaction({ ...state, tx, nowMs: rt.clock.now() }),
    mode === 'read' ? withRead({ mode }, rowReadOf(state.match)) : writeHintsOf(state),
  );
  // The account whose writes this request may make, and whose changes its stream waits for.
  const account = principal?.accountId ?? null;
  if (mode === 'write' && account !== null) rt.changes.notify(account);
  // Most answers have no work after the commit: they make none of its closures.
  if (!reply.after && !reply.streamFrom) return { reply, stream: null, account };
  return afterCommit(state, reply, principal);
}

/** The row a read route looks at first (`Route.readsRow`), which its transaction may read ahead. */
function rowReadOf(match: RouteMatch | null): RowRead | undefined {
  if (match?.kind !== 'route' || !match.route.readsRow) return undefined;
  const raw = match.params.id;
  if (raw === undefined) return undefined;
  // A malformed escape is answered (400) after authentication, as without the hint.
  try {
    return { collection: match.route.readsRow, id: decodeURIComponent(raw) };
  } catch {
    return undefined;
  }
}

const withRead = (options: TransactionOptions, readsFirst: RowRead | undefined): TransactionOptions =>
  readsFirst ? { ...options, readsFirst } : options;

/**
 * What a write transaction does first after its grant, told ahead: the Idempotency-Key it claims
 * (a create's or an action's, when the header holds one), then the row its body refers to
 * (`Route.readsRowOfBody`). Hints only: a header or body the route refuses gives none.
 */
function writeHintsOf({ req, match }: RequestState): TransactionOptions {
  if (match?.kind !== 'route') return { mode: 'write' };
  const { route } = match;
  const options: TransactionOptions = { mode: 'write' };
  if (route.kind === 'create' || route.kind === 'action') {
    try {
      const key = readIdempotencyKey(req.headers['idempotency-key'], false);
      if (key !== null) options.claimsKey = key;
    } catch {
      // Refused (400) after authentication, as without the hint.
    }
  }
  const refers = route.readsRowOfBody;
  if (refers === undefined) return options;
  let body: unknown;
  try {
    // Within the size limit only: a body the request refuses is not parsed for a hint.
    checkBodySize(req.headers, req.body);
    body = parseJsonBody(req.headers, req.body);
  } catch {
    return options;
  }
  const id =
    body !== null && typeof body === 'object' ? (body as Record<string, unknown>)[refers.field] : undefined;
  // Only an id of the form every id has: the body is not validated yet, and what no id holds (a
  // NUL, say, which PostgreSQL's text cannot) must not reach the storage before the route refuses it.
  const wellFormed = typeof id === 'string' && idShape.test(id);
  return withRead(options, wellFormed ? { collection: refers.collection, id } : undefined);
}

/** The form of every id the server makes (`prj_…`): a prefix, an underscore, letters and digits. */
const idShape = /^[a-z]+_[0-9A-Za-z]{1,64}$/;

/** The answer made inside the transaction, and who the request acts as once authenticated. */
interface Answered {
  reply: Reply;
  principal: Principal | null;
}

/** Answers an open endpoint or an extension's page, or authenticates an API request and runs it. */
async function answerInTransaction(state: InTransaction): Promise<Answered> {
  const { rt, req, target, tx, nowMs } = state;
  if (!target.needsToken) {
    if (target.open) return { reply: await target.open(tx, req), principal: null };
    if (target.page) return { reply: await target.page.answer({ tx, req, nowMs }), principal: null };
    throw unknownPath(req.path);
  }
  const principal = await authenticate(tx, req.headers.authorization, nowMs);
  if (principal instanceof ApiError) {
    forgetAdmitted(rt, req.headers.authorization);
    throw principal;
  }
  // Only a request that may carry a body profits from the token's being known (admit-body.ts).
  if (target.method !== 'GET' && target.method !== 'HEAD') noteAdmitted(rt, req.headers.authorization);
  const budget = rt.storageTime;
  if (!budget) return { reply: await answerAuthenticated(state, principal), principal };
  const wait = budget.admit(principal.accountId, nowMs);
  if (wait !== null) throw storageTimeSpent(wait);
  try {
    return { reply: await answerAuthenticated(state, principal), principal };
  } finally {
    // Whatever it answered: a request that failed (a 404, a 409) kept the storage busy too.
    budget.charge(principal.accountId, tx.busyMs(), rt.clock.now());
  }
}

/** A request whose token authenticated: routed, authorized and run. */
function answerAuthenticated(state: InTransaction, principal: Principal): Promise<Reply> {
  const { req, match, target } = state;
  if (match === null || match.kind === 'not_found') throw unknownPath(req.path);
  if (match.kind === 'method_not_allowed') {
    throw methodNotAllowed(req.method, allowedMethods(match.allow));
  }
  const { route, query } = match;
  const params = decodePathParams(match.params);
  const denied = authorize(principal, route.access, target.method);
  if (denied) throw denied;
  return runRoute({ ...state, principal, route, params, query });
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
