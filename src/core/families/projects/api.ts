/** The projects family as typed operations, for embedding without HTTP. */
export {
  createProject as create,
  getProject as get,
  listProjects as list,
  updateProject as update,
  type ProjectView,
} from './operations.js';
export type { ProjectCreate, ProjectPatch, ProjectListQuery } from './schema.js';
