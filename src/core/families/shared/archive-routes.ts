import type { z } from 'zod';
import type { OperationContext } from '../../pipeline/context.js';
import { resource } from '../../pipeline/reply.js';
import { defineRoute, type Route } from '../../pipeline/route.js';

interface ArchiveFamily {
  /** The collection path, e.g. `/issues`. */
  path: string;
  noun: 'issue' | 'outcome';
  /** `Issue` → operationIds `archiveIssue`, `unarchiveIssue`. */
  name: string;
  item: z.ZodType;
  /** The item after archiving, and after bringing it back, for the reference. */
  examples: { archived: unknown; unarchived: unknown };
  archive(ctx: OperationContext, id: string): Promise<{ version: number }>;
  unarchive(ctx: OperationContext, id: string): Promise<{ version: number }>;
}

/** `POST <path>/{id}/archive` and `/unarchive`: changes of the item's version, so If-Match is required. */
export function archiveRoutes(family: ArchiveFamily): Route[] {
  const { path, noun, name, item } = family;
  const id = (params: Record<string, string>) => params.id ?? '';
  return [
    defineRoute({
      method: 'POST',
      path: `${path}/:id/archive`,
      access: 'write',
      kind: 'update',
      operationId: `archive${name}`,
      summary: `Archive ${noun === 'issue' ? 'an issue' : 'an outcome'}`,
      description: `Stamps \`archivedAt\`: lists leave the ${noun} out unless \`archived=true\` (with the others) or \`archived=only\`; it can still be read, changed and brought back. Needs If-Match with the current ETag (428 without, 409 when stale). Archiving an archived ${noun} changes nothing.`,
      examples: { response: family.examples.archived },
      response: item,
      handle: async (ctx, { params }) => resource(await family.archive(ctx, id(params))),
    }),
    defineRoute({
      method: 'POST',
      path: `${path}/:id/unarchive`,
      access: 'write',
      kind: 'update',
      operationId: `unarchive${name}`,
      summary: `Bring back an archived ${noun}`,
      description: `Clears \`archivedAt\`: the ${noun} is listed again. Needs If-Match with the current ETag (428 without, 409 when stale). Unarchiving ${noun === 'issue' ? 'an issue' : 'an outcome'} that is not archived changes nothing.`,
      examples: { response: family.examples.unarchived },
      response: item,
      handle: async (ctx, { params }) => resource(await family.unarchive(ctx, id(params))),
    }),
  ];
}
