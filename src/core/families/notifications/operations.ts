import { ApiError, invalidReference } from '../../errors.js';
import type { SignalEvent } from '../../model.js';
import { authorityRecheckMs, lostGrantComment } from '../../pipeline/authority.js';
import type { OperationContext } from '../../pipeline/context.js';
import { decodePosition, encodePosition, type Page } from '../../pipeline/pagination.js';
import type { AfterCommitDeps } from '../../pipeline/reply.js';
import type { StorageTx, Watch, WatchedType } from '../../port/index.js';
import { notifyingSubject } from '../../watching/rules.js';
import { findIssue } from '../issues/operations.js';
import { getOr404 } from '../shared/operations.js';
import type { MarkRead, NotificationListQuery, NotificationView, WatcherListQuery } from './schema.js';

type WatcherView = Pick<Watch, 'userId' | 'reason' | 'since'>;
const presentWatch = ({ userId, reason, since }: Watch): WatcherView => ({ userId, reason, since });

/** The id of the issue (by id or key) or outcome of the caller's workspace, or 404. */
async function subjectId(ctx: OperationContext, type: WatchedType, idOrKey: string): Promise<string> {
  if (type === 'issue') return (await findIssue(ctx, idOrKey, false)).id;
  return (await getOr404(ctx, 'outcomes', idOrKey, 'outcome')).id;
}

/** The caller watches the item from now on (a watch they have already is kept as it is). */
export async function watch(ctx: OperationContext, type: WatchedType, idOrKey: string): Promise<WatcherView> {
  const id = await subjectId(ctx, type, idOrKey);
  const userId = callerOf(ctx);
  const { accountId, workspaceId } = ctx.tenant;
  const entry: Watch = {
    workspaceId,
    subjectType: type,
    subjectId: id,
    userId,
    reason: 'manual',
    since: ctx.now,
  };
  if (await ctx.tx.watches.add(accountId, entry)) return presentWatch(entry);
  const kept = await ctx.tx.watches.get(accountId, workspaceId, id, userId);
  return presentWatch(kept ?? entry);
}

/** The caller stops watching the item (nothing happens when they did not watch it). */
export async function unwatch(ctx: OperationContext, type: WatchedType, idOrKey: string): Promise<void> {
  const id = await subjectId(ctx, type, idOrKey);
  await ctx.tx.watches.remove(ctx.tenant.accountId, ctx.tenant.workspaceId, id, callerOf(ctx));
}

/** A page of the item's watchers, in the order they began watching. */
export async function listWatchers(
  ctx: OperationContext,
  type: WatchedType,
  idOrKey: string,
  query: WatcherListQuery,
): Promise<Page<WatcherView>> {
  const id = await subjectId(ctx, type, idOrKey);
  const filters = { family: 'watchers', subjectId: id };
  let after: { since: string; userId: string } | undefined;
  if (query.cursor !== undefined) {
    const [since, userId, extra] = decodePosition(query.cursor, filters);
    if (typeof since !== 'string' || typeof userId !== 'string' || extra !== undefined) {
      throw new ApiError(400, 'invalid_cursor', 'The cursor is not the nextCursor of a watchers page.');
    }
    after = { since, userId };
  }
  const { rows, total } = await ctx.tx.watches.list({
    accountId: ctx.tenant.accountId,
    workspaceId: ctx.tenant.workspaceId,
    subjectId: id,
    ...(after ? { after } : {}),
    limit: query.limit + 1,
  });
  const data = rows.slice(0, query.limit);
  const last = data.at(-1);
  return {
    data: data.map(presentWatch),
    nextCursor: rows.length > query.limit && last ? encodePosition([last.since, last.userId], filters) : null,
    total,
  };
}

/** The token's user: notifications and watches are a person's, never the operator's. */
function callerOf(ctx: OperationContext): string {
  const userId = ctx.tenant.actor.userId;
  if (userId === null) throw new ApiError(403, 'forbidden', 'Only a member watches and is notified.');
  return userId;
}

