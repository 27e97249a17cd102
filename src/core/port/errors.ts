/**
 * Raised by `Storage.transaction` when an adapter that re-runs transactions which lost a race
 * with another (a serialization failure, a deadlock) has re-run one as often as it may. Nothing
 * of it was committed; the caller may try again a little later (HTTP: 503 transient_conflict).
 */
export class TransientConflict extends Error {
  constructor(
    readonly attempts: number,
    options?: { cause?: unknown },
  ) {
    super(`the transaction conflicted with concurrent ones ${attempts} times in a row`, options);
    this.name = 'TransientConflict';
  }
}

/** Raised by `collection.update` when the stored version is not the expected one. */
export class VersionMismatch extends Error {
  constructor(readonly current: number | null) {
    super('version mismatch');
    this.name = 'VersionMismatch';
  }
}

/** Raised by an insert that breaks a uniqueness rule (a workspace slug, a project key…). */
export class UniqueViolation extends Error {
  constructor(readonly what: string) {
    super(`unique violation: ${what}`);
    this.name = 'UniqueViolation';
  }
}

/**
 * Raised by a storage whose database (or a node of it holding the rows a request needs) does
 * not answer: a connection refused, broken or timed out, a server shutting down. Nothing of the
 * transaction is known to have been committed unless it failed at its COMMIT; the caller may try
 * again a little later (HTTP: 503 service_unavailable with Retry-After), with the same
 * Idempotency-Key for a create.
 */
export class StorageUnavailable extends Error {
  constructor(options?: { cause?: unknown }) {
    const cause = options?.cause;
    super(`storage unavailable: ${cause instanceof Error ? cause.message : String(cause)}`, options);
    this.name = 'StorageUnavailable';
  }
}
