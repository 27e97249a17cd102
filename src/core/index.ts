/** outcome-tracker's core: the whole API as a plain request handler and as typed operations. */
export { createTracker, type RequestLogEntry, type RunAs, type Tracker, type TrackerOptions } from './tracker.js';
export type { TrackerRequest, TrackerResponse } from './pipeline/request.js';
export { maxBodyBytes } from './pipeline/body.js';
export { apiBase } from './pipeline/router.js';
export type { OperationContext } from './pipeline/context.js';
export type { Page } from './pipeline/pagination.js';
export { ApiError, type ErrorCode } from './errors.js';
export type { Clock, Ids, IdPrefix } from './runtime.js';
export { systemClock, randomIds } from './runtime.js';
export type * from './model.js';
export type * from './storage.js';
export { UniqueViolation, VersionMismatch, collectionDefinitions } from './storage.js';
export { routes } from './routes.js';
export * as issues from './families/issues/api.js';
export * as projects from './families/projects/api.js';
export * as tenancy from './tenancy/operations.js';
