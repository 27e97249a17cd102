// The files of a new family's folder under src/core/families/, written from its names. The
// family is a small working one (a name, a status it is filtered on, a description) that its
// author then reshapes: every other part of the tracker takes what it needs from its declaration.
import { filters, sorts } from './shape.mjs';

/** `declaration.ts`: what the rest of the tracker derives, said once. */
const declaration = (n) => `/**
 * What the rest of the tracker derives for the ${n.plural} family, said once: the routes, the
 * collection and its SQL table, the events and the id prefix are all named from here. A
 * collection's table is a tenant table (PostgreSQL distributes it by account, distribution.ts),
 * with a column and an index for each filter field (the migrations).
 */
export const ${n.value}Declaration = {
  noun: '${n.noun}',
  plural: '${n.plural}',
  path: '/${n.kebab}',
  collection: '${n.collection}',
  table: '${n.table}',
  idPrefix: '${n.idPrefix}',
  /** The signals' resource type and the events' prefix (\`${n.resourceType}.created\`). */
  resourceType: '${n.resourceType}',
  /** The fields a list narrows by (\`?status=open\`). */
  filters: ${JSON.stringify(filters).replaceAll('"', "'")},
  /** The fields a list sorts by besides \`createdAt\`. */
  sorts: ${JSON.stringify(sorts).replaceAll('"', "'")},
} as const;
`;

/** `record.ts`: the stored record, and its place among the collections and the id prefixes. */
const record = (n) => `import type { VersionedRecord } from '../../model.js';

/** Where a ${n.noun} stands. */
export const ${n.value}Statuses = ['open', 'closed'] as const;
export type ${n.Type}Status = (typeof ${n.value}Statuses)[number];

/** A ${n.noun} as stored: what the API answers, and its workspace. */
export interface ${n.Type} extends VersionedRecord {
  name: string;
  status: ${n.Type}Status;
  description: string | null;
}

// The family's row among the collections and its id prefix, declared by merging into the port's
// and the runtime's interfaces rather than by a line there: a family brings its types with it.
declare module '../../port/collection.js' {
  interface CollectionRows {
    ${n.collection}: ${n.Type};
  }
}
declare module '../../runtime.js' {
  interface IdPrefixes {
    ${n.idPrefix}: true;
  }
}
`;

/** `events.ts`. */
const events = (n) => `/** The signal and webhook event types of the ${n.plural} family (CONTRACT §6). */
export const ${n.value}Events = {
  created: '${n.resourceType}.created',
  updated: '${n.resourceType}.updated',
  deleted: '${n.resourceType}.deleted',
} as const;
`;

/** `schema.ts`: bodies, list parameters and the answer. */
const schema = (n) => `import { z } from 'zod';
import { enumList, filterLists } from '../shared/filters.js';
import {
  listQueryBase,
  nonBlank,
  serviceOwnedFields,
  versionedFields,
  withoutReadOnly,
} from '../shared/schema.js';
import { sortQuery } from '../shared/sort.js';
import { standardSchemas } from '../shared/standard-schemas.js';
import { ${n.value}Declaration as declared } from './declaration.js';
import { ${n.value}Statuses } from './record.js';

const fields = {
  name: nonBlank().max(200),
  status: z.enum(${n.value}Statuses).describe('Where the ${n.noun} stands'),
  description: z.string().max(10_000).nullable(),
};

export const ${n.value}CreateSchema = withoutReadOnly(
  serviceOwnedFields,
  z.strictObject({
    name: fields.name,
    status: fields.status.default('open'),
    description: fields.description.default(null),
  }),
);
export type ${n.Type}Create = z.output<typeof ${n.value}CreateSchema>;

export const ${n.value}PatchSchema = withoutReadOnly(
  serviceOwnedFields,
  z.strictObject({
    name: fields.name.optional(),
    status: fields.status.optional(),
    description: fields.description.optional(),
  }),
);
export type ${n.Type}Patch = z.output<typeof ${n.value}PatchSchema>;

/** Each filter of the declaration, as its query parameter: typed by it, so neither can drift. */
const filters = {
  status: enumList(${n.value}Statuses),
} satisfies Record<(typeof declared.filters)[number], unknown>;

export const ${n.value}ListQuerySchema = z.strictObject({
  ...listQueryBase,
  ...filterLists(filters),
  sort: sortQuery(['createdAt', ...declared.sorts], '-createdAt'),
});
export type ${n.Type}ListQuery = z.output<typeof ${n.value}ListQuerySchema>;

/** A ${n.noun} as the API answers it. */
export const ${n.value}Schema = z.strictObject({
  ...versionedFields(declared.idPrefix),
  name: z.string(),
  status: z.enum(${n.value}Statuses),
  description: z.string().nullable(),
});

/** The family's standard schemas, read by its routes and by its OpenAPI components. */
export const ${n.value}Schemas = standardSchemas({
  component: '${n.Type}',
  item: ${n.value}Schema,
  listQuery: ${n.value}ListQuerySchema,
  create: ${n.value}CreateSchema,
  patch: ${n.value}PatchSchema,
});
`;

