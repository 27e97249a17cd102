/** Issue relations as typed operations, for embedding without HTTP. */
export {
  createRelation as create,
  deleteRelation as remove,
  listRelations as list,
  type RelationView,
} from './operations.js';
export type { RelationCreate, RelationListQuery } from './schema.js';
