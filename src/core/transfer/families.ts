import { z } from 'zod';
import { commentEvents } from '../families/comments/events.js';
import { commentCreateSchema, commentSchema } from '../families/comments/schema.js';
import { contextEvents } from '../families/context/events.js';
import { contextCreateSchema, contextItemSchema } from '../families/context/schema.js';
import { decisionEvents } from '../families/decisions/events.js';
import { decisionCreateSchema, decisionSchema } from '../families/decisions/schema.js';
import { issueEvents } from '../families/issues/events.js';
import { issueCreateSchema, issueSchema } from '../families/issues/schema.js';
import { memberEvents } from '../families/members/events.js';
import { memberEmail } from '../families/members/schema.js';
import { outcomeEvents } from '../families/outcomes/events.js';
import { outcomeCreateSchema, outcomeSchema } from '../families/outcomes/schema.js';
import { projectEvents } from '../families/projects/events.js';
import { projectCreateSchema, projectSchema } from '../families/projects/schema.js';
import { relationEvents } from '../families/relations/events.js';
import { relationCreateSchema, storedRelationSchema } from '../families/relations/schema.js';
import { insertAndAnnounce } from '../families/shared/lifecycle.js';
import { present } from '../families/shared/operations.js';
import { idOf, timestampOut } from '../families/shared/schema.js';
import { timeEntryEvents } from '../families/time-entries/events.js';
import { timeEntryCreateSchema, timeEntrySchema } from '../families/time-entries/schema.js';
import { roles, type Workspace } from '../model.js';
import type { OperationContext } from '../pipeline/context.js';
import type { CollectionName, CollectionRows, DumpRows, DumpTable } from '../storage.js';
import type { ItemProblem } from './import-run.js';

/** What exporting a row may look up: the transaction it reads in and the workspace it exports. */
export interface ExportScope {
  tx: OperationContext['tx'];
  workspaceId: string;
}

/** A reference a record makes to another record, by the field holding its id. */
export interface Reference {
  field: string;
  /** The family the id belongs to; `members` for a user's id. */
  family: string;
}

/**
 * One family of records an export writes and an import reads. A family registered here is
 * exported and imported with nothing else to change: the exporter pages through its `table`, the
 * importer validates with its `schema`, checks its `references` and calls its `create`.
 */
export interface TransferFamily {
  /** Its name in the file (`family` of each line). */
  family: string;
  /** The table its rows are read from, every row once (DumpStore.page), in insertion order. */
  table: DumpTable;
  /** The record as the file holds it, or null when the row belongs to another workspace. */
  toRecord(row: unknown, scope: ExportScope): Promise<Record<string, unknown> | null>;
  /** What a record of the file must be. */
  schema: z.ZodType<Record<string, unknown>>;
  /**
   * What the API's create would refuse in the record (its create body's schema: text limits,
   * blank text, a comment's one target…): every problem, its path in the record.
   */
  refused?(record: Record<string, unknown>): { path: string[]; message: string }[];
  /** Fields naming other records, checked before anything is written. */
  references: readonly Reference[];
  /** Whether the record was imported already (it exists in the workspace under its id). */
  exists(ctx: OperationContext, record: Record<string, unknown>): Promise<boolean>;
  /** Whether the workspace holds a record of this family with this id (a reference's target). */
  has(ctx: OperationContext, id: string): Promise<boolean>;
  /**
   * Why the record cannot go in although it is new (a key another record of the workspace holds,
   * an id a record of another workspace holds): every reason, none when it can.
   */
  conflicts?(ctx: OperationContext, record: Record<string, unknown>): Promise<ItemProblem[]>;
  /**
   * Writes the record into the workspace as the API's create does: stored and announced with its
   * `*.created` signal (and the webhook deliveries it causes) in the caller's transaction. Ids,
   * keys, numbers and timestamps are kept as the record has them.
   */
  create(ctx: OperationContext, record: Record<string, unknown>): Promise<void>;
}

type Conflict = (ctx: OperationContext, record: Record<string, unknown>) => Promise<ItemProblem | null>;

interface CollectionFamilyOptions<Name extends CollectionName> {
  collection: Name;
  schema: z.ZodType<Record<string, unknown>>;
  /** The API's create body schema, which the record (as `createInput` makes it) must pass too. */
  createSchema: z.ZodType;
  /** The create body the record stands for, when it is not the record itself. */
  createInput?: (record: Record<string, unknown>) => unknown;
  references: readonly Reference[];
  created: string;
  resourceType: string;
  conflict?: Conflict;
  /** What else a create of this family keeps up (an issue's project counter). */
  afterInsert?: (ctx: OperationContext, row: CollectionRows[Name]) => Promise<void>;
}

