import { z } from 'zod';
import type { FilterMatch } from '../../port/index.js';

/**
 * Filter lists: `status=open,in_progress` (any of) and `-status=closed` (none of), for enum and
 * id filters. The document states each as a string with a pattern, so a generated request is a
 * valid one; the server reads it as the list of its distinct values.
 */
const listOf = (item: string, describe: string) =>
  z
    .string()
    .regex(new RegExp(`^${item}(,${item}){0,49}$`), `expected a comma list of up to 50 values`)
    .transform((value) => [...new Set(value.split(','))])
    .describe(describe);

const literal = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** An enum filter: one value or a comma list of them (any of). */
export const enumList = (values: readonly string[], what = 'Any of these values (a comma list)') =>
  listOf(`(${values.map(literal).join('|')})`, what);

/** An id filter: one id or a comma list of them (any of); with `orNone`, `none` stands for no id. */
export const idList = (prefix: string, what = 'Any of these ids (a comma list)', orNone = false) =>
  listOf(orNone ? `(${prefix}_[0-9A-Za-z]{1,64}|none)` : `${prefix}_[0-9A-Za-z]{1,64}`, what);

/** `none` in a list (an unset field) as the storage filter's null. */
const storedValue = (value: string): string | null => (value === 'none' ? null : value);

type ListSchema = ReturnType<typeof listOf>;

/** Each filter as `field` (any of) and `-field` (none of), both optional. */
export function filterLists<const S extends Record<string, ListSchema>>(lists: S) {
  const shape: Record<string, z.ZodOptional<ListSchema>> = {};
  for (const [field, schema] of Object.entries(lists)) {
    shape[field] = schema.optional();
    shape[`-${field}`] = schema
      .describe(`None of these (a comma list): leaves out what \`${field}\` would match`)
      .optional();
  }
  return shape as { [K in keyof S & string as K | `-${K}`]: z.ZodOptional<S[K]> };
}

/**
 * The storage filter a field's lists stand for: one value stays an equality (the cursors made
 * before lists existed stay valid), several an IN list, an exclusion alone a `not`; with both,
 * the values listed and not excluded.
 */
export function filterOf(
  include: readonly string[] | undefined,
  exclude: readonly string[] | undefined,
): FilterMatch | undefined {
  if (include === undefined) return exclude === undefined ? undefined : { not: exclude.map(storedValue) };
  const values = exclude === undefined ? include : include.filter((value) => !exclude.includes(value));
  return values.length === 1 ? storedValue(values[0] as string) : values.map(storedValue);
}

/** Picks `field` and `-field` of a parsed query and makes them one storage filter. */
export function filtersOf<const F extends string>(
  query: Partial<Record<F | `-${F}`, string[]>>,
  fields: readonly F[],
): Partial<Record<F, FilterMatch>> {
  const where: Partial<Record<F, FilterMatch>> = {};
  for (const field of fields) {
    const match = filterOf(query[field], query[`-${field}` as `-${F}`]);
    if (match !== undefined) where[field] = match;
  }
  return where;
}

/** Splits a parsed list query into its filter lists, as one storage filter, and the rest. */
export function splitFilters<Q extends Record<string, unknown>, const F extends string>(
  query: Q,
  fields: readonly F[],
): { where: Partial<Record<F, FilterMatch>>; params: Omit<Q, F | `-${F}`> } {
  const params = Object.fromEntries(
    Object.entries(query).filter(([key]) => !fields.includes(key.replace(/^-/, '') as F)),
  ) as Omit<Q, F | `-${F}`>;
  return { where: filtersOf(query as Partial<Record<F | `-${F}`, string[]>>, fields), params };
}
