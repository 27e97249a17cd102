import { randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import type { PostgresStorage } from '../../src/adapters/postgres/index.js';
import { createTracker, projects, tenancy } from '../../src/core/index.js';
import { createIssueRequest } from '../support/issue-request.js';
import { describeOnPostgres, tempPostgresStorage } from '../support/postgres.js';

/** The same requests through a tracker on `storage`: what the answers say, numbers and all. */
async function scenario(storage: PostgresStorage) {
  const tracker = createTracker({ storage });
  try {
    const slug = `pool-${randomBytes(3).toString('hex')}`;
    const init = await storage.transaction((tx) =>
      tenancy.initWorkspace({ tx, ids: tracker.ids, now: Date.now() }, { slug, adminEmail: 'p@example.com' }),
    );
    const project = await tracker.run({ workspaceSlug: slug }, (ctx) =>
      projects.create(ctx, { name: 'Pool' }),
    );
    const created = [];
    for (const title of ['One', 'Two', 'Three']) {
      const answer = await tracker.handle(createIssueRequest(init.token, { projectId: project.id, title }));
      expect(answer.status).toBe(201);
      created.push(JSON.parse(String(answer.body)) as Record<string, unknown>);
    }
    const get = async (path: string) => {
      const answer = await tracker.handle({
        method: 'GET',
        path,
        headers: { authorization: `Bearer ${init.token}` },
      });
      expect(answer.status).toBe(200);
      return { body: JSON.parse(String(answer.body)) as Record<string, unknown>, headers: answer.headers };
    };
    const issues = await get('/api/v1/issues');
    const signals = await get('/api/v1/signals');
    // The rate limiter counts this token's requests in the database (storage.rateLimits).
    const remaining = Number(signals.headers?.['X-RateLimit-Remaining']);
    return { created, issues: issues.body, signals: signals.body, remaining };
  } finally {
    await tracker.close();
  }
}

/** Every number of an answer where it is, ids and times aside: what must read alike on any pool. */
function numbersOf(value: unknown, path = ''): Record<string, unknown> {
  if (Array.isArray(value)) return Object.assign({}, ...value.map((v, i) => numbersOf(v, `${path}[${i}]`)));
  if (value === null || typeof value !== 'object') return {};
  const found: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (typeof v === 'number' && !/At$|^at$|time/i.test(key)) found[`${path}.${key}`] = v;
    Object.assign(found, numbersOf(v, `${path}.${key}`));
  }
  return found;
}

/**
 * A pool the embedder made (`postgresStorage({ pool })`) keeps node-postgres's default parsers,
 * which give int8 as text: the adapter parses what it reads itself, so the API answers with the
 * same numbers as on the storage's own pool.
 */
describeOnPostgres('PostgreSQL storage on a pool the embedder made', () => {
  it.each(['plain', 'pipelining'] as const)(
    'answers with numbers where they belong, as on its own pool (%s pool)',
    async (userPool) => {
      const own = await tempPostgresStorage();
      const theirs = await tempPostgresStorage({ userPool });
      try {
        const expected = await scenario(own);
        const got = await scenario(theirs);
        expect(got.created.map((issue) => issue.number)).toEqual([1, 2, 3]);
        const sequences = (got.signals.data as Record<string, unknown>[]).map((event) => event.sequence);
        expect(sequences.length).toBeGreaterThan(0);
        for (const sequence of sequences) expect(typeof sequence).toBe('number');
        expect(got.remaining).toBe(expected.remaining);
        expect(numbersOf(got.created)).toEqual(numbersOf(expected.created));
        expect(numbersOf(got.issues)).toEqual(numbersOf(expected.issues));
        expect(numbersOf(got.signals)).toEqual(numbersOf(expected.signals));
      } finally {
        await Promise.all([own.close(), theirs.close()]);
      }
    },
  );
});
