/** The saved views family as typed operations, for embedding without HTTP. */
export {
  createView as create,
  deleteView as remove,
  getView as get,
  listViewItems as items,
  listViews as list,
  type SavedViewView,
  updateView as update,
} from './operations.js';
export type { ViewCreate, ViewItemsQuery, ViewListQuery, ViewPatch } from './schema.js';
