import { z } from 'zod';
import { contextKinds } from '../../model.js';
import { enumList, filterLists, idList } from '../shared/filters.js';
import {
  idOf,
  listQueryBase,
  nonBlank,
  serviceOwnedFields,
  versionedFields,
  withoutReadOnly,
} from '../shared/schema.js';
import { sortQuery } from '../shared/sort.js';
import { standardSchemas } from '../shared/standard-schemas.js';

/** Links must be http(s): a `javascript:` or `file:` URL stored here would be rendered to someone later. */
const webUrl = z.url({ protocol: /^https?$/ }).max(2048);

const base = {
  outcomeId: idOf('out'),
  title: nonBlank().max(500),
};
const noteBody = z.string().min(1).max(100_000);

/**
 * Each kind carries exactly what it is: a document or a link is a url, a note is a body. The other
 * field may be sent as null, never with a value that the item would then keep without meaning.
 */
export const contextCreateSchema = withoutReadOnly(
  serviceOwnedFields,
  z.discriminatedUnion('kind', [
    z.strictObject({ ...base, kind: z.literal('document'), url: webUrl, body: z.null().optional() }),
    z.strictObject({ ...base, kind: z.literal('link'), url: webUrl, body: z.null().optional() }),
    z.strictObject({ ...base, kind: z.literal('note'), body: noteBody, url: z.null().optional() }),
  ]),
);
export type ContextCreate = z.output<typeof contextCreateSchema>;

export const contextListQuerySchema = z.strictObject({
  ...listQueryBase,
  ...filterLists({ outcomeId: idList('out'), kind: enumList(contextKinds) }),
  sort: sortQuery(['createdAt', 'updatedAt'], '-createdAt'),
});
export type ContextListQuery = z.output<typeof contextListQuerySchema>;

/** A context item as the API answers it. */
export const contextItemSchema = z.strictObject({
  ...versionedFields('ctx'),
  outcomeId: idOf('out'),
  kind: z.enum(contextKinds),
  title: z.string(),
  url: z.string().nullable(),
  body: z.string().nullable(),
});

/** The family's standard schemas, read by its routes and by its OpenAPI components. */
export const contextSchemas = standardSchemas({
  component: 'ContextItem',
  item: contextItemSchema,
  listQuery: contextListQuerySchema,
  create: contextCreateSchema,
});
