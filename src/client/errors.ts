import type { Problem } from './types.js';

/**
 * An answer of the API that is not a success: the problem+json body, typed. `code` is the body's
 * `error` member (`version_conflict`, `invalid_transition`, …); the extras of each code (`allowed`,
 * `issues`, `currentVersion`, …) are on `problem` and, for the common ones, on the error itself.
 */
export class ApiError extends Error {
  /** The HTTP status. */
  readonly status: number;
  /** The stable error code (the body's `error` member), e.g. `version_conflict`. */
  readonly code: Problem['error'];
  /** What went wrong with this request, for people. */
  readonly detail: string;
  /** The whole problem+json body, with every extra member of its code. */
  readonly problem: Problem;
  /** The request's `X-Request-Id`: quote it when reporting a 500. */
  readonly requestId: string | null;
  /** The current `ETag` a `409 version_conflict` carries. */
  readonly etag: string | null;
  /** Seconds the server asked to wait (`Retry-After`), when it said. */
  readonly retryAfterSeconds: number | null;
  /** `invalid_transition`: the statuses reachable from the current one. */
  readonly allowed: Problem['allowed'];
  /** `validation_failed`: every bad value. */
  readonly issues: Problem['issues'];

  constructor(problem: Problem, headers: Headers) {
    super(`${problem.status} ${problem.error}: ${problem.detail}`);
    this.name = 'ApiError';
    this.status = problem.status;
    this.code = problem.error;
    this.detail = problem.detail;
    this.problem = problem;
    this.requestId = headers.get('x-request-id');
    this.etag = headers.get('etag');
    this.retryAfterSeconds = parseRetryAfterSeconds(headers.get('retry-after'));
    this.allowed = problem.allowed;
    this.issues = problem.issues;
  }
}

/**
 * `modify` gave up: every attempt lost the race to another writer (`409 version_conflict`).
 * `attempts` says how many reads and writes it made.
 */
export class VersionConflictError extends ApiError {
  readonly attempts: number;

  constructor(last: ApiError, attempts: number) {
    const headers = new Headers();
    if (last.etag !== null) headers.set('etag', last.etag);
    if (last.requestId !== null) headers.set('x-request-id', last.requestId);
    super(last.problem, headers);
    this.name = 'VersionConflictError';
    this.attempts = attempts;
    this.message = `${this.message} (gave up after ${attempts} attempts)`;
  }
}

/**
 * No answer came: the connection failed or the attempt timed out, on the last attempt allowed.
 * For a create this does not mean nothing was created: retry it with the same `idempotencyKey`.
 */
export class ConnectionError extends Error {
  /** Attempts made, the first included. */
  readonly attempts: number;
  /** Whether the last attempt ran out of `timeoutMs`. */
  readonly timedOut: boolean;

  constructor(cause: unknown, attempts: number, timedOut: boolean) {
    super(
      timedOut
        ? `The request timed out (${attempts} attempt${attempts === 1 ? '' : 's'})`
        : `The request failed before an answer came (${attempts} attempt${attempts === 1 ? '' : 's'})`,
      { cause },
    );
    this.name = 'ConnectionError';
    this.attempts = attempts;
    this.timedOut = timedOut;
  }
}

/** An answer that is not the API's: not JSON, or an error without a problem+json body. */
export class UnexpectedResponseError extends Error {
  readonly status: number;
  readonly body: string;

  constructor(status: number, body: string) {
    super(`Unexpected ${status} answer: ${body.slice(0, 200)}`);
    this.name = 'UnexpectedResponseError';
    this.status = status;
    this.body = body;
  }
}

/** `Retry-After` as seconds: delta-seconds, or an HTTP date counted from now. */
export function parseRetryAfterSeconds(value: string | null, nowMs: number = Date.now()): number | null {
  if (value === null || value.trim() === '') return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - nowMs) / 1000));
}
