/** Helpers both in-process adapters share for the (createdAt desc, id desc) list order. */

/** Sort comparator: newest first, ties broken by id descending. */
export function newestFirst(
  a: { createdAt: string; id: string },
  b: { createdAt: string; id: string },
): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1;
  if (a.id !== b.id) return a.id < b.id ? 1 : -1;
  return 0;
}

/** Whether `row` comes strictly after the keyset position `after` in newest-first order. */
export function isAfter(
  row: { createdAt: string; id: string },
  after: { createdAt: string; id: string },
): boolean {
  return row.createdAt < after.createdAt || (row.createdAt === after.createdAt && row.id < after.id);
}
