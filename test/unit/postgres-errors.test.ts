import { describe, expect, it } from 'vitest';
import { isRetryable, isUnavailable, uniqueConstraint } from '../../src/adapters/postgres/errors.js';

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

  it("names the unique constraint a violation broke as the table's, on PostgreSQL and on either side of Citus", () => {
    const rules = { projects_key: 'project.key', idempotency_keys_pkey: 'idempotency.key' };
    const violation = (constraint: string | undefined, name: string) =>
      Object.assign(serverError('23505', `duplicate key value violates unique constraint "${name}"`), {
        constraint,
      });
    // Plain PostgreSQL: the field.
    expect(uniqueConstraint(violation('projects_key', 'projects_key'), rules)).toBe('projects_key');
    // A Citus worker that ran the statement on its own shard (a process connected to it): the
    // field names the shard's copy.
    expect(uniqueConstraint(violation('projects_key_102008', 'projects_key_102008'), rules)).toBe(
      'projects_key',
    );
    // A Citus coordinator passing a worker's error on: the message only.
    expect(uniqueConstraint(violation(undefined, 'idempotency_keys_pkey_102460'), rules)).toBe(
      'idempotency_keys_pkey',
    );
    // Not a rule's.
    expect(uniqueConstraint(violation(undefined, 'other_thing_1'), rules)).toBeUndefined();
    expect(uniqueConstraint(violation('other_thing', 'other_thing'), rules)).toBe('other_thing');
  });
});
