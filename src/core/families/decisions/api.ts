/** The decisions family as typed operations, for embedding without HTTP. */
export {
  createDecision as create,
  type DecisionView,
  getDecision as get,
  listDecisions as list,
  updateDecision as update,
} from './operations.js';
export type { DecisionCreate, DecisionListQuery, DecisionPatch } from './schema.js';
