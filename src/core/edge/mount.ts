import { ApiError } from '../errors.js';
import type { TrackerResponse } from '../pipeline/request.js';
import { apiBase } from '../pipeline/router.js';

/**
 * Where the tracker is mounted. The core answers its own paths (`/api/v1/…`, `/docs`,
 * `/healthz`, the pages of extensions); a mount maps the paths clients use onto those and back, so an
 * app can serve the API at `/tracker/api/v1` or `/v2` without the core knowing.
 *
 * The API lives at `basePath`. The other pages live at the part of `basePath` before a final
 * `/api/v1` (`/tracker/api/v1` puts the reference page at `/tracker/docs`); a `basePath` that does
 * not end in `/api/v1` leaves them at the root.
 */
export interface Mount {
  basePath: string;
  /** The prefix of the pages outside the API ('' at the root). */
  root: string;
  /** The core's path for a client's path, or null when the path is outside the mount. */
  inbound(path: string): string | null;
  /** The client's path for one of the core's paths. */
  outbound(path: string): string;
  /** Rewrites the paths a response carries (Location, cookie Path, HTML links) for the client. */
  rewrite(response: TrackerResponse): TrackerResponse;
}

const basePathPattern = /^(\/[A-Za-z0-9._~!$&'()*+,;=:@-]+)+$/;

/** Checks and normalizes a base path: `/tracker/api/v1/` → `/tracker/api/v1`. */
export function normalizeBasePath(basePath: string): string {
  const trimmed = basePath.length > 1 ? basePath.replace(/\/+$/, '') : basePath;
  if (!basePathPattern.test(trimmed)) {
    throw new TypeError(
      `basePath must be a path such as /api/v1 or /tracker/api/v1, not ${JSON.stringify(basePath)}`,
    );
  }
  return trimmed;
}

export function createMount(basePath: string = apiBase): Mount {
  const base = normalizeBasePath(basePath);
  const root = base.endsWith(apiBase) ? base.slice(0, -apiBase.length) : '';
  const identity = base === apiBase;
  const under = (path: string, prefix: string) =>
    path === prefix || path.startsWith(`${prefix}/`) || path.startsWith(`${prefix}?`);

  const inbound = (path: string): string | null => {
    if (identity) return path;
    if (under(path, base)) return apiBase + path.slice(base.length);
    const page = root === '' ? path : under(path, root) ? path.slice(root.length) || '/' : null;
    // The core's own API prefix is not an alias of the mounted one.
    if (page === null || under(page, apiBase)) return null;
    return page;
  };
  const outbound = (path: string): string => {
    if (identity || !path.startsWith('/') || path.startsWith('//')) return path;
    if (under(path, apiBase)) return base + path.slice(apiBase.length);
    return root + path;
  };
  const rewrite = (response: TrackerResponse): TrackerResponse => {
    if (identity) return response;
    const headers = { ...response.headers };
    if (headers.Location) headers.Location = outbound(headers.Location);
    if (headers['Set-Cookie'])
      // Every cookie's Path, whatever it is, moves under the mount.
      headers['Set-Cookie'] = headers['Set-Cookie'].replace(
        /; Path=(\/[^;,]*)/gi,
        (_whole, path: string) => `; Path=${path === '/' ? root || '/' : root + path}`,
      );
    let body = response.body;
    if (typeof body === 'string' && headers['Content-Type']?.startsWith('text/html')) {
      // Server-rendered pages link with absolute paths: rewrite their links, forms and scripts.
      body = body.replace(
        / (href|src|action|data-url)="(\/[^"]*)"/g,
        (_whole, attribute: string, path: string) => ` ${attribute}="${outbound(path)}"`,
      );
    }
    return { ...response, headers, body };
  };
  return { basePath: base, root, inbound, outbound, rewrite };
}

/** The answer for a path outside the mount. */
export const outsideMount = (path: string): ApiError =>
  new ApiError(404, 'not_found', `No endpoint answers ${path}.`);
