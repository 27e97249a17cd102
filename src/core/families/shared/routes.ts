import type { z } from 'zod';
import type { Access } from '../../pipeline/auth.js';
import type { OperationContext } from '../../pipeline/context.js';
import { noContent, ok, resource } from '../../pipeline/reply.js';
import { defineRoute, type Route } from '../../pipeline/route.js';

type Versioned = { version: number };

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
  };
  get?: (ctx: OperationContext, id: string) => Promise<Versioned>;
  update?: { body: PB; run(ctx: OperationContext, id: string, body: z.output<PB>): Promise<Versioned> };
  remove?: (ctx: OperationContext, id: string) => Promise<void>;
}

const idOf = (params: Record<string, string>) => params.id ?? '';

/** The list, create, get, update and delete routes of a family, as CONTRACT §3 shapes them. */
export function familyRoutes<LQ extends z.ZodType, CB extends z.ZodType, PB extends z.ZodType>(
  family: FamilyOperations<LQ, CB, PB>,
): Route[] {
  const { path, noun, list, create, get, update, remove, responses } = family;
  const plural = family.plural ?? `${noun}s`;
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
        summary: `Create a ${noun}`,
        body: create.body,
        response: responses.created ?? responses.item,
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
        summary: `Get a ${noun}`,
        response: responses.item,
        handle: async (ctx, { params }) => resource(await get(ctx, idOf(params))),
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
        summary: `Update a ${noun}`,
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
        summary: `Delete a ${noun}`,
        handle: async (ctx, { params }) => {
          await remove(ctx, idOf(params));
          return noContent();
        },
      }),
    );
  }
  return routes;
}
