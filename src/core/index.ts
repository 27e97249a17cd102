/** outcome-tracker's core: the whole API as a plain request handler and as typed operations. */

export { ApiError, type ErrorCode } from './errors.js';
export * as issues from './families/issues/api.js';
export * as projects from './families/projects/api.js';
export type * from './model.js';
export { maxBodyBytes } from './pipeline/body.js';
export type { OperationContext } from './pipeline/context.js';
export type { Page } from './pipeline/pagination.js';
export type { TrackerRequest, TrackerResponse } from './pipeline/request.js';
export { apiBase } from './pipeline/router.js';
export { routes } from './routes.js';
export type { Clock, IdPrefix, Ids } from './runtime.js';
export { randomIds, systemClock } from './runtime.js';
export type * from './storage.js';
export { collectionDefinitions, UniqueViolation, VersionMismatch } from './storage.js';
export * as tenancy from './tenancy/operations.js';
export {
  createTracker,
  type RequestLogEntry,
  type RunAs,
  type Tracker,
  type TrackerOptions,
} from './tracker.js';
