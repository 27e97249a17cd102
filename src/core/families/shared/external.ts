import { z } from 'zod';

/**
 * Something besides white space, and no control character: one pattern, not two in an `allOf`,
 * which request generators often ignore.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
const shownText = /^[^\u0000-\u001f\u007f]*[^\s\u0000-\u001f\u007f][^\u0000-\u001f\u007f]*$/;

/** A tracker's name: `github`, `jira`, `linear`, `csv`, or another in the same form. */
export const externalSource = z
  .string()
  .regex(/^[a-z][a-z0-9_-]{0,31}$/, 'expected a lower-case name such as github, jira, linear or csv')
  .describe('The tracker it came from: `github`, `jira`, `linear`, `csv`, …');

/**
 * A record's id in its tracker as people know it. Control characters (a NUL) are refused: the id
 * is a column of its own, and a filter value, in every adapter.
 */
export const externalId = z
  .string()
  .max(200)
  .regex(shownText, 'must not be blank, nor hold control characters')
  .describe('Its id there as people know it: `octo-org/apollo#42`, `SHOP-101`, `ENG-12`');

/** Where an imported record came from: its tracker, its id there and, when known, its page. */
export const externalRefSchema = z
  .strictObject({
    source: externalSource,
    id: externalId,
    url: z
      .url({ protocol: /^https?$/ })
      .max(2000)
      .optional()
      .describe('Its page in that tracker, when known'),
  })
  .describe('Where it was imported from (another tracker), or null for a record made here');

/** The list filters of an imported family: one external id, and one source. */
export const externalQuery = {
  externalId: externalId
    .optional()
    .describe('Only the record imported with this external id (`SHOP-101`): at most one per source'),
  externalSource: externalSource.optional().describe('Only records imported from this tracker'),
};
