import { qualityValues } from '../../pipeline/quality-values.js';
import { noContent, ok } from '../../pipeline/reply.js';
import { defineRoute, type Route } from '../../pipeline/route.js';
import type { WatchedType } from '../../port/index.js';
import { notificationExamples } from './examples.js';
import {
  listNotifications,
  listWatchers,
  markRead,
  notificationStream,
  notificationStreamStart,
  unwatch,
  watch,
} from './operations.js';
import {
  markReadSchema,
  notificationListQuerySchema,
  notificationPageSchema,
  readMarkerSchema,
  watcherListQuerySchema,
  watcherPageSchema,
  watcherSchema,
} from './schema.js';

/** Whether Accept names the event stream with a weight above 0 (as GET /signals decides). */
const wantsEventStream = (accept: string | undefined): boolean =>
  accept !== undefined && (qualityValues(accept).get('text/event-stream') ?? 0) > 0;

/** `PUT`/`DELETE <path>/{id}/watchers/me` and `GET <path>/{id}/watchers` for issues or outcomes. */
function watcherRoutes(type: WatchedType): Route[] {
  const path = type === 'issue' ? '/issues' : '/outcomes';
  const name = type === 'issue' ? 'Issue' : 'Outcome';
  const an = type === 'issue' ? 'an issue' : 'an outcome';
  const id = (params: Record<string, string>) => params.id ?? '';
  return [
    defineRoute({
      method: 'PUT',
      path: `${path}/:id/watchers/me`,
      access: 'read',
      kind: 'action',
      operationId: `watch${name}`,
      summary: `Watch ${an}`,
      description: `The token's user watches the ${type} from now on: their notifications tell them of changes others make to it. Any member may watch, viewers and read-scoped tokens included (a watch is the caller's own subscription, not a change of the ${type}). Watching it again keeps the first watch.`,
      examples: { response: notificationExamples.watcher },
      response: watcherSchema,
      handle: async (ctx, { params }) => ok(await watch(ctx, type, id(params))),
    }),
    defineRoute({
      method: 'DELETE',
      path: `${path}/:id/watchers/me`,
      access: 'read',
      kind: 'delete',
      operationId: `unwatch${name}`,
      summary: `Stop watching ${an}`,
      description: `The token's user no longer watches the ${type}, and the notifications it gave them leave their feed. Answers 204 whether or not they watched it. A later comment, assignment or mention makes them a watcher again.`,
      examples: {},
      handle: async (ctx, { params }) => {
        await unwatch(ctx, type, id(params));
        return noContent();
      },
    }),
    defineRoute({
      method: 'GET',
      path: `${path}/:id/watchers`,
      access: 'read',
      kind: 'read',
      operationId: `list${name}Watchers`,
      summary: `List the watchers of ${an}`,
      description: `The members watching the ${type}, in the order they began, with why: they asked to (\`manual\`), created it, were assigned it${type === 'outcome' ? ' (its owner)' : ''}, commented on it, or were mentioned (\`@email\`) in a comment on it.`,
      examples: { response: notificationExamples.watchers },
      query: watcherListQuerySchema,
      response: watcherPageSchema,
      handle: async (ctx, { params, query }) => ok(await listWatchers(ctx, type, id(params), query)),
    }),
  ];
}

/** The feed first: its path names the family's section (tag) in the API reference. */
export const notificationRoutes = [
  defineRoute({
    method: 'GET',
    path: '/notifications',
    access: 'read',
    kind: 'read',
    operationId: 'listNotifications',
    summary: "List or stream the token's user's notifications",
    description:
      "Changes by others to the issues and outcomes the token's user watches, newest first: comments on them (`commented`), transitions (`transitioned`), assignments and new owners (`assigned`) and due dates passing (`overdue`); never the user's own changes, nothing from before they began watching, nothing of another workspace. With `unread=true`, only those after the read marker (`POST /notifications/read`). With `Accept: text/event-stream` the answer is a server-sent event stream of new notifications, oldest first (after the read marker with `unread=true`), resumed with Last-Event-ID; it ends when the token is revoked or its user removed. Notifications are made of signals, and are kept as long as they are.",
    examples: { response: notificationExamples.page },
    query: notificationListQuerySchema,
    response: notificationPageSchema,
    handle: async (ctx, { query, headers }) => {
      if (!wantsEventStream(headers.accept)) return ok(await listNotifications(ctx, query));
      const after = await notificationStreamStart(ctx, query, headers['last-event-id']);
      const owner = {
        accountId: ctx.tenant.accountId,
        workspaceId: ctx.tenant.workspaceId,
        userId: ctx.tenant.actor.userId ?? '',
      };
      return { status: 200, streamFrom: (deps) => notificationStream(deps, owner, after) };
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/notifications/read',
    access: 'read',
    kind: 'action',
    operationId: 'markNotificationsRead',
    summary: 'Mark notifications read',
    description:
      "Raises the token's user's read marker to `upTo`, a notification's `sequence` or `id`: it and every older notification count as read, and `unread=true` leaves them out. The marker never goes back (a lower `upTo` changes nothing) nor past the newest event. Answers the marker and how many notifications are after it.",
    examples: { request: notificationExamples.markRead, response: notificationExamples.marked },
    body: markReadSchema,
    response: readMarkerSchema,
    handle: async (ctx, { body }) => ok(await markRead(ctx, body)),
  }),
  ...watcherRoutes('issue'),
  ...watcherRoutes('outcome'),
];
