/** The context family as typed operations, for embedding without HTTP. */
export {
  type ContextView,
  createContext as create,
  deleteContext as remove,
  getContext as get,
  listContext as list,
} from './operations.js';
export type { ContextCreate, ContextListQuery } from './schema.js';
