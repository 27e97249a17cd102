/** Whether SQLite refused for a lock another connection holds. */
export function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

/**
 * A failure of work the whole group shares (the bookkeeping its members left to be written at its
 * end), met by whichever member or hook ran next: it says nothing of that member. The queue takes
 * the group back and runs each member again in a savepoint of its own, where a failure belongs to
 * the member that meets it; `cause` is what failed.
 */
export class GroupWorkFailed extends Error {
  constructor(override readonly cause: unknown) {
    super(`the write group's shared work failed: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
}
