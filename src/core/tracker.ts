import type { CorsOptions } from './edge/cors.js';
import { createEdge } from './edge/edge.js';
import { type FetchRequestInfo, fromFetchRequest, toFetchResponse } from './edge/fetch.js';
import { restoreParsedBody } from './edge/parsed-body.js';
import { ApiError } from './errors.js';
import { mountExtensions, type TrackerExtension } from './extension.js';
import { answerMcp, type McpEndpoint, type McpEndpointFactory, mcpPath } from './mcp-endpoint.js';
import { sweepOverdue } from './overdue-sweep.js';
import { authenticate } from './pipeline/auth.js';
import {
  type OperationContext,
  operationContext,
  type Services,
  type Tenant,
  tenantOf,
} from './pipeline/context.js';
import { handleRequest } from './pipeline/handle.js';
import { idempotencyRetentionMs } from './pipeline/idempotency.js';
import { type RateLimitOptions, slidingWindowLimiter } from './pipeline/rate-limit.js';
import {
  type ParsedRequest,
  parseRequest,
  type TrackerRequest,
  type TrackerResponse,
} from './pipeline/request.js';
import { createRouter } from './pipeline/router.js';
import { type ChangeFeed, changeFeed, type TrackerRuntime } from './pipeline/runtime.js';
import {
  type StorageTimeBudget,
  type StorageTimeBudgetOptions,
  storageTimeBudget,
} from './pipeline/storage-time.js';
import { streamSlots } from './pipeline/stream-slots.js';
import type { Storage } from './port/index.js';
import { publicRoutes } from './public-routes.js';
import { routes } from './routes.js';
import { type Clock, type Ids, isoTime, randomIds, systemClock } from './runtime.js';
import { workspaceBySlug } from './tenancy/operations.js';
import { type AttemptEvent, createDispatcher, type Dispatcher } from './webhooks/dispatcher.js';
import type { WebhookSender } from './webhooks/sender.js';

export interface TrackerOptions {
  storage: Storage;
  clock?: Clock;
  ids?: Ids;
  /**
   * Where the API is served; default `/api/v1`. With `/tracker/api/v1` the reference page, the
   * probes and the admin pages move to `/tracker/…` too (see the README's mounting recipes).
   */
  basePath?: string;
  /** Browser apps on other origins allowed to call the API (CORS); off by default. */
  cors?: CorsOptions | false;
  /** gzip and brotli by `Accept-Encoding`; default on. Off when a proxy in front compresses. */
  compression?: boolean;
  /**
   * Believe `X-Forwarded-For` from this many proxies in front (`true`: one) for the client
   * address that keys the rate limit of requests without a token; default none.
   */
  trustProxy?: boolean | number;
  /**
   * Per-token request limit (default 100 in any rolling 60 s, kept in memory; `store` shares it
   * between processes); `false` turns limiting off (for embedding without HTTP clients).
   */
  rateLimit?: RateLimitOptions | false;
  /**
   * Each account's share of the storage's time (default 10,000 ms a minute, per server
   * process, or one share for every process on a database whose storage keeps them:
   * `Storage.storageTimes`, PostgreSQL's): an account whose requests took more answers 429
   * `rate_limited`, while another account with share left is active, until its share refills;
   * alone it is never held. `false` turns it off; so does `rateLimit: false`, unless this is given.
   */
  storageTimeBudget?: StorageTimeBudgetOptions | false;
  /** Called once per request after it is answered (the CLI logs these). */
  onRequest?: (entry: RequestLogEntry) => void;
  /** Called with every unexpected error; the client sees only a 500 with the request id. */
  onError?: (error: unknown, requestId: string) => void;
  /**
   * Where committed writes wake the event streams of their account; default: within this
   * process. A feed that also hears other processes' writes makes streams follow them at once.
   */
  changes?: ChangeFeed;
  /**
   * How long signals are kept; default 30 days, and never less than 25 hours: a create's
   * idempotency key (kept 24 hours) refers to its signal for the answer a retry replays.
   */
  signalRetentionMs?: number;
  /**
   * Serves the Model Context Protocol at /mcp (beside /docs, so under the base path's root),
   * authenticated and rate limited as the API: `mcp: mcpEndpoint()` from `outcome-tracker/mcp`.
   */
  mcp?: McpEndpointFactory<Tracker>;
  /**
   * What brings its own pages outside the API, in order: `[adminArea()]` from
   * `outcome-tracker/admin` serves the sign-in and settings pages (`serve` mounts it). Without
   * one, every path outside the API but the docs and probes answers a problem+json 404.
   */
  extensions?: readonly TrackerExtension[];
  webhooks?: {
    /** How deliveries go out; without one, deliveries queue up and webhook tests report an error. */
    sender?: WebhookSender;
    /** Lifts the SSRF guard for local development (`serve --allow-private-webhooks`). */
    allowPrivateTargets?: boolean;
    /** Main-pool delivery slots (slow receivers apart; see the API guide); default 64. */
    concurrency?: number;
    /** Slots one fast subscription / one account may hold; default half the pool each. */
    perSubscription?: number;
    perAccount?: number;
    /** Jitter source for retry times, in [0, 1). */
    random?: () => number;
    /** Told about every delivery attempt once recorded (the CLI logs them). */
    onAttempt?: (event: AttemptEvent) => void;
  };
}

