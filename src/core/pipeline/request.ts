/** The plain request and response the core speaks: hosts translate to and from these. */

export interface TrackerRequest {
  method: string;
  /** The URL path, e.g. `/api/v1/issues`; it may carry a query string. */
  path: string;
  /** Query parameters, merged with any in `path`. */
  query?: Record<string, string | string[] | undefined>;
  /** Header names in any case. */
  headers: Record<string, string | string[] | undefined>;
  /** The raw body: bytes or text, exactly as received. */
  body?: Uint8Array | string | null;
  /**
   * The body not read yet, in place of `body`: the core reads it only once the request is
   * admitted by its headers (rate limit; for the API, a token that authenticates), so a client
   * refused by them costs no body read (hosts answer and close). It rejects with an ApiError
   * (408 for a body too slow) or any error when the client went away.
   */
  readBody?: () => Promise<Uint8Array | null>;
  /**
   * With `readBody`: whether the body is still arriving. A body that has all arrived costs nothing
   * to wait for, so the core then reads it without checking the token first (the request's own
   * transaction authenticates it); absent, the body counts as still arriving.
   */
  bodyPending?: () => boolean;
  /**
   * A body a framework's body parser has already consumed, when the raw one is gone: JSON and flat
   * forms are restored, anything else is answered 500 (see edge/parsed-body.ts).
   */
  parsedBody?: unknown;
  /** The peer address, used to rate limit requests without a valid token. */
  clientAddress?: string;
  /** Whether the request came over TLS (the admin pages then mark their cookies `Secure`). */
  secure?: boolean;
}

export interface TrackerResponse {
  status: number;
  /** Header names in their canonical case. */
  headers: Record<string, string>;
  /** The serialized body (bytes when compressed), or null for 204 and 304. */
  body: string | Uint8Array | null;
  /**
   * A body sent in pieces as they come (server-sent events); `body` is then null. Read it to its
   * end, or call its iterator's `return()` when the client leaves (as the hosts do): until then it
   * holds one of its account's stream slots (stream-slots.ts).
   */
  stream?: AsyncIterable<string>;
}

/** A request after the first parse: lower-case headers, separated query. */
export interface ParsedRequest {
  method: string;
  path: string;
  /** The path and query string, for the router. */
  url: string;
  headers: Record<string, string>;
  body: Uint8Array | string | null;
  /** The body still to read (TrackerRequest.readBody), or null once read or when given as `body`. */
  readBody: (() => Promise<Uint8Array | null>) | null;
  /** Whether that body is still arriving (TrackerRequest.bodyPending). */
  bodyPending: () => boolean;
  clientAddress: string;
  secure: boolean;
}

const stillArriving = () => true;

export function parseRequest(req: TrackerRequest): ParsedRequest {
  const queryAt = req.path.indexOf('?');
  const path = queryAt === -1 ? req.path : req.path.slice(0, queryAt);
  return {
    method: req.method.toUpperCase(),
    path,
    // Readers of `url` parse its query with URLSearchParams, so a query string needs no rewriting
    // unless parameters are merged into it (or it holds a '#', which the rewrite escapes).
    url:
      !hasQueryParameters(req.query) && (queryAt === -1 || !req.path.includes('#', queryAt))
        ? req.path
        : withQuery(path, queryAt === -1 ? '' : req.path.slice(queryAt + 1), req.query),
    headers: lowerCaseHeaders(req.headers),
    body: req.body ?? null,
    readBody: req.body === undefined || req.body === null ? (req.readBody ?? null) : null,
    bodyPending: req.bodyPending ?? stillArriving,
    clientAddress: req.clientAddress ?? 'unknown',
    secure: req.secure === true,
  };
}

/**
 * Headers by lower-case name, one string each. Node's (and most hosts') already are: then they
 * are taken as they are, which spares building the same object again on every request (about
 * a thirtieth of a GET's CPU). The core only reads them.
 */
function lowerCaseHeaders(raw: TrackerRequest['headers']): Record<string, string> {
  for (const name in raw) {
    if (typeof raw[name] !== 'string' || name.toLowerCase() !== name) return rebuiltHeaders(raw);
  }
  return raw as Record<string, string>;
}

function rebuiltHeaders(raw: TrackerRequest['headers']): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of Object.keys(raw)) {
    const value = raw[name];
    if (value === undefined) continue;
    headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

/** `path` with the query string `search` and the parameters of `query` merged into it. */
function withQuery(path: string, search: string, query: TrackerRequest['query']): string {
  const merged = new URLSearchParams(search);
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) merged.append(name, v);
  }
  const text = merged.toString();
  return text ? `${path}?${text}` : path;
}

function hasQueryParameters(query: TrackerRequest['query']): boolean {
  if (query === undefined) return false;
  for (const name in query) if (query[name] !== undefined) return true;
  return false;
}
