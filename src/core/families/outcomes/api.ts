/** The outcomes family as typed operations, for embedding without HTTP. */
export {
  archiveOutcome as archive,
  createOutcome as create,
  deleteOutcome as remove,
  getOutcome as get,
  listOutcomes as list,
  type OutcomeView,
  unarchiveOutcome as unarchive,
  updateOutcome as update,
} from './operations.js';
export type { OutcomeCreate, OutcomeListQuery, OutcomePatch } from './schema.js';
