import { checkBodySize, parseJsonBody } from './body.js';
import type { Services } from './context.js';
import type { ParsedRequest } from './request.js';
import type { Route } from './route.js';
import type { RouteMatch } from './router.js';
import type { TrackerRuntime } from './runtime.js';

/**
 * Runs a route's `prepare` step, if it has one, before the request's transaction: work with
 * outside effects or waits (a DNS lookup) must not run inside a transaction, which a database
 * may re-run and which must not wait on the network. The route gets the services it prepared;
 * a body that does not parse is left for validation to refuse.
 */
export async function prepareServices(
  rt: TrackerRuntime,
  req: ParsedRequest,
  match: RouteMatch,
): Promise<Services> {
  if (!needsPreparation(match)) return rt.services;
  let body: unknown;
  try {
    checkBodySize(req.headers, req.body);
    body = parseJsonBody(req.headers, req.body);
  } catch {
    return rt.services;
  }
  return match.route.prepare(body, rt.services);
}

/** Whether the request's route has a `prepare` step (so its token must be known beforehand). */
export function needsPreparation(
  match: RouteMatch,
): match is Extract<RouteMatch, { kind: 'route' }> & { route: { prepare: NonNullable<Route['prepare']> } } {
  return match.kind === 'route' && match.route.prepare !== undefined;
}
