import type { Family } from '../families/family.js';
import { families } from '../families/index.js';
import type { TransferFamily } from './family.js';

export type { TransferFamily } from './family.js';

/**
 * The order of the families in an export file as docs/export.md shows it, a record's references
 * before it. A family not named here comes after these, in the family list's order: nothing
 * named here refers to it.
 */
const fileOrder = [
  'members',
  'projects',
  'outcomes',
  'context',
  'decisions',
  'issues',
  'timeEntries',
  'comments',
  'issueRelations',
];

const rank = (family: TransferFamily): number => {
  const at = fileOrder.indexOf(family.family);
  return at === -1 ? fileOrder.length : at;
};

/**
 * Every family an export writes and an import reads, in the order they are written: the families'
 * own `transfer`, ordered as above (a stable sort keeps the list's order among the rest). Comments
 * and issue relations go after what they name; they are stored as the file has them, and the
 * counts they keep on the rows they hang from (commentCount; blockedBy, subIssues, parentId) come
 * with those rows' own records, so they are not counted again.
 */
export const transferFamilies: readonly TransferFamily[] = (families as readonly Family[])
  .flatMap((family): TransferFamily[] => (family.transfer ? [family.transfer] : []))
  .sort((a, b) => rank(a) - rank(b));

/** The family of this name, or undefined. */
export const transferFamily = (name: string): TransferFamily | undefined =>
  transferFamilies.find((f) => f.family === name);
