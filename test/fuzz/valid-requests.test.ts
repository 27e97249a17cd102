import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../../src/core/openapi/document.js';
import { hosts, type TestServer } from '../http/harness.js';
import { tempSqliteStorage } from '../support/adapters.js';
import { listOperations, resolver } from './operations.js';
import type { FuzzRequest, FuzzTargets } from './request-arbitraries.js';
import { send } from './send.js';
import { fuzzServer } from './server.js';
import { seedTargets } from './targets.js';
import { validRequestsFor } from './valid-requests.js';

/**
 * The OpenAPI document, checked against the server from the other side: requests generated to be
 * valid by the document alone are accepted, or refused only for the state they meet (a 404 for
 * something a DELETE of the run removed, a 409 for a conflict, a duplicate or a transition the
 * status forbids, a 403 for another member's time entry). A 400 or a 5xx means the document
 * promises what the server refuses. FUZZ_RUNS and FUZZ_SEED as in openapi-fuzz.test.ts.
 */
const runs = Number(process.env.FUZZ_RUNS ?? 12);
const seed = Number(process.env.FUZZ_SEED ?? 20261127);

const doc = openApiDocument();
const resolve = resolver(doc);
const operations = listOperations(doc);
/** Answers a valid request may get from the state it meets. */
const stateRefusals = new Set([403, 404, 409, 412, 422]);

describe.each(hosts)('requests the OpenAPI document says are valid, through the %s host', (host) => {
  let s: TestServer;
  let targets: FuzzTargets;
  const unexpected: string[] = [];
  beforeAll(async () => {
    s = await fuzzServer(host, await tempSqliteStorage(), unexpected);
    targets = await seedTargets(s);
  }, 60_000);
  afterAll(async () => {
    await s?.close();
  });

  it.each(operations.map((op, index) => [`${op.method} ${op.template}`, op, index] as const))(
    '%s: accepts them, or refuses them only for state',
    async (_, op, index) => {
      const check = async (req: FuzzRequest) => {
        const res = await send(s.url, req);
        if (res.status < 300 || res.status === 304 || stateRefusals.has(res.status)) return;
        throw new Error(
          `${req.method} ${req.path}\n  headers ${JSON.stringify(req.headers)}\n  body ${req.body?.toString() ?? '(none)'}\n  → ${res.status} ${res.text.slice(0, 400)}`,
        );
      };
      await fc.assert(fc.asyncProperty(validRequestsFor(op, resolve, targets), check), {
        numRuns: runs,
        seed: seed + index,
        // The first failure as it was generated: shrinking drops optional parts, and a valid
        // request without a required part is no longer the request that failed.
        endOnFailure: true,
      });
    },
  );

  it('threw nothing unexpected', () => {
    expect(unexpected).toEqual([]);
  });
});
