import { z } from 'zod';
import { viewResources } from '../../model.js';
import { pageQuery } from '../../pipeline/pagination.js';
import { maxQueryLength } from '../../query/index.js';
import { decisionSchema } from '../decisions/schema.js';
import { issueSchema } from '../issues/schema.js';
import { outcomeSchema } from '../outcomes/schema.js';
import { enumList, filterLists } from '../shared/filters.js';
import {
  idOf,
  listQueryBase,
  nonBlank,
  pageOf,
  serviceOwnedFields,
  versionedFields,
  withoutReadOnly,
} from '../shared/schema.js';
import { sortQuery } from '../shared/sort.js';
import { standardSchemas } from '../shared/standard-schemas.js';

const fields = {
  name: nonBlank().max(200),
  resource: z.enum(viewResources).describe('The list the view runs: `GET /<resource>?query=<query>`'),
  // As long as the lists' `query=` takes: a view runs nothing a list would refuse.
  query: z
    .string()
    .max(maxQueryLength)
    .describe(
      'The query language, as `query=` of the resource’s list takes it (`status:open label:bug`); checked when saved',
    ),
};

/** Fields the service sets: ignored in bodies. */
const readOnly = [...serviceOwnedFields, 'createdBy'];

export const viewCreateSchema = withoutReadOnly(
  readOnly,
  z.strictObject({ name: fields.name, resource: fields.resource, query: fields.query }),
);
export type ViewCreate = z.output<typeof viewCreateSchema>;

export const viewPatchSchema = withoutReadOnly(
  readOnly,
  z.strictObject({
    name: fields.name.optional(),
    resource: fields.resource.optional(),
    query: fields.query.optional(),
  }),
);
export type ViewPatch = z.output<typeof viewPatchSchema>;

export const viewListQuerySchema = z.strictObject({
  ...listQueryBase,
  ...filterLists({ resource: enumList(viewResources) }),
  sort: sortQuery(['createdAt', 'updatedAt'], '-createdAt'),
});
export type ViewListQuery = z.output<typeof viewListQuerySchema>;

/** What running a view takes: a page of its resource's list, as that list pages. */
export const viewItemsQuerySchema = z.strictObject({ ...pageQuery });
export type ViewItemsQuery = z.output<typeof viewItemsQuerySchema>;

/** A saved view as the API answers it. */
export const viewSchema = z.strictObject({
  ...versionedFields('view'),
  name: z.string(),
  resource: z.enum(viewResources),
  query: z.string(),
  createdBy: idOf('usr')
    .nullable()
    .describe("The token's user who saved it; null when the operator did without a token"),
});

/** A page of what a view lists: the page its resource's list answers for its query. */
export const viewItemsPageSchema = pageOf(z.union([issueSchema, outcomeSchema, decisionSchema]));

/** The family's standard schemas, read by its routes and by its OpenAPI components. */
export const viewSchemas = standardSchemas({
  component: 'SavedView',
  item: viewSchema,
  listQuery: viewListQuerySchema,
  create: viewCreateSchema,
  patch: viewPatchSchema,
});
