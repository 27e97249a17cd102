import { ApiError } from '../../errors.js';
import type { Comment, Decision, Issue, Outcome } from '../../model.js';
import type { OperationContext } from '../../pipeline/context.js';
import type { Page } from '../../pipeline/pagination.js';
import { splitFilters } from '../shared/filters.js';
import { deleteAndAnnounce, insertAndAnnounce } from '../shared/lifecycle.js';
import {
  firstVersion,
  getForWrite,
  getOr404,
  listPage,
  present,
  saveNextVersion,
} from '../shared/operations.js';
import { referenced } from '../shared/references.js';
import { applyChanges } from '../shared/update.js';
import { commentEvents } from './events.js';
import type { CommentCreate, CommentListQuery, CommentPatch } from './schema.js';

export type CommentView = ReturnType<typeof present<Comment>>;
export const presentComment = (comment: Comment): CommentView => present(comment);

/** What a comment can be on: the body field that names it and the collection it lives in. */
const threads = {
  issueId: 'issues',
  outcomeId: 'outcomes',
  decisionId: 'decisions',
} as const;
type ThreadField = keyof typeof threads;
type Commented = Issue | Outcome | Decision;

/** The field naming the comment's issue, outcome or decision, and its id. */
function threadOf(comment: Pick<Comment, ThreadField>): { field: ThreadField; id: string } {
  for (const field of Object.keys(threads) as ThreadField[]) {
    const id = comment[field];
    if (id) return { field, id };
  }
  throw new Error('a comment names none of issueId, outcomeId and decisionId');
}

/**
 * Adds `delta` to the commentCount of what the comment is on, as its next version: the count is
 * part of what a read answers, so its ETag moves with it (no event of its own: the comment's
 * event says what changed). Read and written in the request's transaction: a concurrent comment
 * on the same thread that loses the compare-and-set is a lost race, not a stale request, and the
 * adapter runs its transaction again (PostgreSQL then reads the row FOR NO KEY UPDATE, so the
 * commenters queue: see its lock audit); no commenter is answered 409.
 */
async function recount(ctx: OperationContext, field: ThreadField, row: Commented, delta: number) {
  const name = threads[field];
  await saveNextVersion(ctx, name, row as never, { commentCount: row.commentCount + delta } as never);
}

/**
 * Stores a comment and announces `comment.created`, without touching the count of what it is
 * on: the caller does (an issue's transition counts it in the same new version as its status).
 */
export async function insertComment(
  ctx: OperationContext,
  fields: Pick<Comment, ThreadField | 'body'>,
): Promise<CommentView> {
  const comment: Comment = {
    id: ctx.ids.id('cmt'),
    workspaceId: ctx.tenant.workspaceId,
    issueId: fields.issueId,
    outcomeId: fields.outcomeId,
    decisionId: fields.decisionId,
    authorId: ctx.tenant.actor.userId,
    body: fields.body,
    editedAt: null,
    ...firstVersion(ctx),
  };
  return insertAndAnnounce(ctx, 'comments', comment, {
    type: commentEvents.created,
    resourceType: 'comment',
  });
}

/** Only the comment's author, or a workspace admin, may change or delete it. */
async function ownCommentOr403(ctx: OperationContext, comment: Comment): Promise<void> {
  const userId = ctx.tenant.actor.userId;
  if (userId === null || userId === comment.authorId) return;
  const membership = await ctx.tx.tenancy.getMembership(ctx.tenant.workspaceId, userId);
  if (membership?.role !== 'admin') {
    throw new ApiError(403, 'forbidden', 'Only the author of this comment, or an admin, may change it.');
  }
}

/** Comments on an issue, outcome or decision of the caller's workspace; counts it there. */
export async function createComment(ctx: OperationContext, input: CommentCreate): Promise<CommentView> {
  const { field, id } = threadOf({
    issueId: input.issueId ?? null,
    outcomeId: input.outcomeId ?? null,
    decisionId: input.decisionId ?? null,
  });
  const thread = (await referenced(ctx, threads[field], id, field)) as Commented;
  await recount(ctx, field, thread, 1);
  return insertComment(ctx, {
    issueId: input.issueId ?? null,
    outcomeId: input.outcomeId ?? null,
    decisionId: input.decisionId ?? null,
    body: input.body,
  });
}

export async function getComment(ctx: OperationContext, id: string): Promise<CommentView> {
  return presentComment(await getOr404(ctx, 'comments', id, 'comment'));
}

/** A page of comments, oldest first unless `sort=-createdAt`. */
export async function listComments(
  ctx: OperationContext,
  query: CommentListQuery,
): Promise<Page<CommentView>> {
  const { where, params } = splitFilters(query, ['issueId', 'outcomeId', 'decisionId', 'authorId']);
  return listPage(ctx, 'comments', params, where, presentComment);
}

/** Replaces the body and stamps editedAt; the same body again changes nothing. */
export async function updateComment(
  ctx: OperationContext,
  id: string,
  patch: CommentPatch,
): Promise<CommentView> {
  const current = await getForWrite(ctx, 'comments', id, 'comment');
  await ownCommentOr403(ctx, current);
  if (patch.body === undefined || patch.body === current.body) return presentComment(current);
  const { row } = await applyChanges(
    ctx,
    'comments',
    current,
    { body: patch.body, editedAt: ctx.now },
    { type: commentEvents.updated, resourceType: 'comment', present: presentComment },
  );
  return presentComment(row);
}

/** Deletes a comment and counts it off what it was on. */
export async function deleteComment(ctx: OperationContext, id: string): Promise<void> {
  const comment = await getForWrite(ctx, 'comments', id, 'comment');
  await ownCommentOr403(ctx, comment);
  const { field, id: threadId } = threadOf(comment);
  const thread = (await ctx.tx.collections[threads[field]].get(
    ctx.tenant.workspaceId,
    threadId,
  )) as Commented | null;
  if (thread) await recount(ctx, field, thread, -1);
  await deleteAndAnnounce(ctx, 'comments', comment, {
    type: commentEvents.deleted,
    resourceType: 'comment',
    present: presentComment,
  });
}

/** Deletes every comment on an outcome that is being deleted, announcing each (`comment.deleted`). */
export async function deleteCommentsOn(ctx: OperationContext, outcomeId: string): Promise<void> {
  const doomed = await ctx.tx.collections.comments.deleteWhere(ctx.tenant.workspaceId, { outcomeId });
  for (const comment of doomed) {
    await ctx.emit({
      type: commentEvents.deleted,
      resource: { type: 'comment', id: comment.id },
      data: { object: presentComment(comment) },
    });
  }
}
