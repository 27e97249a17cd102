import { z } from 'zod';
import { pageQuery } from '../../pipeline/pagination.js';

/** Building blocks shared by the families' schemas. */

export const idOf = (prefix: string) =>
  z.string().regex(new RegExp(`^${prefix}_[0-9A-Za-z]{1,64}$`), `expected an id starting with ${prefix}_`);

/** An RFC 3339 timestamp, normalized to UTC with milliseconds. */
export const timestamp = z.iso.datetime({ offset: true }).transform((value) => new Date(value).toISOString());

/** The query fields of every list: paging plus the common time filters (CONTRACT §3). */
export const listQueryBase = {
  ...pageQuery,
  createdAfter: timestamp.optional(),
  createdBefore: timestamp.optional(),
  updatedSince: timestamp.optional(),
};

export const searchText = z.string().trim().min(1).max(200);

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
