import { IttyRouter } from 'itty-router';
import { ApiError } from '../errors.js';
import type { Route } from './route.js';

export const apiBase = '/api/v1';

export type RouteMatch =
  | { kind: 'route'; route: Route; params: Record<string, string>; query: Record<string, string | string[]> }
  | { kind: 'method_not_allowed'; allow: string[] }
  | { kind: 'not_found' };

/** Matches requests against the route table with itty-router; answers 405 with Allow for known paths. */
export function createRouter(routes: readonly Route[]): (method: string, url: string) => Promise<RouteMatch> {
  const router = IttyRouter({ base: apiBase });
  const methodsByPath = new Map<string, string[]>();
  for (const route of routes) {
    const methods = methodsByPath.get(route.path) ?? [];
    methods.push(route.method);
    methodsByPath.set(route.path, methods);
    router[route.method.toLowerCase()]?.(
      route.path,
      (request: { params: Record<string, string>; query: Record<string, string | string[]> }) => ({
        kind: 'route',
        route,
        params: request.params,
        query: request.query,
      }),
    );
  }
  // After every real route: a path that exists under another method is a 405, not a 404.
  for (const [path, methods] of methodsByPath) {
    router.all(path, () => ({ kind: 'method_not_allowed', allow: methods }));
  }
  return async (method, url) => {
    const request = { method, url: `http://tracker${url}` };
    return ((await router.fetch(request)) as RouteMatch | undefined) ?? { kind: 'not_found' };
  };
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
