/** The query language: `status:open label:bug "checkout fails"` as a list's filters (docs/api.md). */
export {
  andFilters,
  filtersOfQuery,
  type QueryContext,
  type QueryFilters,
  queryFilters,
  UnmergeableFilters,
} from './filters.js';
export { type KeyRule, type QueryResource, queryKeys } from './keys.js';
export { maxQueryLength, parseQuery, QuerySyntaxError, type QueryTerm } from './parse.js';