/** A family stored as a collection: its records are the rows as the API shows them. */
export function collectionFamily<Name extends CollectionName>(
  options: CollectionFamilyOptions<Name>,
): TransferFamily {
  const { collection } = options;
  return {
    family: collection,
    table: collection,
    async toRecord(row, scope) {
      const stored = row as CollectionRows[Name];
      return stored.workspaceId === scope.workspaceId ? present(stored) : null;
    },
    schema: options.schema,
    refused(record) {
      const parsed = options.createSchema.safeParse(options.createInput?.(record) ?? record);
      if (parsed.success) return [];
      return parsed.error.issues.map((issue) => ({ path: issue.path.map(String), message: issue.message }));
    },
    references: options.references,
    async exists(ctx, record) {
      return this.has(ctx, String(record.id));
    },
    async has(ctx, id) {
      return (await ctx.tx.collections[collection].get(ctx.tenant.workspaceId, id)) !== null;
    },
    async conflicts(ctx, record) {
      const found = [await idTakenElsewhere(ctx, collection, String(record.id))];
      if (options.conflict) found.push(await options.conflict(ctx, record));
      return found.filter((problem) => problem !== null);
    },
    async create(ctx, record) {
      const row = { id: record.id, workspaceId: ctx.tenant.workspaceId, ...record } as CollectionRows[Name];
      await insertAndAnnounce(ctx, collection, row, {
        type: options.created,
        resourceType: options.resourceType,
      });
      await options.afterInsert?.(ctx, row);
    },
  };
}

/** The other workspaces of the database, read once per transaction. */
const otherWorkspaces = new WeakMap<OperationContext['tx'], Promise<Workspace[]>>();

/**
 * A record whose id a record of another workspace holds cannot go in: ids are global. The check
 * asks each other workspace, as the storage looks records up by workspace and id.
 */
async function idTakenElsewhere(
  ctx: OperationContext,
  collection: CollectionName,
  id: string,
): Promise<ItemProblem | null> {
  let workspaces = otherWorkspaces.get(ctx.tx);
  if (!workspaces) {
    workspaces = ctx.tx.tenancy
      .listWorkspaces()
      .then((all) => all.filter((workspace) => workspace.id !== ctx.tenant.workspaceId));
    otherWorkspaces.set(ctx.tx, workspaces);
  }
  for (const workspace of await workspaces) {
    if ((await ctx.tx.collections[collection].get(workspace.id, id)) === null) continue;
    return {
      field: 'record.id',
      message: `${id} is the id of a record of another workspace (${workspace.slug}) of this database: ids are global, so this file can go into that workspace or into another database, not this workspace`,
    };
  }
  return null;
}

/** A member as the file holds it: the membership and its user's email (never a password). */
export const memberRecordSchema = z.strictObject({
  userId: idOf('usr'),
  email: memberEmail,
  role: z.enum(roles),
  createdAt: timestampOut,
  updatedAt: timestampOut,
  version: z.number().int().min(1),
});

/**
 * Members, by email: the importer finds the user by email, or creates it (without a password)
 * under the exported id; references to the exported id then name that user.
 */
const members: TransferFamily = {
  family: 'members',
  table: 'memberships',
  async toRecord(row, scope) {
    const membership = row as DumpRows['memberships'];
    if (membership.workspaceId !== scope.workspaceId) return null;
    const user = await scope.tx.tenancy.getUser(membership.userId);
    if (!user) return null;
    const { userId, role, createdAt, updatedAt, version } = membership;
    return { userId, email: user.email, role, createdAt, updatedAt, version };
  },
  schema: memberRecordSchema,
  references: [],
  async exists(ctx, record) {
    const user = await ctx.tx.tenancy.getUserByEmail(String(record.email));
    return user !== null && (await ctx.tx.tenancy.getMembership(ctx.tenant.workspaceId, user.id)) !== null;
  },
  async has(ctx, id) {
    return (await ctx.tx.tenancy.getMembership(ctx.tenant.workspaceId, id)) !== null;
  },
  async create(ctx, record) {
    const member = memberRecordSchema.parse(record);
    let user = await ctx.tx.tenancy.getUserByEmail(member.email);
    if (!user) {
      user = {
        id: member.userId,
        email: member.email,
        passwordHash: null,
        createdAt: member.createdAt,
        lastSignInAt: null,
      };
      await ctx.tx.tenancy.insertUser(user);
    }
    const { role, createdAt, updatedAt, version } = member;
    await ctx.tx.tenancy.putMembership({
      workspaceId: ctx.tenant.workspaceId,
      userId: user.id,
      role,
      createdAt,
      updatedAt,
      version,
    });
    const view = {
      id: user.id,
      userId: user.id,
      email: user.email,
      role,
      createdAt,
      updatedAt,
      version,
      lastActiveAt: null,
      tokenCount: 0,
    };
    await ctx.emit({
      type: memberEvents.created,
      resource: { type: 'member', id: user.id },
      data: { object: view },
    });
  },
};

