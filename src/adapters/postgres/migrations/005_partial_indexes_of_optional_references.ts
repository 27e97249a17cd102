/**
 * The list indexes of optional references (an issue's outcome and assignee, an outcome's owner,
 * a decision's outcome and successor, a time entry's issue) leave out the rows where the
 * reference is null: no list filters by "none", and `column = $1` (a strict operator) implies
 * `column IS NOT NULL`, so the planner uses them as before, while an insert without the
 * reference writes no entry in them.
 * Its SQL is the same text on both adapters, kept once (shared/migrations), and frozen.
 */

export { partialIndexesOfOptionalReferences } from '../../shared/migrations/optional-reference-indexes.js';
