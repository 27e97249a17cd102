import { qualityValues } from '../../pipeline/quality-values.js';
import { ok } from '../../pipeline/reply.js';
import { defineRoute } from '../../pipeline/route.js';
import { signalExamples } from './examples.js';
import { listSignals, signalStream, streamStart } from './operations.js';
import { signalListQuerySchema, signalPageSchema } from './schema.js';

/**
 * Whether Accept names the event stream with a weight above 0 (`text/event-stream;q=0` refuses
 * it, RFC 9110 §12.5.1). Only the type itself opens a stream: `*\/*` keeps the JSON page.
 */
const wantsEventStream = (accept: string | undefined): boolean =>
  accept !== undefined && (qualityValues(accept).get('text/event-stream') ?? 0) > 0;

export const signalRoutes = [
  defineRoute({
    method: 'GET',
    path: '/signals',
    access: 'admin_read',
    kind: 'read',
    operationId: 'listSignals',
    summary: "List or stream the account's signal events",
    description:
      "The account's events (every change made through the API), oldest first, narrowed by `types` and `resourceId`. With `Accept: text/event-stream` the answer is a server-sent event stream that stays open and sends each new event as it happens; reconnecting with Last-Event-ID resumes after the last event received.",
    examples: { response: signalExamples.page },
    query: signalListQuerySchema,
    response: signalPageSchema,
    handle: async (ctx, { query, headers }) => {
      if (!wantsEventStream(headers.accept)) return ok(await listSignals(ctx, query));
      const after = await streamStart(ctx, query, headers['last-event-id']);
      const filter = {
        accountId: ctx.tenant.accountId,
        ...(query.types ? { types: query.types } : {}),
        ...(query.resourceId ? { resourceId: query.resourceId } : {}),
      };
      return { status: 200, streamFrom: (deps) => signalStream(deps, filter, after) };
    },
  }),
];