export const defaultSignalRetentionMs = 30 * 24 * 60 * 60 * 1000;

/**
 * Signals outlive the idempotency keys that refer to them (IdempotencyRecord.body) by an hour:
 * every process purges by its own clock, and the margin covers clocks that disagree.
 */
export const minSignalRetentionMs = idempotencyRetentionMs + 60 * 60 * 1000;

/** How long signals are kept under a configured retention (see minSignalRetentionMs). */
export const signalsKeptMs = (configured: number | undefined): number =>
  Math.max(configured ?? defaultSignalRetentionMs, minSignalRetentionMs);

export interface RequestLogEntry {
  method: string;
  path: string;
  status: number;
  durationMs: number;
  requestId: string;
}

/** Whom `run` acts as: a token's user, or the operator of a workspace (no token, as the CLI). */
export type RunAs = { token: string } | { workspaceSlug: string };

export interface Tracker {
  /** Answers one HTTP request, given as a plain object. */
  handle(request: TrackerRequest): Promise<TrackerResponse>;
  /**
   * Answers one HTTP request of any fetch runtime (Deno, Bun, workers, Next.js route handlers).
   * Such runtimes do not put the peer address on the `Request`: pass it in `info` where known.
   */
  fetch(request: Request, info?: FetchRequestInfo): Promise<Response>;
  /** Where the API is served, e.g. `/api/v1`. */
  basePath: string;
  /**
   * Ends every open event stream at once with a last comment (`: server shutting down`), and any
   * opened later: `serve` calls it on SIGTERM so streams do not hold shutdown up.
   */
  endStreams(): void;
  /**
   * Runs operations in one transaction without HTTP, e.g.
   * `tracker.run({ token }, (ctx) => issues.create(ctx, { projectId, title }))`.
   * Authorization of the token's scope and role is left to the embedding app.
   */
  run<T>(as: RunAs, fn: (ctx: OperationContext) => Promise<T>): Promise<T>;
  /**
   * Calls `fn` after each committed write of the account, in this process or, on a storage that
   * hears other processes (PostgreSQL), in theirs, until the returned function is called.
   */
  onChange(accountId: string, fn: () => void): () => void;
  /** The webhook dispatcher: `serve` starts it; an embedding app may call `dispatchDue()` itself. */
  webhooks: Dispatcher;
  /** Forgets idempotency keys older than 24 h and signals past their retention; `serve` calls it hourly. */
  purgeExpired(): Promise<{ idempotencyKeys: number; signals: number }>;
  /**
   * Signals `issue.overdue` / `outcome.overdue` for each open item whose due day has passed, once
   * per item and due day however many processes sweep; `serve` calls it every minute, the test
   * clock whenever it moves. Returns how many signals this call recorded.
   */
  sweepOverdue(): Promise<number>;
  storage: Storage;
  clock: Clock;
  ids: Ids;
  close(): Promise<void>;
}

