/** outcome-tracker's core: the whole API as a plain request handler and as typed operations. */

export {
  type CorsOptions,
  corsAllowedHeaders,
  corsAllowedMethods,
  corsExposedHeaders,
} from './edge/cors.js';
export type { FetchRequestInfo } from './edge/fetch.js';
export { ApiError, type ErrorCode } from './errors.js';
export type {
  ExtensionHost,
  ExtensionRequest,
  ExtensionRoute,
  MountedExtension,
  TrackerExtension,
} from './extension.js';
export { collectionDefinitions } from './families/collections.js';
export * as comments from './families/comments/api.js';
export * as context from './families/context/api.js';
export * as decisions from './families/decisions/api.js';
export { dumpTables } from './families/dump-tables.js';
export { type EventType, eventTypes } from './families/events.js';
export * as issues from './families/issues/api.js';
export * as members from './families/members/api.js';
export * as outcomes from './families/outcomes/api.js';
export * as projects from './families/projects/api.js';
export * as relations from './families/relations/api.js';
export * as timeEntries from './families/time-entries/api.js';
export * as views from './families/views/api.js';
export * as webhooks from './families/webhooks/api.js';
export {
  type McpEndpoint,
  type McpEndpointFactory,
  type McpHttpRequest,
  mcpPath,
} from './mcp-endpoint.js';
export type * from './model.js';
export type { Principal } from './pipeline/auth.js';
export { maxBodyBytes } from './pipeline/body.js';
export type { OperationContext } from './pipeline/context.js';
export type { Page } from './pipeline/pagination.js';
export {
  memoryRateLimitStore,
  type RateLimitDecision,
  type RateLimitOptions,
  type RateLimitStore,
} from './pipeline/rate-limit.js';
export type { AfterCommitDeps, Reply } from './pipeline/reply.js';
export type { ParsedRequest, TrackerRequest, TrackerResponse } from './pipeline/request.js';
export { apiBase } from './pipeline/router.js';
export { type ChangeFeed, changeFeed, type PublicRoute } from './pipeline/runtime.js';
export {
  memoryStorageTimeStore,
  type StorageTimeBudgetOptions,
  type StorageTimeStore,
  storageTimeActiveMs,
  storageTimeSettleMs,
} from './pipeline/storage-time.js';
export type * from './port/index.js';
export { StorageUnavailable, TransientConflict, UniqueViolation, VersionMismatch } from './port/index.js';
export { routes } from './routes.js';
export type { Clock, IdPrefix, Ids } from './runtime.js';
export { randomIds, systemClock } from './runtime.js';
export {
  type EnsuredWorkspace,
  type EnsureWorkspaceHost,
  type EnsureWorkspaceInput,
  ensureWorkspace,
} from './tenancy/ensure-workspace.js';
export * as tenancy from './tenancy/operations.js';
export {
  createTracker,
  type RequestLogEntry,
  type RunAs,
  type Tracker,
  type TrackerOptions,
} from './tracker.js';
export {
  type ExportOptions,
  type ExportProgress,
  type ExportResult,
  exportWorkspace,
} from './transfer/export.js';
export { type TransferFamily, transferFamilies } from './transfer/families.js';
export { exportFormatName, exportFormatVersion } from './transfer/format.js';
export { formatSource, type ImportFormat, importFormats, sniffFormat } from './transfer/formats.js';
export { jsonlSource, type NumberedLine } from './transfer/import-jsonl.js';
export {
  describeProblem,
  type ImportOptions,
  type ImportProblem,
  type ImportReport,
  ImportWriteFailed,
  runImport,
} from './transfer/import-run.js';
export {
  type AttemptEvent,
  createDispatcher,
  type Dispatcher,
  type DispatcherOptions,
} from './webhooks/dispatcher.js';
export type { WebhookRequest, WebhookResult, WebhookSender } from './webhooks/sender.js';
export {
  computeSignature,
  eventIdHeader,
  signatureHeader,
  signatureHeaderValue,
  type VerifyResult,
  verifySignature,
} from './webhooks/signature.js';
export { checkWebhookUrl, isForbiddenAddress } from './webhooks/ssrf.js';
