/** The comments family as typed operations, for embedding without HTTP. */
export {
  type CommentView,
  createComment as create,
  deleteComment as remove,
  getComment as get,
  listComments as list,
  updateComment as update,
} from './operations.js';
export type { CommentCreate, CommentListQuery, CommentPatch } from './schema.js';
