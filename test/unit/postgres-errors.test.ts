import { describe, expect, it } from 'vitest';
import { isRetryable, isUnavailable } from '../../src/adapters/postgres/errors.js';

/** An error as node-postgres reports one from the server: a message and its SQLSTATE. */
const serverError = (code: string, message: string) => Object.assign(new Error(message), { code });

describe('PostgreSQL errors: run again, unavailable, or neither', () => {
  it('runs again a transaction that lost a race: serialization, deadlock, a Citus shard changed under it', () => {
    expect(isRetryable(serverError('40001', 'could not serialize access'))).toBe(true);
    expect(isRetryable(serverError('40P01', 'deadlock detected'))).toBe(true);
    expect(isRetryable(serverError('XX000', 'could not find valid entry for shard 102828'))).toBe(true);
    expect(isRetryable(serverError('42P01', 'relation "ot.issues_102345" does not exist'))).toBe(true);
    // Not a shard's name: a real missing table is a bug, not a race.
    expect(isRetryable(serverError('42P01', 'relation "issues" does not exist'))).toBe(false);
    expect(isRetryable(serverError('XX000', 'some other internal error'))).toBe(false);
    expect(isRetryable(serverError('23505', 'duplicate key value'))).toBe(false);
  });

  it('calls unavailable what says the database or a worker does not answer, and nothing about the request', () => {
    const unavailable = [
      serverError(
        '08006',
        'connection to the remote node postgres@127.0.0.1:5441 failed with the following error: Connection refused',
      ),
      serverError('08001', 'could not connect'),
      serverError('57P01', 'terminating connection due to administrator command'),
      serverError('57P03', 'the database system is starting up'),
      serverError('53300', 'sorry, too many clients already'),
      serverError(
        'XX000',
        'connection to the remote node 127.0.0.1:5442 failed: server closed the connection unexpectedly',
      ),
      serverError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'),
      serverError('ECONNRESET', 'read ECONNRESET'),
      new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'),
    ];
    for (const error of unavailable) expect(isUnavailable(error), error.message).toBe(true);
    const not = [
      serverError('23505', 'duplicate key value violates unique constraint'),
      serverError('40001', 'could not serialize access'),
      serverError('42P01', 'relation "issues" does not exist'),
      serverError('XX000', 'could not find valid entry for shard 102828'),
      new Error('storage is closed'),
    ];
    for (const error of not) expect(isUnavailable(error), error.message).toBe(false);
  });
});
