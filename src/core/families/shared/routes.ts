import type { z } from 'zod';
import type { Access } from '../../pipeline/auth.js';
import type { OperationContext } from '../../pipeline/context.js';
import { noContent, ok, resource, storedResource } from '../../pipeline/reply.js';
import { defineRoute, type Route } from '../../pipeline/route.js';
import type { CollectionName, StoredJson } from '../../port/index.js';
import { type FamilyExamples, pageOf } from './examples.js';
import { getStoredOr404 } from './operations.js';

type Versioned = { version: number };

type StandardOperation = 'list' | 'create' | 'get' | 'update' | 'remove';

/** The operations a family offers; each one present becomes its standard route. */
export interface FamilyOperations<LQ extends z.ZodType, CB extends z.ZodType, PB extends z.ZodType> {
  /** The collection path, e.g. `/outcomes`; single items live at `<path>/:id`. */
  path: string;
  /** The resource's name for summaries, e.g. `outcome`. */
  noun: string;
  /** Its plural, when not `noun` + s (`time entries`). */
  plural?: string;
  /** What a single item answers, and what a list answers (the read envelope). */
  responses: { item: z.ZodType; page: z.ZodType; created?: z.ZodType };
  /** Who may write (default `write`): webhooks need `admin_write`. */
  writeAccess?: Access;
  readAccess?: Access;
  list?: { query: LQ; run(ctx: OperationContext, query: z.output<LQ>): Promise<unknown> };
  create?: {
    body: CB;
    run(ctx: OperationContext, body: z.output<CB>): Promise<Versioned>;
    /** What a replay answers instead of the created resource (one that shows a secret once). */
    replay?: (created: Versioned) => unknown;
    /** The row the create reads first, named by a field of its body (`Route.readsRowOfBody`). */
    readsRowOfBody?: { collection: CollectionName; field: string };
  };
  /**
   * One item: its view, or, for a family whose view is the stored row without its workspace,
   * `stored`: the row's JSON as stored, sent without being parsed and serialized again.
   */
  get?:
    | ((ctx: OperationContext, id: string) => Promise<Versioned>)
    | {
        stored: (ctx: OperationContext, id: string) => Promise<StoredJson>;
        /** The collection whose row `stored` reads first (`Route.readsRow`). */
        from: CollectionName;
      };
  update?: { body: PB; run(ctx: OperationContext, id: string, body: z.output<PB>): Promise<Versioned> };
  remove?: (ctx: OperationContext, id: string) => Promise<void>;
  /** The OpenAPI operationId of each operation offered, written out (`listOutcomes`). */
  operationIds: Partial<Record<StandardOperation, string>>;
  /** A sentence or two a family adds to an operation's description (its filters, its rules). */
  about?: Partial<Record<StandardOperation, string>>;
  /** What each operation does for an AI agent calling it as an MCP tool (Route.agent). */
  agent?: Partial<Record<StandardOperation, string>>;
  examples: FamilyExamples;
}

/** `outcome` → `an outcome`. */
const withArticle = (noun: string) => `${/^[aeiou]/.test(noun) ? 'an' : 'a'} ${noun}`;

/** What each standard operation does, as the pipeline runs it, for the reference. */
function standardDescriptions(noun: string, plural: string): Record<StandardOperation, string> {
  return {
    list: `One page of the workspace's ${plural}, narrowed by the query parameters. Follow \`nextCursor\` (null on the last page) for the next page; \`total\` counts every match.`,
    create: `Creates ${withArticle(noun)} and answers it with its ETag and Location. Needs an Idempotency-Key: the same key with the same body within 24 hours answers the stored result again (200, Idempotent-Replayed: true).`,
    get: `One ${noun} with its ETag; If-None-Match naming that ETag answers 304 while it is current.`,
    update: `Changes the fields sent and keeps the others. Needs If-Match with the ETag of the version changed: a stale one is answered 409 version_conflict, none 428.`,
    remove: `Deletes the ${noun}. With If-Match, only at that version (409 version_conflict otherwise).`,
  };
}

const idOf = (params: Record<string, string>) => params.id ?? '';

/**
 * The operationIds every family gives its standard operations (`listOutcomes`, `createOutcome`,
 * `getOutcome`, `updateOutcome`, `deleteOutcome`), from its record's name and its plural: the
 * routes take those of the operations the family offers.
 */
