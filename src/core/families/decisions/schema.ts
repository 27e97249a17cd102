import { z } from 'zod';
import { decisionStatuses } from '../../model.js';
import { enumList, filterLists, idList } from '../shared/filters.js';
import { queryParameter } from '../shared/query.js';
import {
  commentCountOut,
  idOf,
  listQueryBase,
  nonBlank,
  serviceOwnedFields,
  timestamp,
  timestampOut,
  versionedFields,
  withoutReadOnly,
} from '../shared/schema.js';
import { sortQuery } from '../shared/sort.js';
import { standardSchemas } from '../shared/standard-schemas.js';

const fields = {
  title: nonBlank().max(500),
  rationale: nonBlank().max(50_000),
  participants: z.array(nonBlank().max(200)).max(100),
  outcomeId: idOf('out').nullable(),
  status: z.enum(decisionStatuses),
  decidedAt: timestamp.nullable(),
  supersededBy: idOf('dec').nullable(),
};

/** Fields the service sets: ignored in bodies. */
const readOnly = [...serviceOwnedFields, 'commentCount'];

export const decisionCreateSchema = withoutReadOnly(
  readOnly,
  z.strictObject({
    projectId: idOf('prj'),
    title: fields.title,
    rationale: fields.rationale,
    participants: fields.participants.optional(),
    outcomeId: fields.outcomeId.optional(),
    status: fields.status.optional(),
    decidedAt: fields.decidedAt.optional(),
    supersededBy: fields.supersededBy.optional(),
  }),
);
export type DecisionCreate = z.output<typeof decisionCreateSchema>;

export const decisionPatchSchema = withoutReadOnly(
  [...readOnly, 'projectId'],
  z.strictObject({
    title: fields.title.optional(),
    rationale: fields.rationale.optional(),
    participants: fields.participants.optional(),
    outcomeId: fields.outcomeId.optional(),
    status: fields.status.optional(),
    decidedAt: fields.decidedAt.optional(),
    supersededBy: fields.supersededBy.optional(),
  }),
);
export type DecisionPatch = z.output<typeof decisionPatchSchema>;

export const decisionListQuerySchema = z.strictObject({
  ...listQueryBase,
  ...filterLists({ projectId: idList('prj'), outcomeId: idList('out'), status: enumList(decisionStatuses) }),
  sort: sortQuery(['createdAt', 'updatedAt'], '-createdAt'),
  query: queryParameter,
});
export type DecisionListQuery = z.output<typeof decisionListQuerySchema>;

/** A decision as the API answers it. */
export const decisionSchema = z.strictObject({
  ...versionedFields('dec'),
  projectId: idOf('prj'),
  title: z.string(),
  rationale: z.string(),
  participants: z.array(z.string()),
  outcomeId: idOf('out').nullable(),
  status: z.enum(decisionStatuses),
  decidedAt: timestampOut.nullable(),
  supersededBy: idOf('dec').nullable(),
  commentCount: commentCountOut,
});

/** The family's standard schemas, read by its routes and by its OpenAPI components. */
export const decisionSchemas = standardSchemas({
  component: 'Decision',
  item: decisionSchema,
  listQuery: decisionListQuerySchema,
  create: decisionCreateSchema,
  patch: decisionPatchSchema,
});