/** Keeps the project's issue counter at or above the issue's number, so later creates follow it. */
async function keepIssueCounter(ctx: OperationContext, issue: CollectionRows['issues']): Promise<void> {
  const name = `issues:${issue.projectId}`;
  const next = await ctx.tx.counters.next(name);
  await ctx.tx.counters.set(name, Math.max(next - 1, issue.number));
}

/** A project whose key another project of the workspace holds cannot go in as it is. */
async function projectKeyTaken(ctx: OperationContext, record: Record<string, unknown>) {
  const other = await ctx.tx.collections.projects.findOne(ctx.tenant.workspaceId, {
    key: String(record.key),
  });
  return other && other.id !== record.id
    ? {
        field: 'key',
        message: `the key ${String(record.key)} is used by another project (${other.id}) of the workspace`,
      }
    : null;
}

/** An issue whose number another issue of its project holds cannot go in as it is. */
async function issueNumberTaken(ctx: OperationContext, record: Record<string, unknown>) {
  const other = await ctx.tx.collections.issues.findOne(ctx.tenant.workspaceId, {
    projectId: String(record.projectId),
    number: Number(record.number),
  });
  return other && other.id !== record.id
    ? { field: 'number', message: `${String(record.key)} is another issue (${other.id}) of the workspace` }
    : null;
}

/**
 * Every family an export writes and an import reads, in the order they are written: a record's
 * references come before it. A family added to the tracker is added here (and to DumpRows, for
 * `copy`). Comments and issue relations go after what they name; they are stored as the file
 * has them, and the counts they keep on the rows they hang from (commentCount; blockedBy,
 * subIssues, parentId) come with those rows' own records, so they are not counted again.
 */
export const transferFamilies: readonly TransferFamily[] = [
  members,
  collectionFamily({
    collection: 'projects',
    schema: projectSchema,
    createSchema: projectCreateSchema,
    references: [],
    created: projectEvents.created,
    resourceType: 'project',
    conflict: projectKeyTaken,
  }),
  collectionFamily({
    collection: 'outcomes',
    schema: outcomeSchema,
    createSchema: outcomeCreateSchema,
    references: [
      { field: 'projectId', family: 'projects' },
      { field: 'ownerId', family: 'members' },
    ],
    created: outcomeEvents.created,
    resourceType: 'outcome',
  }),
  collectionFamily({
    collection: 'context',
    schema: contextItemSchema,
    createSchema: contextCreateSchema,
    references: [{ field: 'outcomeId', family: 'outcomes' }],
    created: contextEvents.created,
    resourceType: 'context',
  }),
  collectionFamily({
    collection: 'decisions',
    schema: decisionSchema,
    createSchema: decisionCreateSchema,
    // supersededBy may name a decision later in the file: it is not checked.
    references: [
      { field: 'projectId', family: 'projects' },
      { field: 'outcomeId', family: 'outcomes' },
    ],
    created: decisionEvents.created,
    resourceType: 'decision',
  }),
  collectionFamily({
    collection: 'issues',
    schema: issueSchema,
    createSchema: issueCreateSchema,
    references: [
      { field: 'projectId', family: 'projects' },
      { field: 'outcomeId', family: 'outcomes' },
      { field: 'assigneeId', family: 'members' },
    ],
    created: issueEvents.created,
    resourceType: 'issue',
    conflict: issueNumberTaken,
    afterInsert: keepIssueCounter,
  }),
  collectionFamily({
    collection: 'timeEntries',
    schema: timeEntrySchema,
    createSchema: timeEntryCreateSchema,
    references: [
      { field: 'outcomeId', family: 'outcomes' },
      { field: 'issueId', family: 'issues' },
      { field: 'userId', family: 'members' },
    ],
    created: timeEntryEvents.created,
    resourceType: 'time_entry',
  }),
  collectionFamily({
    collection: 'comments',
    schema: commentSchema,
    createSchema: commentCreateSchema,
    // A comment's body names its one target; the record holds null for the other two.
    createInput: (record) => Object.fromEntries(Object.entries(record).filter(([, value]) => value !== null)),
    references: [
      { field: 'issueId', family: 'issues' },
      { field: 'outcomeId', family: 'outcomes' },
      { field: 'decisionId', family: 'decisions' },
      { field: 'authorId', family: 'members' },
    ],
    created: commentEvents.created,
    resourceType: 'comment',
  }),
  collectionFamily({
    collection: 'issueRelations',
    schema: storedRelationSchema,
    // The API's body names the type and the other issue; the rules it is refused by (itself,
    // the same relation twice, a cycle, a second parent) need the relation graph, which the importer
    // reads with its file's.
    createSchema: relationCreateSchema,
    createInput: (record) => ({ type: record.type, issueId: record.targetId }),
    references: [
      { field: 'sourceId', family: 'issues' },
      { field: 'targetId', family: 'issues' },
    ],
    created: relationEvents.created,
    resourceType: 'issue_relation',
  }),
];

/** The family of this name, or undefined. */
export const transferFamily = (name: string): TransferFamily | undefined =>
  transferFamilies.find((f) => f.family === name);
