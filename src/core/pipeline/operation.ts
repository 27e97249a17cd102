import { z } from 'zod';
import { ApiError } from '../errors.js';
import { withFields } from '../with-fields.js';
import { type Precondition, parseIfMatch } from './conditional.js';
import type { OperationContext } from './context.js';
import type { Reply } from './reply.js';
import type { Route } from './route.js';
import { parseInput } from './validate.js';

/**
 * The steps a route's request goes through around its handler that do not depend on where the
 * request came from: a request of its own (handle.ts) or one operation of a batch (batch.ts).
 * Shared so that an operation is refused exactly as the request alone would be.
 */

/** The If-Match of a request to `route`: required (428) on updates, ignored on reads and creates. */
export function preconditionFor(route: Route, ifMatch: string | undefined): Precondition | null {
  if (route.kind === 'update' && ifMatch === undefined) {
    throw new ApiError(
      428,
      'precondition_required',
      'Updates need an If-Match header with the ETag from a GET.',
    );
  }
  return ifMatch !== undefined && route.kind !== 'read' && route.kind !== 'create'
    ? parseIfMatch(ifMatch)
    : null;
}

/** Routes without query parameters still reject unknown ones (CONTRACT §3). */
const noQuery = z.strictObject({});

function isEmpty(record: Record<string, unknown>): boolean {
  for (const _ in record) return false;
  return true;
}

function rejectBody(body: unknown): undefined {
  if (body !== undefined) {
    throw new ApiError(400, 'validation_failed', 'This endpoint takes no request body.', {
      issues: [{ in: 'body', path: '', message: 'expected no body' }],
    });
  }
  return undefined;
}

/** The route's query and body, validated by its schemas (400 validation_failed naming each bad field). */
export function validatedInput(
  route: Route,
  rawQuery: Record<string, string | string[]>,
  rawBody: unknown,
): { query: unknown; body: unknown } {
  // Most routes take no query and most requests send none: nothing then to validate.
  const query =
    route.query || !isEmpty(rawQuery) ? parseInput(route.query ?? noQuery, { ...rawQuery }, 'query') : {};
  const body = route.body ? parseInput(route.body, rawBody, 'body') : rejectBody(rawBody);
  return { query, body };
}

/** The last signal a request wrote: its id, its object, and that object's text when it was made. */
export interface Announced {
  id: string;
  object: unknown;
  json: string | undefined;
}

/**
 * The operation's context, remembering the last signal it emits and the object that signal
 * carries: a create answers with that object (and its text, made once already).
 */
export function announcing(plain: OperationContext): {
  ctx: OperationContext;
  announced: () => Announced | null;
} {
  let announced: Announced | null = null;
  const ctx: OperationContext = {
    ...plain,
    async emit(signal) {
      const event = await plain.emit(signal);
      announced = { id: event.id, object: signal.data.object, json: signal.objectJson };
      return event;
    },
  };
  return { ctx, announced: () => announced };
}

/** An answer whose body is the announced object is sent as its text, made once already. */
export function withAnnouncedText(reply: Reply, announced: Announced | null): Reply {
  if (announced?.json === undefined || reply.json !== undefined || reply.body !== announced.object)
    return reply;
  return withFields(reply, { json: announced.json });
}

/** A 201 names what it created: `Location` is the new resource's path (a replay keeps it). */
export function withLocation(reply: Reply, collectionPath: string): Reply {
  const id = (reply.body as { id?: unknown } | undefined)?.id;
  if (reply.status !== 201 || typeof id !== 'string' || reply.headers?.Location) return reply;
  const Location = `${collectionPath}/${encodeURIComponent(id)}`;
  return withFields(reply, { headers: withFields(reply.headers ?? {}, { Location }) });
}
