import { z } from 'zod';
import type { LabelMatch } from '../../port/index.js';

/**
 * One label in a filter: 1 to 64 characters (as an issue's label may hold), no comma (the list's
 * separator) and no white space at either end (a stored label is trimmed, so such an item could
 * match nothing: refused rather than answered empty).
 */
const label = '[^,\\s](?:[^,]{0,62}[^,\\s])?';

/** Up to 50 labels (as many as an issue may carry), comma-separated; a repeated one counts once. */
const labelList = (describe: string) =>
  z
    .string()
    .regex(
      new RegExp(`^${label}(,${label}){0,49}$`),
      'expected a comma list of up to 50 labels, each 1 to 64 characters, none empty, with no white space at either end',
    )
    .transform((value) => [...new Set(value.split(','))])
    .describe(describe);

/** The label filters of the issues list. */
export const labelFilters = {
  labels: labelList('Issues carrying every one of these labels (a comma list)').optional(),
  labelsAny: labelList('Issues carrying at least one of these labels (a comma list)').optional(),
  labelsNone: labelList('Issues carrying none of these labels (a comma list)').optional(),
};

/** The storage's label filter for the parsed `labels`, `labelsAny` and `labelsNone`, or undefined for none. */
export function labelMatchOf(
  all: string[] | undefined,
  any: string[] | undefined,
  none?: string[] | undefined,
): LabelMatch | undefined {
  if (all === undefined && any === undefined && none === undefined) return undefined;
  return { ...(all ? { all } : {}), ...(any ? { any } : {}), ...(none ? { none } : {}) };
}
