import { ApiError } from './errors.js';
import { ClientGone, withAdmittedBody } from './pipeline/admit-body.js';
import { authenticate, bearerToken } from './pipeline/auth.js';
import { internal } from './pipeline/internal-error.js';
import { rateKeys } from './pipeline/rate-key.js';
import { type RateLimitDecision, rateLimitHeaders } from './pipeline/rate-limit.js';
import type { ParsedRequest, TrackerResponse } from './pipeline/request.js';
import type { TrackerRuntime } from './pipeline/runtime.js';
import { tooManyStreams } from './pipeline/stream-slots.js';

/**
 * Where the MCP endpoint is served, among the pages outside the API (`/mcp`, or `/tracker/mcp`
 * under the base path `/tracker/api/v1`), as /docs is.
 */
export const mcpPath = '/mcp';

/** One HTTP request to the MCP endpoint, once its bearer token has authenticated. */
export interface McpHttpRequest {
  method: string;
  /** The path and query string as the core sees it (`/mcp…`). */
  url: string;
  /** Lower-case names. */
  headers: Record<string, string>;
  body: Uint8Array | string | null;
  /** The API token the request authenticated with: the endpoint acts as its principal. */
  token: string;
  /** That token's id: a session belongs to the token that opened it. */
  tokenId: string;
  /**
   * Takes one of the account's event-stream slots, as an API event stream does, for a response
   * that may stream; calling what it returns frees it (once counts). Throws 429
   * `too_many_streams` when the account holds them all.
   */
  takeStreamSlot(): () => void;
}

/**
 * The MCP endpoint the tracker serves at /mcp. The core only authenticates and rate limits its
 * requests: the protocol lives in `outcome-tracker/mcp`, so the core never loads its SDK.
 */
export interface McpEndpoint {
  handle(request: McpHttpRequest): Promise<TrackerResponse>;
  /** Ends every session (the tracker closes). */
  close(): Promise<void>;
}

/**
 * Builds the endpoint for a tracker: `createTracker({ mcp: mcpEndpoint() })`. Generic in the
 * tracker it is given, so this file need not import `tracker.ts`, which imports it.
 */
export type McpEndpointFactory<Host = unknown> = (tracker: Host) => McpEndpoint;

/** Each runtime's rate-limit keys (which remember token ids by hash). */
const rateKeysOf = new WeakMap<TrackerRuntime, ReturnType<typeof rateKeys>>();

/**
 * Answers a request to /mcp as the API answers its own: counted against its token's rate limit
 * (its address's without a valid token), then authenticated with the same bearer tokens; only
 * then does the endpoint see it. Each tool call it makes is an API request of its own, counted
 * and authorized again by the pipeline.
 */
export async function answerMcp(
  rt: TrackerRuntime,
  endpoint: McpEndpoint,
  req: ParsedRequest,
  requestId: string,
): Promise<TrackerResponse> {
  let rate: RateLimitDecision | null = null;
  try {
    if (rt.limiter) {
      let keyOf = rateKeysOf.get(rt);
      if (!keyOf) {
        keyOf = rateKeys(rt.storage, () => rt.clock.now());
        rateKeysOf.set(rt, keyOf);
      }
      rate = await rt.limiter.take(await keyOf(req.headers.authorization, req.clientAddress));
      if (!rate.allowed) {
        throw new ApiError(429, 'rate_limited', `Too many requests; retry in ${rate.resetSeconds} s.`, {
          retryAfter: rate.resetSeconds,
        });
      }
    }
    const principal = await rt.storage.transaction(
      (tx) => authenticate(tx, req.headers.authorization, rt.clock.now()),
      { mode: 'read' },
    );
    if (principal instanceof ApiError) throw principal;
    // Read only now, the token authenticated: a host hands the core a body still to read
    // (TrackerRequest.readBody), as for any API request, and a stranger's body is never read.
    const { body } = await withAdmittedBody(rt, req, false);
    const response = await endpoint.handle({
      method: req.method,
      url: req.url,
      headers: req.headers,
      body,
      token: bearerToken(req.headers.authorization) ?? '',
      tokenId: principal.tokenId,
      takeStreamSlot: () => {
        const free = rt.streams.take(principal.accountId);
        if (free === null) throw tooManyStreams();
        return free;
      },
    });
    return {
      ...response,
      headers: { ...response.headers, 'X-Request-Id': requestId, ...(rate ? rateLimitHeaders(rate) : {}) },
    };
  } catch (error) {
    // The client went away before its body arrived: no one to answer (as handleRequest does).
    if (error instanceof ClientGone) throw error.reason;
    const apiError = error instanceof ApiError ? error : internal(rt, error, requestId);
    return {
      status: apiError.status,
      headers: {
        'Content-Type': 'application/problem+json; charset=utf-8',
        'X-Request-Id': requestId,
        ...(rate ? rateLimitHeaders(rate) : {}),
        ...apiError.headers,
      },
      body: JSON.stringify(apiError.toProblem()),
    };
  }
}
