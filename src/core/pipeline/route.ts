import type { z } from 'zod';
import type { CollectionName } from '../port/index.js';
import type { Access } from './auth.js';
import type { OperationContext, Services } from './context.js';
import type { Reply } from './reply.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

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
  /** Whether the request came over TLS (a link the answer shows carries the scheme it came by). */
  secure: boolean;
  query: Q;
  body: B;
}

/** What the API reference shows of a route: examples, validated against its schemas by a test. */
export interface RouteExamples {
  /** A request body; present exactly when the route takes one. */
  request?: unknown;
  /** The body of the success answer; absent only when that answer has none (a 204). */
  response?: unknown;
  /** What a replay of the create answers, when it differs from `response` (a secret shown once). */
  replay?: unknown;
}

/** The parts of a route the API reference is made of. */
interface RouteReference {
  /**
   * The operation's name in the OpenAPI document, and so in generated clients: written out, never
   * derived from the summary, so that rewording a summary renames nothing.
   */
  operationId: string;
  /** One line, shown in lists. */
  summary: string;
  /** What the operation does and what it needs, for people. */
  description: string;
  /**
   * What it does for an AI agent calling it as an MCP tool, with no HTTP in it: a family brings
   * its own words with its routes; the MCP server's list (mcp/descriptions.ts) has the others'.
   */
  agent?: string;
  examples: RouteExamples;
}

export interface Route<Q = unknown, B = unknown> extends RouteReference {
  method: HttpMethod;
  /** Path under /api/v1 with `:name` parameters, e.g. `/issues/:id`. */
  path: string;
  access: Access;
  kind: RouteKind;
  query?: z.ZodType<Q>;
  body?: z.ZodType<B>;
  /** The body of the success answer (201 for creates, 200 otherwise), for the OpenAPI document. */
  response?: z.ZodType;
  /** An action that answers 202 (work queued, not done) rather than 200. */
  accepted?: boolean;
  /** A read of something without a version that still answers with an ETag, and 304 to If-None-Match. */
  conditional?: boolean;
  /**
   * Work done before the transaction, given the raw (unvalidated) body: returns the services
   * the handler gets (e.g. with host names already resolved). Must not throw.
   */
  prepare?(body: unknown, services: Services): Promise<Services>;
  /** The route runs other routes' operations (the batch): its context carries `operations`. */
  runsOperations?: boolean;
  /**
   * A read whose first look at the data is the row of this collection its `:id` names (by
   * `getJson`): the transaction is told so ahead (`TransactionOptions.readsFirst`).
   */
  readsRow?: CollectionName;
  /**
   * A write whose first look at the data (after its Idempotency-Key) is the row of `collection`
   * that its body's `field` names, by `get` (an issue's project): the transaction is told so
   * ahead (`TransactionOptions.readsFirst`).
   */
  readsRowOfBody?: { collection: CollectionName; field: string };
  handle(ctx: OperationContext, input: RouteInput<Q, B>): Promise<Reply>;
}

/** Declares a route with its input types inferred from its schemas. */
export function defineRoute<QS extends z.ZodType = z.ZodUndefined, BS extends z.ZodType = z.ZodUndefined>(
  route: Omit<Route<z.output<QS>, z.output<BS>>, 'query' | 'body'> & { query?: QS; body?: BS },
): Route {
  return route as unknown as Route;
}
