import { randomUUID } from 'node:crypto';
import type { TrackerRequest } from '../../src/core/index.js';

/**
 * The request of an issue create, for `tracker.handle`: `body` as JSON, the bearer `token`, and a
 * fresh Idempotency-Key unless `key` is given.
 */
export function createIssueRequest(token: string, body: unknown, key: string = randomUUID()): TrackerRequest {
  return {
    method: 'POST',
    path: '/api/v1/issues',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      'idempotency-key': key,
    },
    body: JSON.stringify(body),
  };
}
