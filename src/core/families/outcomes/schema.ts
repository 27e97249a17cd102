import { z } from 'zod';
import { outcomeStatuses } from '../../model.js';
import { calendarDate } from '../shared/dates.js';
import { dueFilters } from '../shared/due-filters.js';
import { enumList, filterLists, idList } from '../shared/filters.js';
import { queryParameter } from '../shared/query.js';
import {
  archivedAtOut,
  archivedQuery,
  commentCountOut,
  dateOut,
  idOf,
  listQueryBase,
  nonBlank,
  searchText,
  serviceOwnedFields,
  timestampOut,
  versionedFields,
  withoutReadOnly,
} from '../shared/schema.js';
import { sortQuery } from '../shared/sort.js';
import { standardSchemas } from '../shared/standard-schemas.js';

const readOnly = [...serviceOwnedFields, 'shippedAt', 'commentCount', 'archivedAt'];

const title = nonBlank().max(500);
const description = z.string().max(50_000).nullable();

export const outcomeCreateSchema = withoutReadOnly(
  readOnly,
  z.strictObject({
    projectId: idOf('prj'),
    title,
    description: description.optional(),
    status: z.enum(outcomeStatuses).optional(),
    ownerId: idOf('usr').nullable().optional(),
    dueDate: calendarDate.nullable().optional(),
  }),
);
export type OutcomeCreate = z.output<typeof outcomeCreateSchema>;

// An outcome stays in its project: the issues, decisions and time logged against it are that project's.
export const outcomePatchSchema = withoutReadOnly(
  [...readOnly, 'projectId'],
  z.strictObject({
    title: title.optional(),
    description: description.optional(),
    status: z.enum(outcomeStatuses).optional(),
    ownerId: idOf('usr').nullable().optional(),
    dueDate: calendarDate.nullable().optional(),
  }),
);
export type OutcomePatch = z.output<typeof outcomePatchSchema>;

export const outcomeSorts = ['dueDate', 'createdAt', 'updatedAt', 'title'] as const;

export const outcomeListQuerySchema = z.strictObject({
  ...listQueryBase,
  ...filterLists({ projectId: idList('prj'), status: enumList(outcomeStatuses), ownerId: idList('usr') }),
  ...dueFilters,
  archived: archivedQuery,
  q: searchText.optional(),
  sort: sortQuery(outcomeSorts, '-createdAt'),
  query: queryParameter,
});
export type OutcomeListQuery = z.output<typeof outcomeListQuerySchema>;

/** An outcome as the API answers it. */
export const outcomeSchema = z.strictObject({
  ...versionedFields('out'),
  projectId: idOf('prj'),
  title: z.string(),
  description: z.string().nullable(),
  status: z.enum(outcomeStatuses),
  ownerId: idOf('usr').nullable(),
  dueDate: dateOut.nullable(),
  shippedAt: timestampOut.nullable().describe('Set when the status becomes shipped'),
  commentCount: commentCountOut,
  archivedAt: archivedAtOut,
});

/** The family's standard schemas, read by its routes and by its OpenAPI components. */
export const outcomeSchemas = standardSchemas({
  component: 'Outcome',
  item: outcomeSchema,
  listQuery: outcomeListQuerySchema,
  create: outcomeCreateSchema,
  patch: outcomePatchSchema,
});
