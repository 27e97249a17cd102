import { z } from 'zod';
import { defaultPageSize, maxPageSize, optionalCursor, queryInteger } from '../../pipeline/pagination.js';
import { watchedTypes, watchReasons } from '../../port/index.js';
import { notificationKinds } from '../../watching/rules.js';
import { idOf, pageOf, serviceOwnedFields, timestampOut, withoutReadOnly } from '../shared/schema.js';

/** A member watching an issue or outcome. */
export const watcherSchema = z.strictObject({
  userId: idOf('usr'),
  reason: z
    .enum(watchReasons)
    .describe(
      '`manual`: they asked to; `creator`, `assignee` (or owner), `commenter`, `mentioned` (`@email` in a comment): what made them watch',
    ),
  since: timestampOut.describe('When the watch began: the watcher is told of changes from then on'),
});
export const watcherPageSchema = pageOf(watcherSchema);

export const watcherListQuerySchema = z.strictObject({
  limit: queryInteger((n) => n.min(1).max(maxPageSize).default(defaultPageSize)),
  cursor: optionalCursor,
});
export type WatcherListQuery = z.output<typeof watcherListQuerySchema>;

const booleanQuery = z
  .enum(['true', 'false'])
  .transform((value) => value === 'true')
  .meta({ type: 'string', enum: ['true', 'false'] });

export const notificationListQuerySchema = z.strictObject({
  /** Only notifications after the caller's read marker. */
  unread: booleanQuery.optional(),
  limit: queryInteger((n) => n.min(1).max(maxPageSize).default(defaultPageSize)),
  cursor: optionalCursor,
});
export type NotificationListQuery = z.output<typeof notificationListQuerySchema>;

/** One change by someone else to something the caller watches. */
export const notificationSchema = z.strictObject({
  id: z.uuid().describe('The id of the signal event the notification is made of'),
  sequence: z
    .number()
    .int()
    .min(1)
    .describe("The signal's sequence: pass it as `upTo` to mark this and older read"),
  type: z.string().describe('The signal event type, e.g. `comment.created`, `issue.status_changed`'),
  kind: z.enum(notificationKinds).describe('What happened to the watched item'),
  occurredAt: timestampOut,
  actor: z.strictObject({
    userId: idOf('usr')
      .nullable()
      .describe('null for the operator (CLI) or the service (a due date passing)'),
  }),
  item: z.strictObject({
    type: z.enum(watchedTypes),
    id: z.string(),
    key: z.string().nullable().describe("An issue's key (`APO-12`); null for an outcome"),
    title: z.string().nullable().describe('Its title now; null if it is gone'),
  }),
  change: z
    .strictObject({ field: z.string(), from: z.unknown(), to: z.unknown() })
    .nullable()
    .describe(
      'For `transitioned` and `assigned`: the field (`status`, `assigneeId`, `ownerId`), its old and new value',
    ),
  commentId: idOf('cmt').nullable().describe('For `commented`: the comment'),
  read: z.boolean().describe("Whether its sequence is at or below the caller's read marker"),
});
export const notificationPageSchema = pageOf(notificationSchema);
export type NotificationView = z.output<typeof notificationSchema>;

export const markReadSchema = withoutReadOnly(
  serviceOwnedFields,
  z.strictObject({
    upTo: z
      .union([z.number().int().min(0).max(Number.MAX_SAFE_INTEGER), z.uuid()])
      .describe("A notification's `sequence`, or its `id`: it and every older notification count as read"),
  }),
);
export type MarkRead = z.output<typeof markReadSchema>;

export const readMarkerSchema = z.strictObject({
  readUpTo: z.number().int().min(0).describe('The sequence up to which the caller has read'),
  unread: z.number().int().min(0).describe('Notifications after it'),
});
