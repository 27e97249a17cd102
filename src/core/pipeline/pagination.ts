import { createHash } from 'node:crypto';
import { z } from 'zod';
import { canonicalJson } from '../canonical-json.js';
import { ApiError } from '../errors.js';

export const defaultPageSize = 50;
export const maxPageSize = 200;

/**
 * An integer query parameter: decimal digits only. `Number()` would also take `1e2`, `0x10`,
 * ` 5` or `+5`; a client sending those has a bug worth hearing about (400), not a guess.
 */
export function queryInteger<T extends z.ZodType>(inner: (number: z.ZodNumber) => T) {
  return z.preprocess(
    (value) => (typeof value === 'string' && /^[0-9]{1,16}$/.test(value) ? Number(value) : value),
    // The message is for a value that is no integer at all; a bound's own message names the bound.
    inner(
      z
        .number({
          error: (issue) =>
            issue.code === 'invalid_type' ? 'expected a decimal integer (digits only)' : undefined,
        })
        .int(),
    ),
  );
}

/**
 * `cursor`: the nextCursor of the previous page. An empty one (`cursor=`, as a client writes its
 * first request's null cursor) is the first page, as the document's plain string allows; an
 * over-long or altered one is 400 invalid_cursor (decodeCursor).
 */
export const optionalCursor = z
  .string()
  .transform((cursor) => (cursor === '' ? undefined : cursor))
  .optional()
  .describe(
    "The previous page's `nextCursor`, as it was answered (empty: the first page). A cursor is opaque and bound to the list's filters and order: any other value (malformed, altered, or made with other filters) is 400 invalid_cursor.",
  );

/** Query fields every list accepts. */
export const pageQuery = {
  limit: queryInteger((n) => n.min(1).max(maxPageSize).default(defaultPageSize)),
  cursor: optionalCursor,
};

/** Longer than any cursor this service makes. */
const maxCursorLength = 512;

export interface KeysetPosition {
  createdAt: string;
  id: string;
}

export const invalidCursor = (detail: string) => new ApiError(400, 'invalid_cursor', detail);

// The checksum binds a cursor to the filters it was made with and catches edits. It is no
// secret: a forged cursor can only choose a position inside the caller's own filtered list.
const checksum = (payload: string, filters: unknown): string =>
  createHash('sha256')
    .update(`${payload}\n${canonicalJson(filters)}`)
    .digest('base64url')
    .slice(0, 16);

/** An opaque cursor carrying `position`, bound to `filters`. */
export function encodePosition(position: readonly (string | number)[], filters: unknown): string {
  const payload = Buffer.from(JSON.stringify(position)).toString('base64url');
  return `${payload}.${checksum(payload, filters)}`;
}

/** The position a cursor carries; 400 invalid_cursor when tampered with or made for other filters. */
export function decodePosition(cursor: string, filters: unknown): unknown[] {
  if (cursor.length > maxCursorLength) throw invalidCursor('The cursor is malformed.');
  const [payload, sum, extra] = cursor.split('.');
  if (!payload || !sum || extra !== undefined) throw invalidCursor('The cursor is malformed.');
  if (checksum(payload, filters) !== sum) {
    throw invalidCursor(
      'The cursor was altered or was made with other filters; restart from the first page.',
    );
  }
  try {
    const position: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    if (Array.isArray(position)) return position;
  } catch {
    // fall through
  }
  throw invalidCursor('The cursor is malformed.');
}

/** An opaque cursor for the keyset position after `last`, bound to `filters`. */
export const encodeCursor = (last: KeysetPosition, filters: unknown): string =>
  encodePosition([last.createdAt, last.id], filters);

/** The keyset position a cursor names; 400 invalid_cursor when it names none or was altered. */
export function decodeCursor(cursor: string, filters: unknown): KeysetPosition {
  const [createdAt, id, extra] = decodePosition(cursor, filters);
  if (typeof createdAt === 'string' && typeof id === 'string' && extra === undefined)
    return { createdAt, id };
  throw invalidCursor('The cursor is malformed.');
}

export interface Page<T> {
  data: T[];
  nextCursor: string | null;
  total: number;
}

/**
 * Builds the read envelope from rows fetched with `limit + 1`: the extra row only says that
 * another page exists.
 */
export function toPage<Row extends KeysetPosition, T>(
  rows: Row[],
  total: number,
  limit: number,
  filters: unknown,
  present: (row: Row) => T,
  /** The keyset position of a row, for a list in another order than creation time. */
  positionOf?: (row: Row) => readonly (string | number)[],
): Page<T> {
  const pageRows = rows.slice(0, limit);
  const last = pageRows[pageRows.length - 1];
  const next = (row: Row) =>
    positionOf ? encodePosition(positionOf(row), filters) : encodeCursor(row, filters);
  return {
    data: pageRows.map(present),
    nextCursor: rows.length > limit && last ? next(last) : null,
    total,
  };
}
