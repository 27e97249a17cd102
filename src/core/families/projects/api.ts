/** The projects family as typed operations, for embedding without HTTP. */
export {
  createProject as create,
  getProject as get,
  listProjects as list,
  type ProjectView,
  updateProject as update,
} from './operations.js';
export type { ProjectCreate, ProjectListQuery, ProjectPatch } from './schema.js';
