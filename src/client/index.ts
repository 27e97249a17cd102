/**
 * outcome-tracker/client: the first-party client of the outcome-tracker API. It imports nothing
 * but web standards (fetch, Web Crypto, streams), so it runs in Node, browsers and edge runtimes.
 */
export type { BatchApi, BatchOperation } from './batch.js';
export { type Client, type ClientOptions, createClient } from './create-client.js';
export { ApiError, ConnectionError, UnexpectedResponseError, VersionConflictError } from './errors.js';
export type {
  Archivable,
  CommentsApi,
  ContextApi,
  DecisionsApi,
  IssueRelationsApi,
  IssuesApi,
  LabelsApi,
  MembersApi,
  OutcomesApi,
  ProjectsApi,
  SignalsApi,
  TimeEntriesApi,
  ViewsApi,
  WebhooksApi,
} from './families.js';
export { timeOrderedKey } from './idempotency-key.js';
export { type InProcessTracker, inProcessFetch } from './in-process.js';
export { Listing } from './listing.js';
export type { Target, WriteOptions } from './resource-api.js';
export type { SignalStreamOptions } from './signal-stream.js';
export type { CallOptions, FetchLike } from './transport.js';
export type * from './types.js';
export {
  type HeadersLike,
  type VerifyWebhookOptions,
  verifyWebhook,
  WebhookVerificationError,
  type WebhookVerificationReason,
} from './verify-webhook.js';
export {
  computeServiceSignature,
  computeStandardSignature,
  parseServiceSignature,
  type SignedBody,
  serviceSignatureMatches,
  serviceSignatureValue,
  standardSignatureValue,
} from './webhook-signature.js';
