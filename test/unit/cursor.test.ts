import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/core/errors.js';
import { decodeCursor, encodeCursor, toPage } from '../../src/core/pipeline/pagination.js';

const position = { createdAt: '2026-11-22T10:00:00.000Z', id: 'iss_abc' };
const filters = { status: 'open' };

const codeOf = (fn: () => unknown): string | undefined => {
  try {
    fn();
  } catch (error) {
    return error instanceof ApiError ? error.code : 'other';
  }
  return undefined;
};

describe('cursors', () => {
  it('round-trips a keyset position for the same filters', () => {
    expect(decodeCursor(encodeCursor(position, filters), filters)).toEqual(position);
  });

  it('refuses a cursor used with other filters', () => {
    expect(codeOf(() => decodeCursor(encodeCursor(position, filters), { status: 'closed' }))).toBe(
      'invalid_cursor',
    );
  });

  it('refuses a cursor whose payload was edited', () => {
    const cursor = encodeCursor(position, filters);
    const edited = Buffer.from(JSON.stringify(['2030-01-01T00:00:00.000Z', 'iss_abc'])).toString('base64url');
    expect(codeOf(() => decodeCursor(`${edited}.${cursor.split('.')[1]}`, filters))).toBe('invalid_cursor');
  });

  it('refuses garbage', () => {
    for (const garbage of ['x', 'a.b.c', '..', 'not-base64!.zzz']) {
      expect(codeOf(() => decodeCursor(garbage, filters))).toBe('invalid_cursor');
    }
  });

  it('gives a next cursor only when a row beyond the page exists', () => {
    const rows = [1, 2, 3].map((n) => ({ createdAt: `2026-11-22T10:00:0${n}.000Z`, id: `iss_${n}` }));
    expect(toPage(rows, 3, 3, filters, (r) => r.id).nextCursor).toBeNull();
    const page = toPage(rows, 3, 2, filters, (r) => r.id);
    expect(page.data).toEqual(['iss_1', 'iss_2']);
    expect(decodeCursor(page.nextCursor as string, filters)).toEqual(rows[1]);
    expect(page.total).toBe(3);
  });
});
