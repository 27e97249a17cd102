/**
 * Runs async jobs one at a time, in arrival order. Adapters that own a single connection use
 * it so that two transactions never interleave across an `await` (better-sqlite3's own
 * `transaction()` would commit at the first `await`).
 */
export function serialQueue(): <T>(job: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return (job) => {
    const run = tail.then(job);
    // The next job waits for this one to settle, whether it succeeded or not.
    tail = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  };
}
