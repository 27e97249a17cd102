import { expect } from 'vitest';
import type { TestServer } from '../harness.js';
import type { Json } from './answers.js';
import { client } from './support.js';

/**
 * Follows nextCursor from the first page of `path` (which may already carry a query) with
 * `limit`, checking that `total` stays the same on every page; returns every item's id in order.
 */
export async function pageToEnd(s: TestServer, path: string, limit: number): Promise<string[]> {
  const http = client(s);
  const join = path.includes('?') ? '&' : '?';
  const ids: string[] = [];
  let cursor: string | null = null;
  let total: number | undefined;
  for (let page = 0; page < 100; page++) {
    const after: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
    const body = await http.list(`${path}${join}limit=${limit}${after}`);
    expect(body.data.length).toBeLessThanOrEqual(limit);
    total ??= body.total;
    expect(body.total).toBe(total);
    ids.push(...body.data.map((item: { id: string }) => item.id));
    cursor = body.nextCursor;
    if (cursor === null) return ids;
  }
  throw new Error(`${path} did not reach its last page`);
}

/** Ids of a list answer, in order. */
export const idsOf = (page: Json): string[] => page.data.map((item: { id: string }) => item.id);
