import type { z } from 'zod';
import type { OperationContext } from '../../pipeline/context.js';
import type { Route } from '../../pipeline/route.js';
import type { CollectionName } from '../../port/index.js';
import { type FamilyOperations, familyRoutes } from './routes.js';
import type { StandardSchemas } from './standard-schemas.js';

type Versioned = { version: number };

/**
 * A family's typed operations by what each does: its `api.ts`, imported whole. An operation it
 * does not offer has no route; its `get` is not served, the stored `get` of `StandardRoutesOptions` is.
 */
export interface StandardOperations<LQ extends z.ZodType, CB extends z.ZodType, PB extends z.ZodType> {
  list(ctx: OperationContext, query: z.output<LQ>): Promise<unknown>;
  create(ctx: OperationContext, body: z.output<CB>): Promise<Versioned>;
  update?(ctx: OperationContext, id: string, body: z.output<PB>): Promise<Versioned>;
  remove?(ctx: OperationContext, id: string): Promise<void>;
}

/** What a family says of its standard routes beyond their schemas and operations. */
export type StandardRoutesOptions = Omit<
  FamilyOperations<z.ZodType, z.ZodType, z.ZodType>,
  'responses' | 'list' | 'create' | 'update' | 'remove' | 'get'
> & {
  /** One item: `storedItem`, the row sent as stored, for the families whose view is that row. */
  get: NonNullable<FamilyOperations<z.ZodType, z.ZodType, z.ZodType>['get']>;
  /** The row the create reads first, named by a field of its body (`Route.readsRowOfBody`). */
  readsRowOfBody?: { collection: CollectionName; field: string };
};

/**
 * The list, create, get, update and delete routes of a family, from its standard schemas and its
 * typed operations: a family writes out only what it adds (paths, words, examples, extra routes).
 */
export function standardRoutes<LQ extends z.ZodType, CB extends z.ZodType, PB extends z.ZodType>(
  schemas: StandardSchemas<LQ, CB, PB>,
  operations: StandardOperations<LQ, CB, PB>,
  options: StandardRoutesOptions,
): Route[] {
  const { readsRowOfBody, ...reference } = options;
  const { update, remove } = operations;
  if (update && !schemas.patch) throw new Error(`${options.path}: an update needs a patch schema`);
  return familyRoutes<LQ, CB, PB>({
    ...reference,
    responses: { item: schemas.item, page: schemas.page },
    list: { query: schemas.listQuery, run: operations.list },
    create: {
      body: schemas.create,
      run: operations.create,
      ...(readsRowOfBody ? { readsRowOfBody } : {}),
    },
    ...(update && schemas.patch ? { update: { body: schemas.patch, run: update } } : {}),
    ...(remove ? { remove } : {}),
  });
}