/** `operations.ts`. */
const operations = (n) => `import type { OperationContext } from '../../pipeline/context.js';
import type { Page } from '../../pipeline/pagination.js';
import { splitFilters } from '../shared/filters.js';
import { deleteAndAnnounce, insertAndAnnounce } from '../shared/lifecycle.js';
import { getForWrite, getOr404, listPage, present } from '../shared/operations.js';
import { applyChanges } from '../shared/update.js';
import { ${n.value}Declaration as declared } from './declaration.js';
import { ${n.value}Events } from './events.js';
import type { ${n.Type} } from './record.js';
import type { ${n.Type}Create, ${n.Type}ListQuery, ${n.Type}Patch } from './schema.js';

export type ${n.Type}View = ReturnType<typeof present<${n.Type}>>;
export const present${n.Type} = (row: ${n.Type}): ${n.Type}View => present(row);

const announced = { resourceType: declared.resourceType, present: present${n.Type} };

export async function create${n.Type}(ctx: OperationContext, input: ${n.Type}Create): Promise<${n.Type}View> {
  const row: ${n.Type} = {
    id: ctx.ids.id(declared.idPrefix),
    workspaceId: ctx.tenant.workspaceId,
    name: input.name,
    status: input.status,
    description: input.description,
    createdAt: ctx.now,
    updatedAt: ctx.now,
    version: 1,
  };
  return insertAndAnnounce(ctx, declared.collection, row, {
    type: ${n.value}Events.created,
    resourceType: declared.resourceType,
  });
}

export async function get${n.Type}(ctx: OperationContext, id: string): Promise<${n.Type}View> {
  return present${n.Type}(await getOr404(ctx, declared.collection, id, declared.noun));
}

export async function list${n.Types}(ctx: OperationContext, query: ${n.Type}ListQuery): Promise<Page<${n.Type}View>> {
  const { where, params } = splitFilters(query, declared.filters);
  return listPage(ctx, declared.collection, params, where, present${n.Type});
}

export async function update${n.Type}(ctx: OperationContext, id: string, patch: ${n.Type}Patch): Promise<${n.Type}View> {
  const current = await getForWrite(ctx, declared.collection, id, declared.noun);
  const { row } = await applyChanges(ctx, declared.collection, current, patch as Partial<${n.Type}>, {
    type: ${n.value}Events.updated,
    ...announced,
  });
  return present${n.Type}(row);
}

export async function delete${n.Type}(ctx: OperationContext, id: string): Promise<void> {
  const row = await getForWrite(ctx, declared.collection, id, declared.noun);
  await deleteAndAnnounce(ctx, declared.collection, row, { type: ${n.value}Events.deleted, ...announced });
}
`;

/** `examples.ts`: what the API reference shows (a test validates each against its schema). */
const examples = (n) => `/** The record every answer below shows, at its first version. */
const ${n.value} = {
  id: '${n.idPrefix}_7hQm2VxR4nKs9TbLpW3c',
  name: 'Public beta',
  status: 'open',
  description: 'Everything the first outside users need',
  createdAt: '2026-11-22T10:40:40.000Z',
  updatedAt: '2026-11-22T10:40:40.000Z',
  version: 1,
};

/** Requests and answers of the ${n.plural} routes, shown in the API reference. */
export const ${n.value}Examples = {
  create: { name: ${n.value}.name, description: ${n.value}.description },
  created: ${n.value},
  item: ${n.value},
  update: { status: 'closed' },
  updated: { ...${n.value}, status: 'closed', updatedAt: '2026-11-22T10:41:41.000Z', version: 2 },
};
`;

/** `milestone` → `a milestone`, `outcome` → `an outcome`. */
const withArticle = (noun) => `${/^[aeiou]/.test(noun) ? 'an' : 'a'} ${noun}`;

