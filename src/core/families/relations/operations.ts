import { ApiError, notFound } from '../../errors.js';
import type { IssueRelation, RelationType, StoredRelationType } from '../../model.js';
import { preconditionHolds, versionConflict } from '../../pipeline/conditional.js';
import type { OperationContext } from '../../pipeline/context.js';
import { decodeCursor, type Page, toPage } from '../../pipeline/pagination.js';
import { findIssue } from '../issues/operations.js';
import { firstVersion, getOr404, present, saveNextVersion } from '../shared/operations.js';
import { relationEvents } from './events.js';
import type { RelationCreate, RelationListQuery } from './schema.js';

/** Each type read from the other end. */
export const inverseOf: Record<RelationType, RelationType> = {
  blocks: 'blocked_by',
  blocked_by: 'blocks',
  relates_to: 'relates_to',
  duplicates: 'duplicate_of',
  duplicate_of: 'duplicates',
  parent_of: 'child_of',
  child_of: 'parent_of',
};

const storedTypes: readonly string[] = ['blocks', 'relates_to', 'duplicates', 'parent_of'];

export interface RelationView {
  id: string;
  type: RelationType;
  issueId: string;
  createdAt: string;
  updatedAt: string;
  version: number;
}

/** The relation as read from `issueId`'s end: its type from there, and the issue at the other end. */
export function relationFrom(relation: IssueRelation, issueId: string): RelationView {
  const fromSource = relation.sourceId === issueId;
  return {
    id: relation.id,
    type: fromSource ? relation.type : inverseOf[relation.type],
    issueId: fromSource ? relation.targetId : relation.sourceId,
    createdAt: relation.createdAt,
    updatedAt: relation.updatedAt,
    version: relation.version,
  };
}

export const presentRelation = (relation: IssueRelation) => present(relation);

/** `A blocked_by B` is stored as `B blocks A`: one row per relation, whichever end asked. */
function stored(type: RelationType, self: string, other: string) {
  return storedTypes.includes(type)
    ? { type: type as StoredRelationType, sourceId: self, targetId: other }
    : { type: inverseOf[type] as StoredRelationType, sourceId: other, targetId: self };
}

/** Every relation of this type leaving `sourceId`, walking the list in pages. */
async function outgoing(ctx: OperationContext, sourceId: string, type: StoredRelationType) {
  const all: IssueRelation[] = [];
  let after: { createdAt: string; id: string } | undefined;
  for (;;) {
    const page = await ctx.tx.collections.issueRelations.list({
      workspaceId: ctx.tenant.workspaceId,
      where: { sourceId, type },
      order: 'asc',
      limit: 200,
      ...(after ? { after } : {}),
    });
    all.push(...page.rows);
    const last = page.rows.at(-1);
    if (page.rows.length < 200 || !last) return all;
    after = { createdAt: last.createdAt, id: last.id };
  }
}

/**
 * What the relation rules read of the relation graph. The API reads the workspace's
 * (`storedGraph`); an import reads it with the relations of its file added, which are not stored
 * while the file is checked.
 */
export interface RelationGraph {
  /** The id of the relation `sourceId` <type> `targetId` (either way round for relates_to), if any. */
  existing(type: StoredRelationType, sourceId: string, targetId: string): Promise<string | null>;
  /** The issues `issueId` blocks. */
  blocks(issueId: string): Promise<string[]>;
  /** The issue's parent, or null. */
  parentOf(issueId: string): Promise<string | null>;
  /** The id of the parent_of relation naming `issueId` as child, when there is one. */
  parentRelationOf(issueId: string): Promise<string | null>;
}

/** The workspace's relation graph, as stored. */
export function storedGraph(ctx: OperationContext): RelationGraph {
  const workspaceId = ctx.tenant.workspaceId;
  const relations = ctx.tx.collections.issueRelations;
  return {
    async existing(type, sourceId, targetId) {
      const found =
        (await relations.findOne(workspaceId, { sourceId, targetId, type })) ??
        (type === 'relates_to'
          ? await relations.findOne(workspaceId, { sourceId: targetId, targetId: sourceId, type })
          : null);
      return found?.id ?? null;
    },
    async blocks(issueId) {
      return (await outgoing(ctx, issueId, 'blocks')).map((relation) => relation.targetId);
    },
    async parentOf(issueId) {
      return (await ctx.tx.collections.issues.get(workspaceId, issueId))?.parentId ?? null;
    },
    async parentRelationOf(issueId) {
      const parent = await relations.findOne(workspaceId, {
        targetId: issueId,
        type: 'parent_of',
      });
      return parent?.id ?? null;
    },
  };
}

