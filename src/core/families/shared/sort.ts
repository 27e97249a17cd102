import { z } from 'zod';

/** `createdAt` or `-createdAt`: a field of `fields`, descending with a `-` in front. */
export type SortParam<F extends string> = F | `-${F}`;

/**
 * The `sort` query parameter of a list: one field of `fields`, with `-` in front for descending;
 * `fallback` when absent.
 */
export function sortQuery<const F extends string>(fields: readonly F[], fallback: SortParam<F>) {
  const values = fields.flatMap((field) => [field, `-${field}`]) as [SortParam<F>, ...SortParam<F>[]];
  return (
    z
      .enum(values)
      // zod cannot see that the fallback is one of the values built above.
      .default(fallback as never)
      .describe(`One of ${fields.join(', ')}; a leading \`-\` sorts descending. Default \`${fallback}\`.`)
  );
}

/** The field a sort names and its direction. */
export function sortOrder<F extends string>(sort: SortParam<F>): { field: F; order: 'asc' | 'desc' } {
  return sort.startsWith('-')
    ? { field: sort.slice(1) as F, order: 'desc' }
    : { field: sort as F, order: 'asc' };
}
