import { z } from 'zod';
import { contextKinds } from '../../model.js';
import {
  idOf,
  listQueryBase,
  pageOf,
  serviceOwnedFields,
  versionedFields,
  withoutReadOnly,
} from '../shared/schema.js';

/** Links must be http(s): a `javascript:` or `file:` URL stored here would be rendered to someone later. */
const webUrl = z.url({ protocol: /^https?$/ }).max(2048);

const fields = {
  outcomeId: idOf('out'),
  title: z.string().trim().min(1).max(500),
  url: webUrl.nullable().optional(),
  body: z.string().max(100_000).nullable().optional(),
};

/** Each kind says which of url and body it needs: a link has a url, a note has a body. */
export const contextCreateSchema = withoutReadOnly(
  serviceOwnedFields,
  z.discriminatedUnion('kind', [
    z.strictObject({ ...fields, kind: z.literal('document') }),
    z.strictObject({ ...fields, kind: z.literal('link'), url: webUrl }),
    z.strictObject({ ...fields, kind: z.literal('note'), body: z.string().min(1).max(100_000) }),
  ]),
);
export type ContextCreate = z.output<typeof contextCreateSchema>;

export const contextListQuerySchema = z.strictObject({
  ...listQueryBase,
  outcomeId: idOf('out').optional(),
  kind: z.enum(contextKinds).optional(),
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
export const contextPageSchema = pageOf(contextItemSchema);