/** A path of `blocks` relations from `from` to `to` (the ids along it, both ends included), or null. */
async function blockingPath(graph: RelationGraph, from: string, to: string): Promise<string[] | null> {
  const cameFrom = new Map<string, string | null>([[from, null]]);
  let frontier = [from];
  while (frontier.length > 0) {
    const next: string[] = [];
    for (const node of frontier) {
      for (const targetId of await graph.blocks(node)) {
        if (cameFrom.has(targetId)) continue;
        cameFrom.set(targetId, node);
        if (targetId === to) {
          const path = [to];
          for (let at = cameFrom.get(to); at; at = cameFrom.get(at)) path.unshift(at);
          return path;
        }
        next.push(targetId);
      }
    }
    frontier = next;
  }
  return null;
}

/** The issue and its ancestors, nearest first, up the parent chain (ids). */
async function ancestry(graph: RelationGraph, issueId: string): Promise<string[]> {
  const chain = [issueId];
  let parentId = await graph.parentOf(issueId);
  // An issue has one parent and the chain never loops (a cycle is refused), so this ends.
  while (parentId !== null && !chain.includes(parentId)) {
    chain.push(parentId);
    parentId = await graph.parentOf(parentId);
  }
  return chain;
}

/** The issue's key, or its id when the workspace does not hold it (yet). */
async function keyOf(ctx: OperationContext, id: string): Promise<string> {
  return (await ctx.tx.collections.issues.get(ctx.tenant.workspaceId, id))?.key ?? id;
}

/** 422 relation_cycle naming the issues around the cycle by key. */
async function cycle(ctx: OperationContext, type: StoredRelationType, ids: string[]): Promise<ApiError> {
  const keys: string[] = [];
  for (const id of ids) keys.push(await keyOf(ctx, id));
  return new ApiError(
    422,
    'relation_cycle',
    `This ${type} relation would close a cycle: ${keys.join(' → ')}.`,
    { path: keys },
  );
}

/**
 * Why the graph cannot take the relation `sourceId` <type> `targetId`, or null: an issue related
 * to itself, a relation the graph holds already, a `blocks` or parent relation that would close a
 * cycle, a second parent.
 */
export async function relationRefusal(
  ctx: OperationContext,
  graph: RelationGraph,
  type: StoredRelationType,
  sourceId: string,
  targetId: string,
): Promise<ApiError | null> {
  if (sourceId === targetId) {
    return new ApiError(
      422,
      'self_relation',
      `Issue ${await keyOf(ctx, sourceId)} cannot be related to itself.`,
    );
  }
  const existing = await graph.existing(type, sourceId, targetId);
  if (existing) {
    const keys = `${await keyOf(ctx, sourceId)} and ${await keyOf(ctx, targetId)}`;
    return new ApiError(422, 'relation_exists', `${keys} are already related so.`, { relationId: existing });
  }
  if (type === 'blocks') {
    const back = await blockingPath(graph, targetId, sourceId);
    if (back) return cycle(ctx, type, [sourceId, ...back]);
  }
  if (type === 'parent_of') {
    const chain = await ancestry(graph, sourceId);
    const at = chain.indexOf(targetId);
    if (at >= 0) return cycle(ctx, type, [sourceId, ...chain.slice(0, at + 1).reverse()]);
    if ((await graph.parentOf(targetId)) !== null) {
      const relationId = await graph.parentRelationOf(targetId);
      return new ApiError(
        422,
        'second_parent',
        `${await keyOf(ctx, targetId)} already has a parent; remove that relation first.`,
        relationId ? { relationId } : {},
      );
    }
  }
  return null;
}

/**
 * Relates two issues of the caller's workspace: stored once, in the direction of its stored type,
 * and counted on the issues (`blockedBy`, `parentId`, `subIssues`) as their next versions.
 *
 * Refused: an issue related to itself, a relation that exists already (from either end), a
 * `blocks` or parent relation that would close a cycle, a second parent. The checks read the
 * relation graph and then write to it in the request's transaction, so two concurrent relations
 * that would together close a cycle (or be one relation twice) must queue: the PostgreSQL
 * adapter, under READ COMMITTED, locks the workspace's relation graph at the first read of it
 * (the existence check's findOne; see its lock audit); a second parent is fenced anyway by the
 * compare-and-set on the child's version.
 */
