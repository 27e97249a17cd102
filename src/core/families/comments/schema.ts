import { z } from 'zod';
import { filterLists, idList } from '../shared/filters.js';
import {
  idOf,
  listQueryBase,
  serviceOwnedFields,
  timestampOut,
  versionedFields,
  withoutReadOnly,
} from '../shared/schema.js';
import { sortQuery } from '../shared/sort.js';
import { standardSchemas } from '../shared/standard-schemas.js';

/** Fields the service sets: ignored in bodies. */
const readOnly = [...serviceOwnedFields, 'authorId', 'editedAt'];

/** Markdown text, kept as sent. */
const body = z.string().max(50_000).regex(/\S/, { error: 'must not be blank (white space only)' });

const targets = ['issueId', 'outcomeId', 'decisionId'] as const;

export const commentCreateSchema = withoutReadOnly(
  readOnly,
  z
    .strictObject({
      // null as a comment shows it: a client may send back the shape it read.
      issueId: idOf('iss').nullish(),
      outcomeId: idOf('out').nullish(),
      decisionId: idOf('dec').nullish(),
      body,
    })
    .refine((input) => targets.filter((field) => input[field] != null).length === 1, {
      message: 'name exactly one of issueId, outcomeId and decisionId',
      path: ['issueId'],
    }),
);
export type CommentCreate = z.output<typeof commentCreateSchema>;

// What a comment is on never changes: a comment moved elsewhere would answer another thread.
export const commentPatchSchema = withoutReadOnly(
  [...readOnly, 'issueId', 'outcomeId', 'decisionId'],
  z.strictObject({ body: body.optional() }),
);
export type CommentPatch = z.output<typeof commentPatchSchema>;

export const commentSorts = ['createdAt', 'updatedAt'] as const;

export const commentListQuerySchema = z.strictObject({
  ...listQueryBase,
  ...filterLists({
    issueId: idList('iss'),
    outcomeId: idList('out'),
    decisionId: idList('dec'),
    authorId: idList('usr'),
  }),
  sort: sortQuery(commentSorts, 'createdAt'),
});
export type CommentListQuery = z.output<typeof commentListQuerySchema>;

/** A comment as the API answers it. */
export const commentSchema = z.strictObject({
  ...versionedFields('cmt'),
  issueId: idOf('iss').nullable(),
  outcomeId: idOf('out').nullable(),
  decisionId: idOf('dec').nullable(),
  authorId: idOf('usr')
    .nullable()
    .describe("The token's user who wrote it; null when the operator wrote it without a token"),
  body: z.string().describe('Markdown text'),
  editedAt: timestampOut.nullable().describe('When the body last changed; null while it never did'),
});

/** The family's standard schemas, read by its routes and by its OpenAPI components. */
export const commentSchemas = standardSchemas({
  component: 'Comment',
  item: commentSchema,
  listQuery: commentListQuerySchema,
  create: commentCreateSchema,
  patch: commentPatchSchema,
});
