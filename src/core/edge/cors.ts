import type { ParsedRequest, TrackerResponse } from '../pipeline/request.js';
import { withFields } from '../with-fields.js';

export interface CorsOptions {
  /** Origins allowed to call the API from a browser, e.g. `https://app.example.com`; `*` allows any. */
  origins: readonly string[];
  /** How long a browser may cache a preflight answer, in seconds; default 600. */
  maxAgeSeconds?: number;
}

/** Methods the API answers. */
export const corsAllowedMethods = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/** Request headers a browser may send beyond the CORS-safelisted ones. */
export const corsAllowedHeaders = [
  'Authorization',
  'Content-Type',
  'Idempotency-Key',
  'If-Match',
  'If-None-Match',
  'Last-Event-ID',
  'X-Request-Id',
] as const;

/** Response headers a page may read: without this list a browser hides all but a safelisted few. */
export const corsExposedHeaders = [
  'ETag',
  'Location',
  'X-Request-Id',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'RateLimit',
  'RateLimit-Policy',
  'Retry-After',
  'Idempotent-Replayed',
] as const;

export interface CorsPolicy {
  /** The 204 answer to a preflight from an allowed origin, or null to answer the request normally. */
  preflight(req: ParsedRequest): TrackerResponse | null;
  /** Adds the CORS headers an allowed origin needs to read this response. */
  decorate(req: ParsedRequest, response: TrackerResponse): TrackerResponse;
}

/** Normalizes an origin as browsers send it: scheme, host and port, lower case, no path. */
export function normalizeOrigin(origin: string): string {
  if (origin === '*') return origin;
  const url = new URL(origin);
  if (url.origin === 'null' || url.pathname.length > 1 || url.search || url.hash) {
    throw new TypeError(`${origin} is not an origin (scheme://host[:port], nothing after it)`);
  }
  return url.origin;
}

/** Cross-origin access for browser apps on the listed origins; no cookies are involved (tokens are bearer). */
export function corsPolicy(options: CorsOptions): CorsPolicy {
  const origins = new Set(options.origins.map(normalizeOrigin));
  const anyOrigin = origins.has('*');
  const allowed = (origin: string | undefined): origin is string =>
    origin !== undefined && (anyOrigin || origins.has(origin));
  const maxAge = String(options.maxAgeSeconds ?? 600);
  const allowOrigin = (origin: string) => (anyOrigin ? '*' : origin);

  return {
    preflight(req) {
      if (req.method !== 'OPTIONS' || !req.headers['access-control-request-method']) return null;
      const origin = req.headers.origin;
      if (!allowed(origin)) return null;
      return {
        status: 204,
        headers: {
          'Access-Control-Allow-Origin': allowOrigin(origin),
          'Access-Control-Allow-Methods': corsAllowedMethods.join(', '),
          'Access-Control-Allow-Headers': corsAllowedHeaders.join(', '),
          'Access-Control-Max-Age': maxAge,
          Vary: 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers',
        },
        body: null,
      };
    },
    decorate(req, response) {
      // Vary even when the origin is refused: a shared cache must not hand one origin's answer to another.
      const headers: Record<string, string> = withFields(response.headers, {
        Vary: appendVary(response.headers.Vary, 'Origin'),
      });
      const origin = req.headers.origin;
      if (allowed(origin)) {
        headers['Access-Control-Allow-Origin'] = allowOrigin(origin);
        headers['Access-Control-Expose-Headers'] = corsExposedHeaders.join(', ');
      }
      return { ...response, headers };
    },
  };
}

/** `Vary` with one more field name, once. */
export function appendVary(current: string | undefined, field: string): string {
  if (!current) return field;
  const fields = current.split(',').map((f) => f.trim().toLowerCase());
  return fields.includes(field.toLowerCase()) || fields.includes('*') ? current : `${current}, ${field}`;
}
