import type { ExtensionRoute } from '../extension.js';
import type { StorageTx } from '../port/index.js';
import type { Principal } from './auth.js';
import type { Services } from './context.js';
import type { ParsedRequest } from './request.js';
import type { Route } from './route.js';
import { apiBase, type RouteMatch } from './router.js';
import type { PublicRoute, TrackerRuntime } from './runtime.js';

/**
 * Which part of the server a request is for: an open endpoint, an extension's page, or the token
 * API (`needsToken`: every API request but OPTIONS, as a browser's CORS preflight never sends one).
 */
export interface Target {
  /** The method the request is answered as (HEAD as GET). */
  method: string;
  open: PublicRoute | undefined;
  /** An extension's page for a path outside the API and the open endpoints; null for any other. */
  page: ExtensionRoute | null;
  isApi: boolean;
  needsToken: boolean;
}

/** One request as the pipeline carries it from step to step, before its transaction. */
export interface RequestState {
  rt: TrackerRuntime;
  req: ParsedRequest;
  target: Target;
  /**
   * The API route the method and path match, for a request with a token; null for any other.
   * Routing is pure: done once, before the transaction, which may run more than once.
   */
  match: RouteMatch | null;
  /** What the request's operations run with (a route's outside work prepared ahead). */
  services: Services;
}

/** The request inside one run of its storage transaction. */
export interface InTransaction extends RequestState {
  tx: StorageTx;
  nowMs: number;
}

/** An authenticated request, routed and authorized: what its route runs with. */
export interface Authorized extends InTransaction {
  principal: Principal;
  route: Route;
  params: Record<string, string>;
  query: Record<string, string | string[]>;
}

/** HEAD is answered as GET without a body. */
export const effectiveMethod = (req: ParsedRequest): string => (req.method === 'HEAD' ? 'GET' : req.method);

export function classify(rt: TrackerRuntime, req: ParsedRequest): Target {
  const method = effectiveMethod(req);
  const open = rt.publicRoutes[`${method} ${req.path}`];
  const isApi = req.path.startsWith(`${apiBase}/`) && !open;
  const page = open || isApi ? null : rt.extensions.match(method, req.path);
  return { method, open, page, isApi, needsToken: isApi && req.method !== 'OPTIONS' };
}
