import type { ApiError } from '../errors.js';
import type { Reply } from '../pipeline/reply.js';
import type { ParsedRequest, TrackerResponse } from '../pipeline/request.js';
import type { Storage } from '../port/index.js';
import { liveness, readiness } from '../probes.js';
import { withFields } from '../with-fields.js';
import { type Compressor, createCompressor } from './compression.js';
import { type CorsOptions, type CorsPolicy, corsPolicy } from './cors.js';
import { createMount, type Mount, outsideMount } from './mount.js';
import { streamEnding } from './stream-ending.js';

export interface EdgeOptions {
  basePath?: string;
  cors?: CorsOptions | false;
  compression?: boolean;
  /** Proxy hops whose `X-Forwarded-For` entries are believed; 0 believes none. */
  trustedProxyHops: number;
}

/**
 * What every request passes through around the API pipeline, whichever host or runtime carried it:
 * the mount's paths, CORS, the probes, conditional GETs of public files and compression.
 */
export interface Edge {
  mount: Mount;
  answer(
    req: ParsedRequest,
    requestId: string,
    pipeline: (req: ParsedRequest) => Promise<TrackerResponse>,
  ): Promise<TrackerResponse>;
  /** Ends every open event stream with a last comment (shutdown). */
  endStreams(): void;
  /** An error found before the pipeline could run, as problem+json. */
  problem(error: ApiError, requestId: string): TrackerResponse;
}

export function createEdge(options: EdgeOptions, storage: Storage): Edge {
  const mount = createMount(options.basePath);
  const cors: CorsPolicy | null = options.cors ? corsPolicy(options.cors) : null;
  const compressor: Compressor | null = options.compression === false ? null : createCompressor();
  const hops = options.trustedProxyHops;
  const streams = streamEnding();

  const inner = async (
    req: ParsedRequest,
    requestId: string,
    pipeline: (req: ParsedRequest) => Promise<TrackerResponse>,
  ): Promise<TrackerResponse> => {
    const path = mount.inbound(req.path);
    if (path === null) return problemResponse(outsideMount(req.path), requestId);
    const queryAt = req.url.indexOf('?');
    const routed: ParsedRequest =
      path === req.path ? req : { ...req, path, url: queryAt === -1 ? path : path + req.url.slice(queryAt) };
    if (routed.method === 'GET' || routed.method === 'HEAD') {
      if (routed.path === '/healthz') return replyResponse(liveness(), routed, requestId);
      if (routed.path === '/readyz') return replyResponse(await readiness(storage), routed, requestId);
    }
    return mount.rewrite(notModified(routed, await pipeline(routed)));
  };

  return {
    mount,
    problem: problemResponse,
    endStreams: () => streams.endAll(),
    async answer(req, requestId, pipeline) {
      const client = hops > 0 ? { ...req, clientAddress: forwardedClient(req, hops) } : req;
      const preflight = cors?.preflight(client);
      let response = preflight
        ? { ...preflight, headers: withFields(preflight.headers, { 'X-Request-Id': requestId }) }
        : await inner(client, requestId, pipeline);
      if (response.stream) response = { ...response, stream: streams.track(response.stream) };
      if (cors) response = cors.decorate(client, response);
      if (compressor) {
        const compressed = compressor.compress(client.headers['accept-encoding'], response);
        response = compressed instanceof Promise ? await compressed : compressed;
      }
      return response;
    },
  };
}

/**
 * The client's address behind `hops` trusted proxies: each appends the address it received from,
 * so the entry `hops` from the right was written by the outermost trusted one. Without the header
 * (a direct connection) the peer address stands.
 */
export function forwardedClient(req: ParsedRequest, hops: number): string {
  const entries = (req.headers['x-forwarded-for'] ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  if (entries.length === 0) return req.clientAddress;
  return entries[Math.max(0, entries.length - hops)] ?? req.clientAddress;
}

/** A public file (the API description, the docs assets) the client already has: 304. */
function notModified(req: ParsedRequest, response: TrackerResponse): TrackerResponse {
  const etag = response.headers.ETag;
  const noneMatch = req.headers['if-none-match'];
  if (response.status !== 200 || !etag || noneMatch === undefined) return response;
  if (!/\bpublic\b/.test(response.headers['Cache-Control'] ?? '')) return response;
  if (!noneMatch.split(',').some((tag) => tag.trim() === etag || tag.trim() === '*')) return response;
  const { 'Content-Type': _type, ...headers } = response.headers;
  return { status: 304, headers, body: null };
}

function replyResponse(reply: Reply, req: ParsedRequest, requestId: string): TrackerResponse {
  const type = reply.status >= 400 ? 'application/problem+json' : 'application/json';
  return {
    status: reply.status,
    headers: { 'Content-Type': `${type}; charset=utf-8`, 'X-Request-Id': requestId, ...reply.headers },
    body: req.method === 'HEAD' ? null : JSON.stringify(reply.body),
  };
}

function problemResponse(error: ApiError, requestId: string): TrackerResponse {
  return {
    status: error.status,
    headers: {
      'Content-Type': 'application/problem+json; charset=utf-8',
      'X-Request-Id': requestId,
      ...error.headers,
    },
    body: JSON.stringify(error.toProblem()),
  };
}
