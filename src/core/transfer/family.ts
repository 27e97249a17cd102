import type { z } from 'zod';
import { insertAndAnnounce } from '../families/shared/lifecycle.js';
import { present } from '../families/shared/operations.js';
import type { OperationContext } from '../pipeline/context.js';
import type { CollectionName, CollectionRows, DumpTable } from '../port/index.js';

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
  /** Fields naming other records, checked before anything is written. */
  references: readonly Reference[];
  /** Whether the record was imported already (it exists in the workspace under its id). */
  exists(ctx: OperationContext, record: Record<string, unknown>): Promise<boolean>;
  /** Whether the workspace holds a record of this family with this id (a reference's target). */
  has(ctx: OperationContext, id: string): Promise<boolean>;
  /**
   * Why the record cannot go in although it is new (a key another record of the workspace holds),
   * as the field and a message, or null.
   */
  conflict?(
    ctx: OperationContext,
    record: Record<string, unknown>,
  ): Promise<{ field: string; message: string } | null>;
  /**
   * Writes the record into the workspace as the API's create does: stored and announced with its
   * `*.created` signal (and the webhook deliveries it causes) in the caller's transaction. Ids,
   * keys, numbers and timestamps are kept as the record has them.
   */
  create(ctx: OperationContext, record: Record<string, unknown>): Promise<void>;
}

interface CollectionFamilyOptions<Name extends CollectionName> {
  collection: Name;
  schema: z.ZodType<Record<string, unknown>>;
  references: readonly Reference[];
  created: string;
  resourceType: string;
  conflict?: TransferFamily['conflict'];
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
    references: options.references,
    async exists(ctx, record) {
      return this.has(ctx, String(record.id));
    },
    async has(ctx, id) {
      return (await ctx.tx.collections[collection].get(ctx.tenant.workspaceId, id)) !== null;
    },
    ...(options.conflict ? { conflict: options.conflict } : {}),
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
