/** The time entries family as typed operations, for embedding without HTTP. */
export {
  createTimeEntry as create,
  deleteTimeEntry as remove,
  getTimeEntry as get,
  listTimeEntries as list,
  type TimeEntryView,
  updateTimeEntry as update,
} from './operations.js';
export type { TimeEntryCreate, TimeEntryListQuery, TimeEntryPatch } from './schema.js';
