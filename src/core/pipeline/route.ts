import type { z } from 'zod';
import type { Access } from './auth.js';
import type { OperationContext, Services } from './context.js';
import type { Reply } from './reply.js';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/**
 * What the pipeline does around a handler:
 * - `read`: nothing more; GET answers 304 to a matching If-None-Match.
 * - `create`: Idempotency-Key required; the 201 is stored with the key.
 * - `action`: Idempotency-Key optional, replayed when given; If-Match optional.
 * - `update`: If-Match required (428 without).
 * - `delete`: If-Match optional.
 */
export type RouteKind = 'read' | 'create' | 'action' | 'update' | 'delete';

export interface RouteInput<Q, B> {
  params: Record<string, string>;
  /** Request headers, lower-case names. */
  headers: Record<string, string>;
  query: Q;
  body: B;
}

export interface Route<Q = unknown, B = unknown> {
  method: HttpMethod;
  /** Path under /api/v1 with `:name` parameters, e.g. `/issues/:id`. */
  path: string;
  access: Access;
  kind: RouteKind;
  summary: string;
  query?: z.ZodType<Q>;
  body?: z.ZodType<B>;
  /** The body of the success answer (201 for creates, 200 otherwise), for the OpenAPI document. */
  response?: z.ZodType;
  /**
   * Work done before the transaction, given the raw (unvalidated) body: returns the services
   * the handler gets (e.g. with host names already resolved). Must not throw.
   */
  prepare?(body: unknown, services: Services): Promise<Services>;
  handle(ctx: OperationContext, input: RouteInput<Q, B>): Promise<Reply>;
}

/** Declares a route with its input types inferred from its schemas. */
export function defineRoute<
  QS extends z.ZodType = z.ZodUndefined,
  BS extends z.ZodType = z.ZodUndefined,
>(route: {
  method: HttpMethod;
  path: string;
  access: Access;
  kind: RouteKind;
  summary: string;
  query?: QS;
  body?: BS;
  response?: z.ZodType;
  prepare?(body: unknown, services: Services): Promise<Services>;
  handle(ctx: OperationContext, input: RouteInput<z.output<QS>, z.output<BS>>): Promise<Reply>;
}): Route {
  return route as unknown as Route;
}
