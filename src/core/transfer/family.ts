import type { z } from 'zod';
import { insertAndAnnounce } from '../families/shared/lifecycle.js';
import { present } from '../families/shared/operations.js';
import type { Workspace } from '../model.js';
import type { OperationContext } from '../pipeline/context.js';
import type { CollectionName, CollectionRows, DumpTable } from '../port/index.js';

/** What exporting a row may look up: the transaction it reads in and the workspace it exports. */
export interface ExportScope {
  tx: OperationContext['tx'];
  workspaceId: string;
}

/** A problem of one record, found before anything is written: its field (or none) and why. */
export interface ItemProblem {
  field: string | null;
  message: string;
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

export interface CollectionFamilyOptions<Name extends CollectionName> {
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
  /**
   * Fields added to the family's records since the first version of the format, each with the
   * value a record of an older export that lacks it gets (an issue's `external`: null). The
   * schema must let them be missing.
   */
  added?: Readonly<Record<string, unknown>>;
  /** What else a create of this family keeps up (an issue's project counter). */
  afterInsert?: (ctx: OperationContext, row: CollectionRows[Name]) => Promise<void>;
}

/** A family stored as a collection: its records are the rows as the API shows them. */
export function collectionTransfer<Name extends CollectionName>(
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
      // A field the record lacks (an older export's) goes last, as a migration adds it to stored rows.
      const missing = Object.entries(options.added ?? {}).filter(([field]) => !(field in record));
      const row = {
        id: record.id,
        workspaceId: ctx.tenant.workspaceId,
        ...record,
        ...Object.fromEntries(missing),
      } as CollectionRows[Name];
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