export async function createRelation(
  ctx: OperationContext,
  idOrKey: string,
  input: RelationCreate,
): Promise<RelationView> {
  const issue = await findIssue(ctx, idOrKey, false);
  const other = await getOr404(ctx, 'issues', input.issueId, 'issue');
  const { type, sourceId, targetId } = stored(input.type, issue.id, other.id);
  const [source, target] = sourceId === issue.id ? [issue, other] : [other, issue];
  const relations = ctx.tx.collections.issueRelations;
  const workspaceId = ctx.tenant.workspaceId;
  const refusal = await relationRefusal(ctx, storedGraph(ctx), type, sourceId, targetId);
  if (refusal) throw refusal;
  const relation: IssueRelation = {
    id: ctx.ids.id('rel'),
    workspaceId,
    type,
    sourceId,
    targetId,
    ...firstVersion(ctx),
  };
  await relations.insert(relation);
  if (type === 'blocks') await saveNextVersion(ctx, 'issues', target, { blockedBy: target.blockedBy + 1 });
  if (type === 'parent_of') {
    await saveNextVersion(ctx, 'issues', target, { parentId: source.id });
    await saveNextVersion(ctx, 'issues', source, { subIssues: source.subIssues + 1 });
  }
  await ctx.emit({
    type: relationEvents.created,
    resource: { type: 'issue_relation', id: relation.id },
    data: { object: presentRelation(relation) },
  });
  return relationFrom(relation, issue.id);
}

/** A relation of the issue (named from either end), as read from that issue; 404 otherwise. */
export async function getRelation(
  ctx: OperationContext,
  idOrKey: string,
  relationId: string,
): Promise<RelationView> {
  const issue = await findIssue(ctx, idOrKey, false);
  const relation = await ctx.tx.collections.issueRelations.get(ctx.tenant.workspaceId, relationId);
  if (!relation || (relation.sourceId !== issue.id && relation.targetId !== issue.id)) {
    throw notFound('relation of this issue');
  }
  return relationFrom(relation, issue.id);
}

/** Removes a relation of the issue (from either end), and its counts on both issues. */
export async function deleteRelation(
  ctx: OperationContext,
  idOrKey: string,
  relationId: string,
): Promise<void> {
  const issue = await findIssue(ctx, idOrKey, false);
  const workspaceId = ctx.tenant.workspaceId;
  const relation = await ctx.tx.collections.issueRelations.get(workspaceId, relationId);
  if (!relation || (relation.sourceId !== issue.id && relation.targetId !== issue.id)) {
    throw notFound('relation of this issue');
  }
  if (ctx.precondition && !preconditionHolds(ctx.precondition, relation.version))
    throw versionConflict(relation.version);
  await ctx.tx.collections.issueRelations.delete(workspaceId, relation.id);
  const target = await ctx.tx.collections.issues.get(workspaceId, relation.targetId);
  const source = await ctx.tx.collections.issues.get(workspaceId, relation.sourceId);
  if (relation.type === 'blocks' && target) {
    await saveNextVersion(ctx, 'issues', target, { blockedBy: target.blockedBy - 1 });
  }
  if (relation.type === 'parent_of') {
    if (target) await saveNextVersion(ctx, 'issues', target, { parentId: null });
    if (source) await saveNextVersion(ctx, 'issues', source, { subIssues: source.subIssues - 1 });
  }
  await ctx.emit({
    type: relationEvents.deleted,
    resource: { type: 'issue_relation', id: relation.id },
    data: { object: presentRelation(relation) },
  });
}

const byCreation = (a: IssueRelation, b: IssueRelation) =>
  a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

/**
 * One page of the issue's relations, from both ends, oldest first: the relations naming it as
 * source and those naming it as target are two keyset lists, merged (no relation is in both: an
 * issue is never related to itself), so the cursor is one position in their union.
 */
export async function listRelations(
  ctx: OperationContext,
  idOrKey: string,
  query: RelationListQuery,
): Promise<Page<RelationView>> {
  const issue = await findIssue(ctx, idOrKey, false);
  const filters = { name: 'issueRelations', issueId: issue.id };
  const after = query.cursor !== undefined ? decodeCursor(query.cursor, filters) : undefined;
  const side = (where: { sourceId: string } | { targetId: string }) =>
    ctx.tx.collections.issueRelations.list({
      workspaceId: ctx.tenant.workspaceId,
      where,
      order: 'asc',
      limit: query.limit + 1,
      ...(after ? { after } : {}),
    });
  const out = await side({ sourceId: issue.id });
  const into = await side({ targetId: issue.id });
  const rows = [...out.rows, ...into.rows].sort(byCreation).slice(0, query.limit + 1);
  return toPage(rows, out.total + into.total, query.limit, filters, (row) => relationFrom(row, issue.id));
}
