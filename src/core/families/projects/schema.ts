import { z } from 'zod';
import {
  listQueryBase,
  nonBlank,
  pageOf,
  searchText,
  serviceOwnedFields,
  versionedFields,
  withoutReadOnly,
} from '../shared/schema.js';
import { sortQuery } from '../shared/sort.js';

/** A project key: 2 to 10 upper-case letters or digits, starting with a letter (`APO`). */
export const projectKey = z
  .string()
  .regex(/^[A-Z][A-Z0-9]{1,9}$/, 'expected 2 to 10 upper-case letters or digits, starting with a letter');

const name = nonBlank().max(200);
const description = z.string().max(50_000).nullable();

export const projectCreateSchema = withoutReadOnly(
  serviceOwnedFields,
  z.strictObject({ name, key: projectKey.optional(), description: description.optional() }),
);
export type ProjectCreate = z.output<typeof projectCreateSchema>;

// The key is fixed at creation: issue keys such as APO-12 are built from it and must stay valid.
export const projectPatchSchema = withoutReadOnly(
  [...serviceOwnedFields, 'key'],
  z.strictObject({ name: name.optional(), description: description.optional() }),
);
export type ProjectPatch = z.output<typeof projectPatchSchema>;

export const projectListQuerySchema = z.strictObject({
  ...listQueryBase,
  q: searchText.optional(),
  sort: sortQuery(['createdAt', 'updatedAt'], '-createdAt'),
});
export type ProjectListQuery = z.output<typeof projectListQuerySchema>;

/** A project as the API answers it. */
export const projectSchema = z.strictObject({
  ...versionedFields('prj'),
  name: z.string(),
  key: projectKey,
  description: z.string().nullable(),
});
export const projectPageSchema = pageOf(projectSchema);