/** The read marker and feed owner of the caller. */
const ownerOf = (ctx: OperationContext) => ({
  accountId: ctx.tenant.accountId,
  workspaceId: ctx.tenant.workspaceId,
  userId: callerOf(ctx),
});

/** The filters a notifications cursor is bound to. */
const cursorFilters = (query: NotificationListQuery) => ({
  family: 'notifications',
  unread: query.unread ?? false,
});

/**
 * One page of the caller's notifications, newest first: every change by someone else to what
 * they watched when it happened; with `unread=true`, only those after their read marker.
 */
export async function listNotifications(
  ctx: OperationContext,
  query: NotificationListQuery,
): Promise<Page<NotificationView>> {
  const owner = ownerOf(ctx);
  const marker = await ctx.tx.watches.readUpTo(owner.accountId, owner.workspaceId, owner.userId);
  let before: number | undefined;
  if (query.cursor !== undefined) {
    const [sequence, extra] = decodePosition(query.cursor, cursorFilters(query));
    if (typeof sequence !== 'number' || !Number.isSafeInteger(sequence) || extra !== undefined) {
      throw new ApiError(400, 'invalid_cursor', 'The cursor is not the nextCursor of a notifications page.');
    }
    before = sequence;
  }
  const bounds = {
    ...owner,
    ...(query.unread ? { afterSequence: marker } : {}),
    ...(before !== undefined ? { beforeSequence: before } : {}),
  };
  const events = await ctx.tx.watches.feed({ ...bounds, order: 'desc', limit: query.limit + 1 });
  const data = events.slice(0, query.limit);
  const last = data.at(-1);
  const { beforeSequence: _page, ...all } = bounds;
  return {
    data: await presentNotifications(ctx.tx, ctx.tenant.workspaceId, data, marker),
    nextCursor:
      events.length > query.limit && last ? encodePosition([last.sequence], cursorFilters(query)) : null,
    total: await ctx.tx.watches.feedCount(all),
  };
}

/** Raises the caller's read marker to `upTo` (a sequence, or a notification's id), never past the newest event. */
export async function markRead(
  ctx: OperationContext,
  input: MarkRead,
): Promise<{ readUpTo: number; unread: number }> {
  const owner = ownerOf(ctx);
  let upTo: number;
  if (typeof input.upTo === 'number') {
    upTo = Math.min(input.upTo, await ctx.tx.signals.latestSequence(owner.accountId));
  } else {
    const event = await ctx.tx.signals.get(owner.accountId, input.upTo);
    // A reference in the body, as an unknown project in a create's is: 422, not the 404 of a path.
    if (!event || event.workspaceId !== owner.workspaceId)
      throw invalidReference('upTo', `upTo ${input.upTo} names no notification of this workspace.`);
    upTo = event.sequence;
  }
  const readUpTo = await ctx.tx.watches.markRead(owner.accountId, owner.workspaceId, owner.userId, upTo);
  return { readUpTo, unread: await ctx.tx.watches.feedCount({ ...owner, afterSequence: readUpTo }) };
}

/** The signals as notifications: each names its event and its item (read now, once an item per page). */
export async function presentNotifications(
  tx: StorageTx,
  workspaceId: string,
  events: readonly SignalEvent[],
  marker: number,
): Promise<NotificationView[]> {
  const items = new Map<string, { key: string | null; title: string } | null>();
  const out: NotificationView[] = [];
  for (const event of events) {
    const subject = notifyingSubject(event);
    if (!subject) continue;
    if (!items.has(subject.id)) {
      const row =
        subject.type === 'issue'
          ? await tx.collections.issues.get(workspaceId, subject.id)
          : await tx.collections.outcomes.get(workspaceId, subject.id);
      items.set(subject.id, row ? { key: 'key' in row ? row.key : null, title: row.title } : null);
    }
    const item = items.get(subject.id) ?? null;
    out.push({
      id: event.id,
      sequence: event.sequence,
      type: event.type,
      kind: subject.kind,
      occurredAt: event.occurredAt,
      actor: { userId: event.actor.userId },
      item: { type: subject.type, id: subject.id, key: item?.key ?? null, title: item?.title ?? null },
      change: changeOf(event, subject.kind),
      commentId: subject.kind === 'commented' ? event.resource.id : null,
      read: event.sequence <= marker,
    });
  }
  return out;
}

