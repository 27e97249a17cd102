import { createHash } from 'node:crypto';
import { z } from 'zod';
import { canonicalJson } from '../canonical-json.js';
import { ApiError } from '../errors.js';

export const defaultPageSize = 50;
export const maxPageSize = 200;

/** Query fields every list accepts. */
export const pageQuery = {
  limit: z.coerce.number().int().min(1).max(maxPageSize).default(defaultPageSize),
  cursor: z.string().min(1).max(512).optional(),
};

export interface KeysetPosition {
  createdAt: string;
  id: string;
}

const invalidCursor = (detail: string) => new ApiError(400, 'invalid_cursor', detail);

// The checksum binds a cursor to the filters it was made with and catches edits. It is no
// secret: a forged cursor can only choose a position inside the caller's own filtered list.
const checksum = (payload: string, filters: unknown): string =>
  createHash('sha256')
    .update(`${payload}\n${canonicalJson(filters)}`)
    .digest('base64url')
    .slice(0, 16);

/** An opaque cursor for the position after `last`, bound to `filters`. */
export function encodeCursor(last: KeysetPosition, filters: unknown): string {
  const payload = Buffer.from(JSON.stringify([last.createdAt, last.id])).toString('base64url');
  return `${payload}.${checksum(payload, filters)}`;
}

/** The position a cursor names; 400 invalid_cursor when tampered with or made for other filters. */
export function decodeCursor(cursor: string, filters: unknown): KeysetPosition {
  const [payload, sum, extra] = cursor.split('.');
  if (!payload || !sum || extra !== undefined) throw invalidCursor('The cursor is malformed.');
  if (checksum(payload, filters) !== sum) {
    throw invalidCursor(
      'The cursor was altered or was made with other filters; restart from the first page.',
    );
  }
  try {
    const [createdAt, id] = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as unknown[];
    if (typeof createdAt === 'string' && typeof id === 'string') return { createdAt, id };
  } catch {
    // fall through
  }
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
): Page<T> {
  const pageRows = rows.slice(0, limit);
  const last = pageRows[pageRows.length - 1];
  return {
    data: pageRows.map(present),
    nextCursor: rows.length > limit && last ? encodeCursor(last, filters) : null,
    total,
  };
}
