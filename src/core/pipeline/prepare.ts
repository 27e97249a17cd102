import { checkBodySize, parseJsonBody } from './body.js';
import type { Services } from './context.js';
import type { ParsedRequest } from './request.js';
import { apiBase } from './router.js';
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
  method: string,
): Promise<Services> {
  if (!req.path.startsWith(`${apiBase}/`)) return rt.services;
  const match = await rt.route(method, req.url);
  if (match.kind !== 'route' || !match.route.prepare) return rt.services;
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
export async function needsPreparation(
  rt: TrackerRuntime,
  req: ParsedRequest,
  method: string,
): Promise<boolean> {
  if (!req.path.startsWith(`${apiBase}/`)) return false;
  const match = await rt.route(method, req.url);
  return match.kind === 'route' && match.route.prepare !== undefined;
}
