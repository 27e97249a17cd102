import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openApiDocument } from '../../src/core/openapi/document.js';
import type { TestServer } from '../http/harness.js';
import { adapterSuites } from '../support/adapters.js';
import { listOperations, resolver, type Schema } from './operations.js';
import { fuzzServer } from './server.js';
import { seedTargets } from './targets.js';

/**
 * Text no value of the API has, where the edge's check of a request's own path, query and headers
 * does not look: the path of a batch's operation, and the ids in a create's JSON body (which a
 * create's transaction may be told ahead, before the body is validated). PostgreSQL's text cannot
 * hold a NUL: each answered 500 there where SQLite answered 400 or 404.
 */
const inUrl: Record<string, string> = {
  NUL: '%00',
  'NUL inside': 'a%00b',
  'overlong NUL': '%C0%80',
  'encoded lone surrogate': '%ED%A0%80',
  'truncated sequence': '%E2%82',
};
const inJson: Record<string, string> = {
  NUL: '\u0000',
  'NUL after a prefix': 'prj_\u0000',
  'lone surrogate': '\ud800',
};

const doc = openApiDocument();
const resolve = resolver(doc);
const operations = listOperations(doc).filter((op) => !op.open && op.template.startsWith('/api/v1/'));
/** What a batch may hold: every change but the batch itself. */
const batchable = operations.filter(
  (op) => ['POST', 'PATCH', 'DELETE'].includes(op.method) && op.template !== '/api/v1/batch',
);
/** Creates: POSTs to a collection, whose body names what they belong to by id. */
const creates = batchable.filter((op) => op.method === 'POST' && !op.template.includes('{'));

/** The body fields of an operation that hold an id (`projectId`, `outcomeId`, …). */
function idFields(body: Schema | null): string[] {
  if (body === null) return [];
  const properties = (resolve(body).properties ?? {}) as Record<string, Schema>;
  return Object.keys(properties).filter((name) => /Id$/.test(name));
}

for (const [adapter, describeSuite] of adapterSuites) {
  describeSuite(`ill-formed ids and operation paths (${adapter.name})`, () => {
    let s: TestServer;
    const unexpected: string[] = [];
    beforeAll(async () => {
      s = await fuzzServer('node', await adapter.create(), unexpected);
    }, 60_000);
    afterAll(async () => {
      await s?.close();
    });

    const post = (path: string, body: unknown) =>
      s.api('POST', path, {
        token: s.tokens.admin,
        body,
        headers: { 'idempotency-key': randomUUID() },
      });

    it('refuses each flaw in every path parameter and the query of every batch operation with 400', async () => {
      const targets = await seedTargets(s);
      const failures: string[] = [];
      let sent = 0;
      for (const op of batchable) {
        const params = op.parameters.filter((p) => p.in === 'path').map((p) => p.name);
        const pathOf = (flawed: string | null, flaw: string) => {
          let path = op.template.slice('/api/v1'.length);
          for (const name of params) {
            const value = targets.pathValues(op.template, name)[0] ?? 'x';
            path = path.replace(`{${name}}`, name === flawed ? flaw : encodeURIComponent(value));
          }
          return flawed === null ? `${path}?q=${flaw}` : path;
        };
        for (const flaw of Object.values(inUrl)) {
          for (const flawed of [...params, null]) {
            const path = pathOf(flawed, flaw);
            const operation = {
              method: op.method,
              path,
              body: { title: 'x' },
              ...(op.method === 'POST' ? {} : { ifMatch: '*' }),
            };
            sent++;
            const res = await post('/api/v1/batch', { operations: [operation] });
            if (res.status !== 400 || res.json?.error !== 'validation_failed')
              failures.push(`${op.method} ${path}: ${res.status} ${res.text.slice(0, 200)}`);
          }
        }
      }
      expect(failures.slice(0, 20)).toEqual([]);
      expect(sent).toBeGreaterThan(batchable.length * Object.keys(inUrl).length);
      expect(unexpected).toEqual([]);
    }, 120_000);

    it('refuses each flaw in every id field of every create, alone and in a batch, with 400', async () => {
      const failures: string[] = [];
      let sent = 0;
      for (const op of creates) {
        const path = op.template.slice('/api/v1'.length);
        for (const field of idFields(op.body)) {
          for (const flaw of Object.values(inJson)) {
            const body = { projectId: s.ws.projectId, title: 'x', [field]: flaw };
            sent++;
            const alone = await post(op.template, body);
            if (alone.status !== 400)
              failures.push(`${op.method} ${path} ${field}: ${alone.status} ${alone.text.slice(0, 200)}`);
            const batched = await post('/api/v1/batch', { operations: [{ method: 'POST', path, body }] });
            if (batched.status !== 400)
              failures.push(`batch ${path} ${field}: ${batched.status} ${batched.text.slice(0, 200)}`);
          }
        }
      }
      expect(failures.slice(0, 20)).toEqual([]);
      // Issues, outcomes, decisions, comments, context, time entries, relations at least.
      expect(sent).toBeGreaterThan(7 * Object.keys(inJson).length);
      expect(unexpected).toEqual([]);
    }, 120_000);
  });
}
