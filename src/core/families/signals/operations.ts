import { ApiError } from '../../errors.js';
import type { SignalEvent } from '../../model.js';
import { authorityRecheckMs, lostGrantComment } from '../../pipeline/authority.js';
import type { OperationContext } from '../../pipeline/context.js';
import { decodePosition, encodePosition, type Page } from '../../pipeline/pagination.js';
import type { AfterCommitDeps } from '../../pipeline/reply.js';
import type { SignalListQuery } from './schema.js';

/** The filters a signals cursor is bound to: the same query with other types or resource is refused. */
const cursorFilters = (query: SignalListQuery) => ({
  family: 'signals',
  types: query.types ?? null,
  resourceId: query.resourceId ?? null,
});

/** Where a read starts: `cursor` (a previous page's nextCursor) or `after` (a sequence). */
function startAfter(query: SignalListQuery): number | undefined {
  if (query.cursor === undefined) return query.after;
  const [sequence, extra] = decodePosition(query.cursor, cursorFilters(query));
  if (
    typeof sequence !== 'number' ||
    !Number.isSafeInteger(sequence) ||
    sequence < 0 ||
    extra !== undefined
  ) {
    throw new ApiError(400, 'invalid_cursor', 'The cursor is not the nextCursor of a signals page.');
  }
  return sequence;
}

/** One page of the account's events in ascending sequence order. */
export async function listSignals(ctx: OperationContext, query: SignalListQuery): Promise<Page<SignalEvent>> {
  const filter = {
    accountId: ctx.tenant.accountId,
    ...(query.types ? { types: query.types } : {}),
    ...(query.resourceId ? { resourceId: query.resourceId } : {}),
  };
  const after = startAfter(query);
  const rows = await ctx.tx.signals.list({
    ...filter,
    ...(after !== undefined ? { afterSequence: after } : {}),
    limit: query.limit + 1,
  });
  const data = rows.slice(0, query.limit);
  const last = data[data.length - 1];
  return {
    data,
    nextCursor:
      rows.length > query.limit && last ? encodePosition([last.sequence], cursorFilters(query)) : null,
    total: await ctx.tx.signals.count(filter),
  };
}

/**
 * The sequence an event stream resumes after: the Last-Event-ID's event, else `cursor` or
 * `after`, else the newest event now (a new stream shows what happens from here on).
 */
export async function streamStart(
  ctx: OperationContext,
  query: SignalListQuery,
  lastEventId?: string,
): Promise<number> {
  if (lastEventId !== undefined) {
    const event = await ctx.tx.signals.get(ctx.tenant.accountId, lastEventId.trim());
    if (!event) {
      throw new ApiError(400, 'validation_failed', 'Last-Event-ID names no event of this account.', {
        issues: [{ in: 'header', path: 'last-event-id', message: 'unknown event id' }],
      });
    }
    return event.sequence;
  }
  const start = startAfter(query);
  // A cursor was made from a page of the account's events: nothing to check it against.
  if (start !== undefined && query.cursor !== undefined) return start;
  const latest = await ctx.tx.signals.latestSequence(ctx.tenant.accountId);
  if (start === undefined) return latest;
  // An `after` past all of the account's events is a client's mistake (or a database restored
  // from before it), which a stream would only wait on.
  if (start > latest) {
    throw new ApiError(
      400,
      'validation_failed',
      `after is past the account's newest event (sequence ${latest}): a stream from there would send nothing until sequences pass it.`,
      { issues: [{ in: 'query', path: 'after', message: `past the newest sequence, ${latest}` }] },
    );
  }
  return start;
}

export const heartbeatMs = 15_000;
const batch = 100;

/**
 * Server-sent events: every matching event once, in order, with heartbeat comments while idle.
 * Each read of events re-checks the request's token in the same transaction, before any of
 * them is sent, and at least every `authorityRecheckMs` while idle: a revoked or expired token,
 * a removed or demoted member ends the stream with a comment saying why, on every process,
 * and no event committed after that reaches it.
 */
export async function* signalStream(
  deps: AfterCommitDeps,
  filter: { accountId: string; types?: string[]; resourceId?: string },
  after: number,
): AsyncGenerator<string> {
  let last = after;
  let lastBeat = deps.nowMs();
  yield 'retry: 2000\n\n';
  for (;;) {
    let read: { events: SignalEvent[]; lost: ApiError | null };
    try {
      read = await deps.storage.transaction(
        async (tx) => {
          const events = await tx.signals.list({ ...filter, afterSequence: last, limit: batch });
          // After the events, in their snapshot: if the grant stands here, each of them was
          // committed before any revocation.
          return { events, lost: await deps.grantLost(tx) };
        },
        { mode: 'read' },
      );
    } catch {
      // Storage closed (shutdown) or failing: end the stream. The client reconnects with
      // Last-Event-ID and resumes where it was; a lasting failure is then reported as a 500.
      return;
    }
    if (read.lost) {
      yield lostGrantComment(read.lost);
      return;
    }
    for (const event of read.events) {
      last = event.sequence;
      yield `id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
    }
    if (read.events.length === batch) continue;
    if (deps.nowMs() - lastBeat >= heartbeatMs) {
      lastBeat = deps.nowMs();
      yield ': heartbeat\n\n';
    }
    await deps.waitForChange(authorityRecheckMs);
  }
}
