import { z } from 'zod';
import { issueSeverities, issueStatuses } from '../../model.js';
import { idOf, listQueryBase, searchText, serviceOwnedFields, withoutReadOnly } from '../shared/schema.js';

/** Fields the service sets: ignored in bodies. `status` changes only through a transition (seed). */
const readOnly = [...serviceOwnedFields, 'status', 'number', 'key', 'resolvedAt'];

const title = z.string().trim().min(1).max(500);
const description = z.string().max(50_000).nullable();
const labels = z.array(z.string().trim().min(1).max(64)).max(50);

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
  }),
);
export type IssueCreate = z.output<typeof issueCreateSchema>;

export const issuePatchSchema = withoutReadOnly(
  [...readOnly, 'projectId'],
  z.strictObject({
    title: title.optional(),
    description: description.optional(),
    severity: z.enum(issueSeverities).optional(),
    outcomeId: idOf('out').nullable().optional(),
    assigneeId: idOf('usr').nullable().optional(),
    labels: labels.optional(),
  }),
);
export type IssuePatch = z.output<typeof issuePatchSchema>;

export const issueTransitionSchema = z.strictObject({
  to: z.enum(issueStatuses),
  comment: z.string().max(10_000).optional(),
});
export type IssueTransition = z.output<typeof issueTransitionSchema>;

export const issueListQuerySchema = z.strictObject({
  ...listQueryBase,
  projectId: idOf('prj').optional(),
  outcomeId: idOf('out').optional(),
  status: z.enum(issueStatuses).optional(),
  severity: z.enum(issueSeverities).optional(),
  assigneeId: idOf('usr').optional(),
  q: searchText.optional(),
});
export type IssueListQuery = z.output<typeof issueListQuerySchema>;

/** `APO-12`: a project key, a dash and the issue's number in its project. */
export const issueKeyPattern = /^([A-Z][A-Z0-9]{1,9})-([1-9][0-9]{0,9})$/;