/** `routes.ts`. */
const routes = (n) => `import { storedItem } from '../shared/routes.js';
import { standardRoutes } from '../shared/standard-routes.js';
import * as operations from './api.js';
import { ${n.value}Declaration as declared } from './declaration.js';
import { ${n.value}Examples } from './examples.js';
import { ${n.value}Schemas } from './schema.js';

export const ${n.value}Routes = standardRoutes(${n.value}Schemas, operations, {
  path: declared.path,
  noun: declared.noun,
  plural: declared.plural,
  get: storedItem(declared.collection, declared.noun),
  operationIds: {
    list: 'list${n.Types}',
    create: 'create${n.Type}',
    get: 'get${n.Type}',
    update: 'update${n.Type}',
    remove: 'delete${n.Type}',
  },
  about: { list: 'Narrow by \`status\`.' },
  // What the MCP server's tools say of each operation to an agent: no HTTP in them.
  agent: {
    list: "Lists the workspace's ${n.plural}, newest first, narrowed by \`status\`. Answers \`{ data, nextCursor, total }\`: pass \`nextCursor\` as \`cursor\` for the next page.",
    create: 'Creates ${withArticle(n.noun)} from its \`name\`, with an optional \`status\` and \`description\`. Answers the ${n.noun}.',
    get: 'Reads one ${n.noun} by id. Answers it with its \`version\`.',
    update: 'Changes the fields sent of ${withArticle(n.noun)} and keeps the others. Answers the ${n.noun} at its new \`version\`.',
    remove: 'Deletes ${withArticle(n.noun)}. Answers nothing on success.',
  },
  examples: ${n.value}Examples,
});
`;

/** \`api.ts\`: the typed operations, for embedding without HTTP. */
const api = (n) => `/** The ${n.plural} family as typed operations, for embedding without HTTP. */
export {
  create${n.Type} as create,
  delete${n.Type} as remove,
  get${n.Type} as get,
  list${n.Types} as list,
  type ${n.Type}View,
  update${n.Type} as update,
} from './operations.js';
export type { ${n.Type}Create, ${n.Type}ListQuery, ${n.Type}Patch } from './schema.js';
`;

/** `family.ts`: the one value the family list takes. */
const family = (n) => `import { collectionTransfer } from '../../transfer/family.js';
import { defineFamily } from '../family.js';
import { standardComponents } from '../shared/standard-schemas.js';
import { ${n.value}Declaration as declared } from './declaration.js';
import { ${n.value}Events } from './events.js';
import { ${n.value}Routes } from './routes.js';
import { ${n.value}Schemas } from './schema.js';

export const ${n.collection}Family = defineFamily({
  name: '${n.kebab}',
  routes: ${n.value}Routes,
  about: 'The workspace’s ${n.plural}.',
  events: ${n.value}Events,
  eventObject: { prefix: declared.resourceType, schema: ${n.value}Schemas.item },
  schemas: standardComponents(${n.value}Schemas),
  collection: {
    name: declared.collection,
    table: declared.table,
    definition: {
      filters: declared.filters,
      search: [],
      ranges: [],
      sums: [],
      notNull: [],
      sorts: declared.sorts,
    },
  },
  transfer: collectionTransfer({
    collection: declared.collection,
    schema: ${n.value}Schemas.item,
    createSchema: ${n.value}Schemas.create,
    references: [],
    created: ${n.value}Events.created,
    resourceType: declared.resourceType,
  }),
});
`;

/** `docs.md`: the family's section of docs/api.md, to move there once its shape settles. */
const docs = (n) => `## ${n.Types.replace(/([a-z])([A-Z])/g, '$1 $2')}

A workspace's ${n.plural}: each has a \`name\`, a \`status\` (\`open\` or \`closed\`, \`open\` when
created) and an optional \`description\`. \`GET /api/v1/${n.kebab}\` lists them newest first, narrowed
by \`status\` (\`?status=open\`) and sorted by \`sort=updatedAt\`; \`POST\` creates one (with an
Idempotency-Key), and \`GET\`, \`PATCH\` (with If-Match) and \`DELETE\` \`/api/v1/${n.kebab}/{id}\` read,
change and delete one. Each change is announced as \`${n.resourceType}.created\`,
\`${n.resourceType}.updated\` or \`${n.resourceType}.deleted\`.
`;

/** Every file of the family's folder, by name. */
export const coreFiles = (n) => ({
  'declaration.ts': declaration(n),
  'record.ts': record(n),
  'events.ts': events(n),
  'schema.ts': schema(n),
  'operations.ts': operations(n),
  'examples.ts': examples(n),
  'routes.ts': routes(n),
  'api.ts': api(n),
  'family.ts': family(n),
  'docs.md': docs(n),
});
