/**
 * The one error type of the core. Handlers and pipeline steps throw it; the pipeline renders
 * it once as RFC 9457 problem details carrying the seed's `error` code. Hosts never format errors.
 */

export type ErrorCode =
  | 'validation_failed'
  | 'invalid_json'
  | 'invalid_cursor'
  | 'idempotency_key_missing'
  | 'idempotency_key_invalid'
  | 'unauthorized'
  | 'insufficient_scope'
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'version_conflict'
  | 'idempotency_key_in_use'
  | 'resource_in_use'
  | 'already_member'
  | 'has_password'
  | 'last_admin'
  | 'delivery_in_flight'
  | 'subscription_limit_reached'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'idempotency_key_reused'
  | 'invalid_transition'
  | 'invalid_reference'
  | 'self_relation'
  | 'relation_exists'
  | 'relation_cycle'
  | 'second_parent'
  | 'precondition_required'
  | 'rate_limited'
  | 'too_many_streams'
  | 'malformed_request'
  | 'request_timeout'
  | 'headers_too_large'
  | 'internal_error'
  | 'service_unavailable'
  | 'transient_conflict';

const titles: Record<ErrorCode, string> = {
  validation_failed: 'Validation failed',
  invalid_json: 'Malformed JSON body',
  invalid_cursor: 'Invalid cursor',
  idempotency_key_missing: 'Idempotency-Key header required',
  idempotency_key_invalid: 'Idempotency-Key must be a UUID',
  unauthorized: 'Unauthorized',
  insufficient_scope: 'Insufficient scope',
  forbidden: 'Forbidden',
  not_found: 'Not found',
  method_not_allowed: 'Method not allowed',
  version_conflict: 'Version conflict',
  idempotency_key_in_use: 'Idempotency key in use',
  resource_in_use: 'Resource in use',
  already_member: 'Already a member',
  has_password: 'Has a password',
  last_admin: 'Last admin',
  delivery_in_flight: 'Delivery in flight',
  subscription_limit_reached: 'Subscription limit reached',
  payload_too_large: 'Payload too large',
  unsupported_media_type: 'Unsupported media type',
  idempotency_key_reused: 'Idempotency key reused',
  invalid_transition: 'Invalid transition',
  invalid_reference: 'Invalid reference',
  self_relation: 'An issue cannot be related to itself',
  relation_exists: 'Relation exists',
  relation_cycle: 'Relation cycle',
  second_parent: 'Second parent',
  precondition_required: 'Precondition required',
  rate_limited: 'Too many requests',
  too_many_streams: 'Too many event streams',
  malformed_request: 'Malformed HTTP request',
  request_timeout: 'Request timeout',
  headers_too_large: 'Request headers too large',
  internal_error: 'Internal error',
  service_unavailable: 'Service unavailable',
  transient_conflict: 'Transient conflict',
};

/** Every error code, for the API description. */
export const errorCodes = Object.keys(titles) as ErrorCode[];

export interface ValidationIssue {
  /** Where the value was: the body, the query string, a header or the path. */
  in: 'body' | 'query' | 'header' | 'path';
  /** Dot-separated path inside that location, e.g. `labels.0`; empty for the whole value. */
  path: string;
  message: string;
  /** A term of a `query` (the query language) that is wrong, as written. */
  term?: string;
  /** Where that term begins in the query, counted in UTF-16 code units from 0. */
  offset?: number;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    readonly detail: string,
    /** Extra members of the problem body (e.g. `allowed` for invalid_transition). */
    readonly extras: Record<string, unknown> = {},
    /** Extra response headers (e.g. `ETag` on a version conflict). */
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
    this.name = 'ApiError';
  }

  get title(): string {
    return titles[this.code];
  }

  /** The problem+json body. */
  toProblem(): Record<string, unknown> {
    return {
      type: `https://outcome-tracker.dev/problems/${this.code.replaceAll('_', '-')}`,
      title: this.title,
      status: this.status,
      detail: this.detail,
      error: this.code,
      ...this.extras,
    };
  }
}

export const validationFailed = (issues: ValidationIssue[]): ApiError =>
  new ApiError(
    400,
    'validation_failed',
    issues.map((i) => `${i.in}${i.path ? `.${i.path}` : ''}: ${i.message}`).join('; '),
    { issues },
  );

export const notFound = (what = 'resource'): ApiError =>
  new ApiError(404, 'not_found', `No ${what} with that id exists in this workspace.`);

export const invalidReference = (field: string, detail: string): ApiError =>
  new ApiError(422, 'invalid_reference', detail, { field });
