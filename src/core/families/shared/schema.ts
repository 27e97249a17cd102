import { z } from 'zod';
import { pageQuery } from '../../pipeline/pagination.js';

/** Building blocks shared by the families' schemas. */

export const idOf = (prefix: string) =>
  z.string().regex(new RegExp(`^${prefix}_[0-9A-Za-z]{1,64}$`), `expected an id starting with ${prefix}_`);

/** An RFC 3339 timestamp, normalized to UTC with milliseconds. */
export const timestamp = z.iso.datetime({ offset: true }).transform((value) => new Date(value).toISOString());

/**
 * A time filter's bound: a timestamp as above, except that a fraction finer than a millisecond
 * rounds up to the next one. Times are stored to the millisecond, so an item created at .704 is
 * before .7041: outside `createdAfter` (inclusive) and inside `createdBefore` (exclusive) at it,
 * which the bound .705 gives both, where .704 would give neither.
 */
export const timeBound = z.iso.datetime({ offset: true }).transform((value) => {
  const fraction = /\.(\d+)/.exec(value)?.[1] ?? '';
  const finer = /[1-9]/.test(fraction.slice(3));
  return new Date(Date.parse(value) + (finer ? 1 : 0)).toISOString();
});

/** The query fields of every list: paging plus the common time filters (CONTRACT §3). */
export const listQueryBase = {
  ...pageQuery,
  createdAfter: timeBound.optional(),
  createdBefore: timeBound.optional(),
  updatedSince: timeBound.optional(),
  updatedBefore: timeBound.optional(),
};

/**
 * A text field that must say something: trimmed, and at least one character left. The document
 * says so with a pattern (a character that is not white space): `minLength: 1` alone let a
 * whitespace-only value pass the document and be refused by the server.
 */
export const nonBlank = () =>
  z.string().min(1, { abort: true }).regex(/\S/, { error: 'must not be blank (white space only)' }).trim();

/** Shorter search text has no trigram to look up in the search index: it would scan every row. */
export const minSearchLength = 3;
const tooShort = `needs at least ${minSearchLength} characters: shorter text cannot use the search index`;

// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
const controlCharacter = /[\u0000-\u001f\u007f]/;

/**
 * Both rules of search text as the one pattern the document states, of the text before trimming:
 * no control character, and three characters from the first to the last that is not white space
 * (`minLength` alone let " d%" pass the document and be refused once trimmed). One pattern, not
 * two in an `allOf`, which request generators often ignore.
 */
const searchTextPattern =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  /^[^\u0000-\u001f\u007f]*[^\s\u0000-\u001f\u007f][^\u0000-\u001f\u007f]+[^\s\u0000-\u001f\u007f][^\u0000-\u001f\u007f]*$/;

/**
 * Search text: at least three characters, so every search is an index lookup and no request can
 * make the server read every row; control characters (a NUL, say) match nothing a user typed,
 * so they are refused.
 */
export const searchText = z
  .string()
  .trim()
  .max(200)
  .refine((text) => !controlCharacter.test(text), {
    error: 'must not contain control characters',
    abort: true,
  })
  .min(minSearchLength, { error: tooShort, abort: true })
  .regex(searchTextPattern, tooShort);

/**
 * Removes fields the service owns from a request body before validation: a client that sends
 * back a resource it read (id, version, timestamps…) is not refused for it, but cannot set them.
 */
export const withoutReadOnly = <S extends z.ZodType>(readOnly: readonly string[], schema: S) =>
  z.preprocess((value) => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
    const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
    for (const field of readOnly) delete copy[field];
    return copy;
  }, schema);

/** Fields every resource's body may carry but no client may set. */
export const serviceOwnedFields = [
  'id',
  'version',
  'createdAt',
  'updatedAt',
  'accountId',
  'workspaceId',
  'userId',
] as const;

/* What the API answers: the response schemas the OpenAPI document is generated from. */

/** A timestamp as the API writes it: RFC 3339 UTC with milliseconds. */
export const timestampOut = z.iso.datetime({ precision: 3 }).describe('RFC 3339 UTC with milliseconds');

/** A calendar day, `YYYY-MM-DD`. */
export const dateOut = z.iso.date();

/** The fields every versioned resource answers with. */
/**
 * A whole number as every adapter stores it: PostgreSQL's `integer` holds up to 2^31 - 1, and a
 * record of an import file with a larger one is refused by the check (file:line), not by the
 * database at write time.
 */
export const int32 = () => z.number().int().max(2_147_483_647);

export const versionedFields = <P extends string>(prefix: P) => ({
  id: idOf(prefix),
  createdAt: timestampOut,
  updatedAt: timestampOut,
  version: int32().min(1).describe('Increases with every change; the ETag is "<version>"'),
});

/** How many comments an issue, outcome or decision has (the service keeps it). */
export const commentCountOut = int32().min(0).describe('How many comments it has');

/** When an issue or outcome was archived; null while it is not. */
export const archivedAtOut = timestampOut
  .nullable()
  .describe('When it was archived (left out of lists unless `archived=true|only`); null while it is not');

/** Whether a list shows archived items: not by default, with the others (`true`), or alone (`only`). */
export const archivedQuery = z
  .enum(['false', 'true', 'only'])
  .default('false')
  .describe('Archived items are left out unless `true` (with the others) or `only`');

/** The storage filter an `archived` query parameter stands for. */
export const archivedFilter = (archived: 'false' | 'true' | 'only') =>
  archived === 'false'
    ? { where: { archivedAt: null }, notNull: undefined }
    : archived === 'only'
      ? { where: {}, notNull: ['archivedAt' as const] }
      : { where: {}, notNull: undefined };

/** The read envelope of every list (CONTRACT §3). */
export const pageOf = <T extends z.ZodType>(item: T) =>
  z.strictObject({
    data: z.array(item),
    nextCursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last page'),
    total: z.number().int().min(0).describe('Items matching the filters, over all pages'),
  });