export const standardOperationIds = (one: string, many: string): Record<StandardOperation, string> => ({
  list: `list${many}`,
  create: `create${one}`,
  get: `get${one}`,
  update: `update${one}`,
  remove: `delete${one}`,
});

/** The `get` of a family whose view is its stored row without its workspace (see `FamilyOperations.get`). */
export const storedItem = (collection: CollectionName, noun: string) => ({
  stored: (ctx: OperationContext, id: string) => getStoredOr404(ctx, collection, id, noun),
  from: collection,
});

/** The list, create, get, update and delete routes of a family, as CONTRACT §3 shapes them. */
export function familyRoutes<LQ extends z.ZodType, CB extends z.ZodType, PB extends z.ZodType>(
  family: FamilyOperations<LQ, CB, PB>,
): Route[] {
  const { path, noun, list, create, get, update, remove, responses, examples } = family;
  const plural = family.plural ?? `${noun}s`;
  const descriptions = standardDescriptions(noun, plural);
  const reference = (operation: StandardOperation) => {
    const operationId = family.operationIds[operation];
    if (!operationId) throw new Error(`${path}: ${operation} has no operationId`);
    const about = family.about?.[operation];
    const agent = family.agent?.[operation];
    return {
      operationId,
      description: about ? `${descriptions[operation]} ${about}` : descriptions[operation],
      ...(agent ? { agent } : {}),
    };
  };
  const readAccess = family.readAccess ?? 'read';
  const writeAccess = family.writeAccess ?? 'write';
  const item = `${path}/:id`;
  const routes: Route[] = [];
  if (list) {
    routes.push(
      defineRoute({
        method: 'GET',
        path,
        access: readAccess,
        kind: 'read',
        summary: `List ${plural}`,
        ...reference('list'),
        examples: { response: examples.page ?? pageOf(examples.item) },
        query: list.query,
        response: responses.page,
        handle: async (ctx, { query }) => ok(await list.run(ctx, query)),
      }),
    );
  }
  if (create) {
    routes.push(
      defineRoute({
        method: 'POST',
        path,
        access: writeAccess,
        kind: 'create',
        summary: `Create ${withArticle(noun)}`,
        ...reference('create'),
        examples: {
          request: examples.create,
          response: examples.created,
          ...(create.replay ? { replay: create.replay(examples.created as Versioned) } : {}),
        },
        body: create.body,
        response: responses.created ?? responses.item,
        ...(create.readsRowOfBody ? { readsRowOfBody: create.readsRowOfBody } : {}),
        handle: async (ctx, { body }) => {
          const created = await create.run(ctx, body);
          return {
            ...resource(created, 201),
            ...(create.replay ? { replayBody: create.replay(created) } : {}),
          };
        },
      }),
    );
  }
  if (get) {
    routes.push(
      defineRoute({
        method: 'GET',
        path: item,
        access: readAccess,
        kind: 'read',
        summary: `Get ${withArticle(noun)}`,
        ...reference('get'),
        examples: { response: examples.item },
        response: responses.item,
        ...(typeof get === 'function' ? {} : { readsRow: get.from }),
        handle: async (ctx, { params }) =>
          typeof get === 'function'
            ? resource(await get(ctx, idOf(params)))
            : storedResource(await get.stored(ctx, idOf(params))),
      }),
    );
  }
  if (update) {
    routes.push(
      defineRoute({
        method: 'PATCH',
        path: item,
        access: writeAccess,
        kind: 'update',
        summary: `Update ${withArticle(noun)}`,
        ...reference('update'),
        examples: { request: examples.update, response: examples.updated },
        body: update.body,
        response: responses.item,
        handle: async (ctx, { params, body }) => resource(await update.run(ctx, idOf(params), body)),
      }),
    );
  }
  if (remove) {
    routes.push(
      defineRoute({
        method: 'DELETE',
        path: item,
        access: writeAccess,
        kind: 'delete',
        summary: `Delete ${withArticle(noun)}`,
        ...reference('remove'),
        examples: {},
        handle: async (ctx, { params }) => {
          await remove(ctx, idOf(params));
          return noContent();
        },
      }),
    );
  }
  return routes;
}
