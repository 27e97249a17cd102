/** The outcomes family as typed operations, for embedding without HTTP. */
export {
  createOutcome as create,
  deleteOutcome as remove,
  getOutcome as get,
  listOutcomes as list,
  type OutcomeView,
  updateOutcome as update,
} from './operations.js';
export type { OutcomeCreate, OutcomeListQuery, OutcomePatch } from './schema.js';