const requestIdPattern = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Each account's share of the storage's time: as asked, or by default whenever requests are
 * limited. `rateLimit: false` turns limiting off, this one too unless it is asked for: a 429
 * `rate_limited` from a server told not to limit would surprise.
 */
function storageTimeOf(
  options: TrackerOptions,
  clock: Clock,
  onSettleError: (error: unknown) => void,
): StorageTimeBudget | null {
  const asked = options.storageTimeBudget;
  if (asked === false || (asked === undefined && options.rateLimit === false)) return null;
  const store = options.storage.storageTimes;
  return storageTimeBudget({ ...(store ? { store } : {}), ...asked }, () => clock.now(), onSettleError);
}

/** Builds the tracker: the whole API over one storage adapter. */
export function createTracker(options: TrackerOptions): Tracker {
  const clock = options.clock ?? systemClock;
  const allowPrivateTargets = options.webhooks?.allowPrivateTargets ?? false;
  const ids = options.ids ?? randomIds;
  const edge = createEdge(
    {
      ...(options.basePath !== undefined ? { basePath: options.basePath } : {}),
      cors: options.cors ?? false,
      compression: options.compression ?? true,
      trustedProxyHops: options.trustProxy === true ? 1 : options.trustProxy || 0,
    },
    options.storage,
  );
  let deliveriesQueued = false;
  const services: Services = {
    webhooks: {
      sender: options.webhooks?.sender ?? null,
      allowPrivateTargets,
      deliveriesQueued: () => {
        deliveriesQueued = true;
      },
    },
  };
  const onError =
    options.onError ??
    ((error: unknown, requestId: string) =>
      console.error(`[outcome-tracker] request ${requestId} failed:`, error));
  const extensions = mountExtensions(
    options.extensions ?? [],
    { storage: options.storage, clock, ids, services, basePath: edge.mount.basePath, onError },
    publicRoutes(edge.mount),
  );
  const runtime: TrackerRuntime = {
    storage: options.storage,
    clock,
    ids,
    limiter:
      options.rateLimit === false
        ? null
        : slidingWindowLimiter({ store: options.storage.rateLimits, ...options.rateLimit }, clock),
    // Each process goes on deciding alone meanwhile: worth a line in the log, not a failure.
    storageTime: storageTimeOf(options, clock, (error) => runtime.onError(error, 'storage-time-settle')),
    route: createRouter(routes),
    onError,
    services,
    changes: wakingDispatcher(options.changes ?? changeFeed(), () => {
      // Woken after the commit, so the claim sees the rows (a rolled-back write only wakes it in vain).
      if (!deliveriesQueued) return;
      deliveriesQueued = false;
      webhooks.wake();
    }),
    streams: streamSlots(),
    publicRoutes: extensions.openRoutes,
    extensions,
  };
  // Commits of other processes on a shared database wake this process's event streams too, and
  // its dispatcher when they may have queued deliveries (a slow safety poll catches any
  // notification lost). Waking it for every commit made every process run a claim transaction
  // for each create of every other one.
  const stopListening = options.storage.changes?.subscribe((accountId, change) => {
    runtime.changes.notify(accountId);
    if (change?.deliveriesQueued !== false) webhooks.wake();
  });
  const hooks = options.webhooks ?? {};
  const webhooks = createDispatcher({
    storage: options.storage,
    clock,
    ids,
    sender: hooks.sender ?? missingSender,
    allowPrivateTargets,
    ...(hooks.concurrency ? { concurrency: hooks.concurrency } : {}),
    ...(hooks.perSubscription ? { perSubscription: hooks.perSubscription } : {}),
    ...(hooks.perAccount ? { perAccount: hooks.perAccount } : {}),
    ...(hooks.random ? { random: hooks.random } : {}),
    ...(hooks.onAttempt ? { onAttempt: hooks.onAttempt } : {}),
    onError: (error) => runtime.onError(error, 'webhook-dispatcher'),
    onDeliveriesQueued: () => webhooks.wake(),
  });

  // Made once the tracker exists: the endpoint calls the tracker's own pipeline.
  let mcp: McpEndpoint | null = null;
  const pipeline = (routed: ParsedRequest, requestId: string) =>
    mcp !== null && routed.path === mcpPath
      ? answerMcp(runtime, mcp, routed, requestId)
      : handleRequest(runtime, routed, requestId);

  const handle = async (request: TrackerRequest): Promise<TrackerResponse> => {
    const started = clock.now();
    const restored = restoreParsedBody(request);
    const parsed = parseRequest(restored instanceof ApiError ? { ...request, body: null } : restored);
    const sent = parsed.headers['x-request-id'];
    const requestId = sent && requestIdPattern.test(sent) ? sent : ids.uuid();
    const response =
      restored instanceof ApiError
        ? edge.problem(restored, requestId)
        : await edge.answer(parsed, requestId, (routed) => pipeline(routed, requestId));
    options.onRequest?.({
      method: parsed.method,
      path: parsed.path,
      status: response.status,
      durationMs: clock.now() - started,
      requestId,
    });
    return response;
  };

  const tracker: Tracker = {
    handle,
    async fetch(request, info) {
      return toFetchResponse(await handle(await fromFetchRequest(request, info)), request.signal);
    },
    basePath: edge.mount.basePath,
    endStreams: () => edge.endStreams(),
    async run(as, fn) {
      let accountId = '';
      const result = await options.storage.transaction(async (tx) => {
        const nowMs = clock.now();
        let tenant: Tenant;
        if ('token' in as) {
          const principal = await authenticate(tx, `Bearer ${as.token}`, nowMs);
          if (principal instanceof ApiError) throw principal;
          tenant = tenantOf(principal);
        } else {
          const workspace = await workspaceBySlug(tx, as.workspaceSlug);
          tenant = {
            accountId: workspace.accountId,
            workspaceId: workspace.id,
            actor: { userId: null, tokenId: null },
          };
        }
        accountId = tenant.accountId;
        return fn(operationContext(tx, isoTime(nowMs), ids, tenant, null, runtime.services));
      });
      // Wake event streams at once, as an HTTP write does: an embedding app's changes are signals too.
      runtime.changes.notify(accountId);
      return result;
    },
    onChange: (accountId, fn) => runtime.changes.subscribe(accountId, fn),
    webhooks,
    purgeExpired() {
      const now = clock.now();
      return options.storage.transaction(async (tx) => {
        const idempotencyKeys = await tx.idempotency.purge(isoTime(now - idempotencyRetentionMs));
        const signalsBefore = isoTime(now - signalsKeptMs(options.signalRetentionMs));
        // The notifications filed under watched items go with the signals they are.
        await tx.watches.purge(signalsBefore);
        return { idempotencyKeys, signals: await tx.signals.purge(signalsBefore) };
      });
    },
    sweepOverdue: () =>
      sweepOverdue(
        {
          storage: options.storage,
          ids,
          services: runtime.services,
          committed: (accountId) => runtime.changes.notify(accountId),
        },
        clock.now(),
      ),
    storage: options.storage,
    clock,
    ids,
    async close() {
      await mcp?.close();
      stopListening?.();
      await webhooks.stop();
      hooks.sender?.close?.();
      // What the share charged since its last settle reaches the other processes before the
      // database store closes with the storage.
      await runtime.storageTime?.close();
      await options.storage.close();
    },
  };
  mcp = options.mcp?.(tracker) ?? null;
  return tracker;
}

/** The change feed, also calling `afterCommit` whenever it is told a write committed. */
function wakingDispatcher(feed: ChangeFeed, afterCommit: () => void): ChangeFeed {
  return {
    notify(accountId) {
      feed.notify(accountId);
      afterCommit();
    },
    subscribe: (accountId, fn) => feed.subscribe(accountId, fn),
  };
}

/** Stands in when no sender is configured: every attempt fails and is retried on schedule. */
const missingSender: WebhookSender = {
  send: async () => ({
    status: null,
    retryAfter: null,
    error: 'no webhook sender is configured',
    durationMs: 0,
  }),
  resolve: async () => [],
};