/** The field a transition or an assignment changed, from and to. */
function changeOf(event: SignalEvent, kind: string): NotificationView['change'] {
  if (kind !== 'transitioned' && kind !== 'assigned') return null;
  const object = (event.data.object ?? {}) as Record<string, unknown>;
  const previous = (event.data.previous ?? {}) as Record<string, unknown>;
  const field =
    kind === 'transitioned' ? 'status' : event.resource.type === 'issue' ? 'assigneeId' : 'ownerId';
  return { field, from: Object.hasOwn(previous, field) ? previous[field] : null, to: object[field] ?? null };
}

/**
 * Where a notification stream resumes after: the Last-Event-ID's event, else (`unread=true`) the
 * caller's read marker, else the newest event now.
 */
export async function notificationStreamStart(
  ctx: OperationContext,
  query: NotificationListQuery,
  lastEventId?: string,
): Promise<number> {
  const owner = ownerOf(ctx);
  if (lastEventId !== undefined) {
    const event = await ctx.tx.signals.get(owner.accountId, lastEventId.trim());
    if (!event || event.workspaceId !== owner.workspaceId) {
      throw new ApiError(400, 'validation_failed', 'Last-Event-ID names no notification of this workspace.', {
        issues: [{ in: 'header', path: 'last-event-id', message: 'unknown event id' }],
      });
    }
    return event.sequence;
  }
  if (query.unread) return ctx.tx.watches.readUpTo(owner.accountId, owner.workspaceId, owner.userId);
  return ctx.tx.signals.latestSequence(owner.accountId);
}

export const heartbeatMs = 15_000;
const batch = 100;

/**
 * The caller's notifications as server-sent events, oldest first, as the signal stream sends
 * signals: each read re-checks the request's token in the same transaction, after the read and
 * before anything is sent, and at least every `authorityRecheckMs` while idle; a revoked token
 * or a removed member ends the stream with a comment saying why, and nothing committed after
 * that reaches it.
 */
export async function* notificationStream(
  deps: AfterCommitDeps,
  owner: { accountId: string; workspaceId: string; userId: string },
  after: number,
): AsyncGenerator<string> {
  let last = after;
  let lastBeat = deps.nowMs();
  yield 'retry: 2000\n\n';
  for (;;) {
    let read: {
      notifications: NotificationView[];
      lastSequence: number;
      full: boolean;
      lost: ApiError | null;
    };
    try {
      read = await deps.storage.transaction(
        async (tx) => {
          const events = await tx.watches.feed({ ...owner, afterSequence: last, order: 'asc', limit: batch });
          const marker = await tx.watches.readUpTo(owner.accountId, owner.workspaceId, owner.userId);
          return {
            notifications: await presentNotifications(tx, owner.workspaceId, events, marker),
            lastSequence: events.at(-1)?.sequence ?? last,
            full: events.length === batch,
            lost: await deps.grantLost(tx),
          };
        },
        { mode: 'read' },
      );
    } catch {
      // Storage closed or failing: end the stream; the client resumes with Last-Event-ID.
      return;
    }
    if (read.lost) {
      yield lostGrantComment(read.lost);
      return;
    }
    for (const notification of read.notifications) {
      yield `id: ${notification.id}\nevent: notification\ndata: ${JSON.stringify(notification)}\n\n`;
    }
    last = read.lastSequence;
    if (read.full) continue;
    if (deps.nowMs() - lastBeat >= heartbeatMs) {
      lastBeat = deps.nowMs();
      yield ': heartbeat\n\n';
    }
    await deps.waitForChange(authorityRecheckMs);
  }
}
