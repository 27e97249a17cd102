import { ApiError } from '../errors.js';
import type { Route } from './route.js';

export const apiBase = '/api/v1';

export type RouteMatch =
  | { kind: 'route'; route: Route; params: Record<string, string>; query: Record<string, string | string[]> }
  | { kind: 'method_not_allowed'; allow: string[] }
  | { kind: 'not_found' };

/** One route path, split once: static segments are compared as strings, `:name` ones captured. */
interface PathShape {
  segments: readonly (string | { param: string })[];
  /** The methods of the routes on this path, in the order they were declared (405's Allow). */
  methods: string[];
  /** The first declared route of each method on this path, with its place in the route table. */
  byMethod: Map<string, { route: Route; index: number }>;
  /** Where the path was first declared: of several matching paths, the earliest is tried first. */
  declared: number;
}

/**
 * Matches requests against the route table; answers 405 with Allow for known paths. A static path
 * is one map lookup and a parametrised one a single split compared segment by segment, instead of a
 * regular expression tried per route. Paths match as they are sent (parameters stay percent-encoded,
 * trailing slashes are ignored); the first declared route of a matching path and method wins.
 */
export function createRouter(routes: readonly Route[]): (method: string, url: string) => Promise<RouteMatch> {
  const shapes: PathShape[] = [];
  const byPath = new Map<string, PathShape>();
  routes.forEach((route, index) => {
    let shape = byPath.get(route.path);
    if (!shape) {
      shape = {
        segments: compile(route.path),
        methods: [],
        byMethod: new Map(),
        declared: shapes.length,
      };
      byPath.set(route.path, shape);
      shapes.push(shape);
    }
    shape.methods.push(route.method);
    if (!shape.byMethod.has(route.method)) shape.byMethod.set(route.method, { route, index });
  });
  const staticShapes = new Map<string, PathShape>();
  // Parametrised paths by segment count and first segment ('' when that is a parameter): a
  // request is compared with the few paths that could match, not with every one of its length.
  const paramShapes = new Map<string, PathShape[]>();
  for (const shape of shapes) {
    if (shape.segments.every((s) => typeof s === 'string')) {
      staticShapes.set(`/${shape.segments.join('/')}`, shape);
    } else {
      const head = shape.segments[0];
      const key = `${shape.segments.length}/${typeof head === 'string' ? head : ''}`;
      const list = paramShapes.get(key) ?? [];
      list.push(shape);
      paramShapes.set(key, list);
    }
  }

  const match = (method: string, url: string): RouteMatch => {
    const { path, search } = splitUrl(url);
    if (!path.startsWith(apiBase)) return notFound;
    const rest = trimTrailingSlashes(path.slice(apiBase.length));
    if (rest !== '' && !rest.startsWith('/')) return notFound;
    // Of the matching paths, the earliest declared answers 405's Allow; of their routes for this
    // method, the earliest declared wins.
    let allowFrom: PathShape | undefined;
    let found: { route: Route; index: number } | undefined;
    let foundParams: Record<string, string> = {};
    const consider = (shape: PathShape, params: Record<string, string>) => {
      if (!allowFrom || shape.declared < allowFrom.declared) allowFrom = shape;
      const candidate = shape.byMethod.get(method);
      if (candidate && (!found || candidate.index < found.index)) {
        found = candidate;
        foundParams = params;
      }
    };
    const exact = staticShapes.get(rest);
    // A path declared as written is that path alone: `PATCH /members/invites` is told the methods
    // of /members/invites (405), not taken for `PATCH /members/:id` with the id "invites".
    if (exact) consider(exact, {});
    else matchParametrised(rest, consider);
    if (found) return { kind: 'route', route: found.route, params: foundParams, query: parseQuery(search) };
    return allowFrom ? { kind: 'method_not_allowed', allow: allowFrom.methods } : notFound;
  };
  const matchParametrised = (
    rest: string,
    consider: (shape: PathShape, params: Record<string, string>) => void,
  ): void => {
    const parts = rest.split('/').slice(1);
    const head = parts[0] ?? '';
    const keys = head === '' ? [`${parts.length}/`] : [`${parts.length}/${head}`, `${parts.length}/`];
    for (const key of keys) {
      for (const shape of paramShapes.get(key) ?? []) {
        const params = capture(shape, parts);
        if (params) consider(shape, params);
      }
    }
  };
  return async (method, url) => match(method, url);
}

const notFound: RouteMatch = { kind: 'not_found' };

function compile(path: string): PathShape['segments'] {
  const segments = path.split('/').slice(1);
  return segments.map((segment) => {
    if (segment.startsWith(':')) {
      const param = segment.slice(1);
      if (!/^\w+$/.test(param)) throw new Error(`Route path ${path}: unsupported parameter ${segment}`);
      return { param };
    }
    if (/[:*+]/.test(segment)) throw new Error(`Route path ${path}: unsupported segment ${segment}`);
    return segment;
  });
}

function capture(shape: PathShape, parts: readonly string[]): Record<string, string> | null {
  const params: Record<string, string> = {};
  for (let i = 0; i < parts.length; i++) {
    const segment = shape.segments[i];
    const part = parts[i] ?? '';
    if (typeof segment === 'string') {
      if (segment !== part) return null;
    } else if (part === '' || segment === undefined) {
      return null;
    } else {
      params[segment.param] = part;
    }
  }
  return params;
}

function trimTrailingSlashes(path: string): string {
  let end = path.length;
  while (end > 0 && path.charCodeAt(end - 1) === 47) end--;
  return end === path.length ? path : path.slice(0, end);
}

// What a URL parser would rewrite in a path: anything outside the characters a path may carry
// as sent, and dot segments. Such rare paths go through `new URL`, so they match as before.
const needsUrlParser = /[^A-Za-z0-9\-._~!$&'()*+,;=:@%/]|\/\.\.?(?:\/|$)/;

/** The path (as a URL parser would give it) and the query string of a request target. */
function splitUrl(url: string): { path: string; search: string } {
  const queryAt = url.indexOf('?');
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  const search = queryAt === -1 ? '' : url.slice(queryAt + 1);
  if (!needsUrlParser.test(path)) return { path, search };
  const parsed = new URL(`http://tracker${url}`);
  return { path: parsed.pathname, search: parsed.search.slice(1) };
}

/** Query parameters, decoded; a name given more than once collects its values in order. */
function parseQuery(search: string): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = Object.create(null);
  if (search === '') return query;
  for (const [name, value] of new URLSearchParams(search)) {
    const seen = query[name];
    query[name] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  return query;
}

export const methodNotAllowed = (method: string, allow: string[]): ApiError =>
  new ApiError(
    405,
    'method_not_allowed',
    `${method} is not supported here; use ${allow.join(', ')}.`,
    { allow },
    {
      Allow: allow.join(', '),
    },
  );

export const unknownPath = (path: string): ApiError =>
  new ApiError(404, 'not_found', `No endpoint answers ${path}.`);
