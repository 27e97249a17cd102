import { z } from 'zod';
import { issueSeverities, issueStatuses } from '../../model.js';
import { calendarDate } from '../shared/dates.js';
import { dueFilters, estimateFilters } from '../shared/due-filters.js';
import { externalQuery, externalRefSchema } from '../shared/external.js';
import { enumList, filterLists, idList } from '../shared/filters.js';
import { queryParameter } from '../shared/query.js';
import {
  archivedAtOut,
  archivedQuery,
  commentCountOut,
  dateOut,
  idOf,
  int32,
  listQueryBase,
  nonBlank,
  pageOf,
  searchText,
  serviceOwnedFields,
  timestampOut,
  versionedFields,
  withoutReadOnly,
} from '../shared/schema.js';
import { sortQuery } from '../shared/sort.js';
import { labelFilters } from './label-filters.js';

/** Fields the service sets: ignored in bodies. `status` changes only through a transition (seed). */
const readOnly = [
  ...serviceOwnedFields,
  'status',
  'number',
  'key',
  'resolvedAt',
  'commentCount',
  'parentId',
  'blockedBy',
  'subIssues',
  'archivedAt',
];

const title = nonBlank().max(500);
const description = z.string().max(50_000).nullable();
/**
 * A label: a U+0000 in one could never be named in a filter (a query string refuses it), and
 * PostgreSQL's JSON cannot read it, so it is refused where it enters.
 */
const label = nonBlank()
  .max(64)
  .refine((text) => !text.includes('\u0000'), { error: 'must not contain U+0000' });
const labels = z.array(label).max(50);
const dueOn = calendarDate.nullable().describe('The day it is due (`YYYY-MM-DD`), or null');
/** The largest estimate taken: far beyond any real one, and small enough to sort exactly everywhere. */
export const maxEstimate = 1_000_000;
const estimate = z
  .number()
  .min(0)
  .max(maxEstimate)
  .nullable()
  .describe("How much work it is, in the team's own unit (points, hours): a non-negative number, or null");

export const issueCreateSchema = withoutReadOnly(
  readOnly,
  z.strictObject({
    projectId: idOf('prj'),
    title,
    description: description.optional(),
    severity: z.enum(issueSeverities).optional(),
    outcomeId: idOf('out').nullable().optional(),
    assigneeId: idOf('usr').nullable().optional(),
    labels: labels.optional(),
    external: externalRefSchema.nullable().optional(),
    dueOn: dueOn.optional(),
    estimate: estimate.optional(),
  }),
);
export type IssueCreate = z.output<typeof issueCreateSchema>;

// Where an issue came from is said once, by its create (an import's), and kept.
export const issuePatchSchema = withoutReadOnly(
  [...readOnly, 'projectId', 'external'],
  z.strictObject({
    title: title.optional(),
    description: description.optional(),
    severity: z.enum(issueSeverities).optional(),
    outcomeId: idOf('out').nullable().optional(),
    assigneeId: idOf('usr').nullable().optional(),
    labels: labels.optional(),
    dueOn: dueOn.optional(),
    estimate: estimate.optional(),
  }),
);
export type IssuePatch = z.output<typeof issuePatchSchema>;

// Like every body, a transition may carry the fields the service owns; they are ignored.
export const issueTransitionSchema = withoutReadOnly(
  serviceOwnedFields,
  z.strictObject({
    to: z.enum(issueStatuses),
    comment: z.string().max(10_000).optional(),
  }),
);
export type IssueTransition = z.output<typeof issueTransitionSchema>;

export const issueSorts = [
  'createdAt',
  'updatedAt',
  'number',
  'severity',
  'status',
  'title',
  'dueOn',
  'estimate',
] as const;

export const issueListQuerySchema = z.strictObject({
  ...listQueryBase,
  ...filterLists({
    projectId: idList('prj'),
    outcomeId: idList('out'),
    status: enumList(issueStatuses),
    severity: enumList(issueSeverities),
    assigneeId: idList('usr', 'Any of these assignees (a comma list); `none`: no assignee', true),
    parentId: idList('iss', 'The children of these issues (their sub-issues; a comma list)'),
  }),
  ...labelFilters,
  ...externalQuery,
  ...dueFilters,
  ...estimateFilters,
  blocked: z
    .enum(['true', 'false'])
    .optional()
    .describe('`true`: issues blocked by at least one issue (`blockedBy` > 0); `false`: by none'),
  archived: archivedQuery,
  q: searchText.optional(),
  sort: sortQuery(issueSorts, '-createdAt'),
  query: queryParameter,
});
export type IssueListQuery = z.output<typeof issueListQuerySchema>;

/** `APO-12`: a project key, a dash and the issue's number in its project. */
export const issueKeyPattern = /^([A-Z][A-Z0-9]{1,9})-([1-9][0-9]{0,9})$/;

/** An issue as the API answers it. */
export const issueSchema = z.strictObject({
  ...versionedFields('iss'),
  projectId: idOf('prj'),
  number: int32().min(1).describe("The issue's number in its project"),
  key: z.string().regex(issueKeyPattern).describe('`<PROJECT KEY>-<number>`, e.g. APO-12'),
  title: z.string(),
  description: z.string().nullable(),
  severity: z.enum(issueSeverities),
  status: z.enum(issueStatuses).describe('Changed only by POST /issues/{id}/transition'),
  outcomeId: idOf('out').nullable(),
  assigneeId: idOf('usr').nullable(),
  labels: z.array(z.string()),
  resolvedAt: timestampOut.nullable().describe('Set on entering resolved, cleared on leaving it'),
  commentCount: commentCountOut,
  parentId: idOf('iss').nullable().describe('Its parent, set by a parent_of (or child_of) relation'),
  blockedBy: int32().min(0).describe('How many issues block it (blocks / blocked_by relations)'),
  subIssues: int32().min(0).describe('How many children it has (parent_of / child_of relations)'),
  archivedAt: archivedAtOut,
  external: externalRefSchema.nullable(),
  dueOn: dateOut.nullable().describe('The day it is due, or null'),
  estimate: z.number().min(0).nullable().describe('How much work it is (a non-negative number), or null'),
});
export const issuePageSchema = pageOf(issueSchema);
