import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../../src/core/openapi/document.js';
import { hosts, type TestServer } from '../http/harness.js';
import { tempSqliteStorage } from '../support/adapters.js';
import { violations } from './invariants.js';
import { listOperations, resolver } from './operations.js';
import { type FuzzRequest, type FuzzTargets, requestsFor } from './request-arbitraries.js';
import { send } from './send.js';
import { fuzzServer } from './server.js';
import { seedTargets } from './targets.js';

/**
 * Every operation of the OpenAPI document, fuzzed with requests built from its own parameters and
 * request body schema, hostile values mixed in, through both hosts over real HTTP on a SQLite file.
 * A fixed seed and a few runs an operation keep CI short; FUZZ_RUNS=2000 (and FUZZ_SEED) make a
 * long local run, FUZZ_COLLECT=1 keeps going past violations and lists them all at the end.
 */
const runs = Number(process.env.FUZZ_RUNS ?? 8);
const seed = Number(process.env.FUZZ_SEED ?? 20261123);
const collect = process.env.FUZZ_COLLECT === '1';

const doc = openApiDocument();
const resolve = resolver(doc);
const operations = listOperations(doc);

describe.each(hosts)('every documented operation, fuzzed through the %s host', (host) => {
  let s: TestServer;
  let targets: FuzzTargets;
  const unexpected: string[] = [];
  const collected: string[] = [];
  const statuses = new Map<number, number>();
  let total = 0;

  beforeAll(async () => {
    s = await fuzzServer(host, await tempSqliteStorage(), unexpected);
    targets = await seedTargets(s);
  });
  afterAll(async () => {
    if (process.env.FUZZ_REPORT === '1') {
      const byStatus = [...statuses].sort(([a], [b]) => a - b).map(([k, v]) => `${k}:${v}`);
      console.log(`${host}: ${operations.length} operations, ${total} cases, statuses ${byStatus.join(' ')}`);
      console.log(`${host}: ${collected.length} violations\n${collected.slice(0, 50).join('\n\n')}`);
    }
    await s?.close();
  });

  it('finds the operations to fuzz in the document', () => {
    expect(operations.length).toBeGreaterThanOrEqual(47);
    expect(new Set(operations.map((op) => op.operationId)).size).toBe(operations.length);
  });

  it.each(operations.map((op, index) => [`${op.method} ${op.template}`, op, index] as const))(
    '%s: answers within the time limit, never 5xx, errors as problem+json with the rate-limit headers',
    async (_, op, index) => {
      let cases = 0;
      const check = async (req: FuzzRequest) => {
        cases++;
        total++;
        let found: string[];
        try {
          const res = await send(s.url, req);
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          found = violations(req, res);
        } catch (error) {
          found = [String(error)];
        }
        if (found.length === 0) return;
        const report = `${req.method} ${req.path.slice(0, 300)}\n  headers ${JSON.stringify(req.headers).slice(0, 300)}\n  body ${req.body?.subarray(0, 300).toString('latin1') ?? '(none)'}\n  ${found.join('\n  ')}`;
        if (!collect) throw new Error(report);
        collected.push(report);
      };
      await fc.assert(fc.asyncProperty(requestsFor(op, resolve, targets), check), {
        numRuns: runs,
        // One stream an operation: the same seed everywhere would repeat Idempotency-Keys across them.
        seed: seed + index,
        endOnFailure: process.env.FUZZ_SHRINK !== '1',
      });
      expect(cases).toBeGreaterThan(0);
    },
  );

  it('is alive after the run: /healthz answers and nothing unexpected was thrown', async () => {
    const res = await s.api('GET', '/healthz');
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ status: 'ok' });
    expect(unexpected).toEqual([]);
  });
});
