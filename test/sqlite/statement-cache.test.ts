import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/adapters/sqlite/engine/connection.js';
import { StatementCache, statementCacheSize } from '../../src/adapters/sqlite/engine/statement-cache.js';
import { type SqliteStorage, sqliteStorage } from '../../src/adapters/sqlite/index.js';
import { createTracker, eventTypes, projects, type Tracker, tenancy } from '../../src/core/index.js';

describe('the SQLite statement cache under varied query shapes', () => {
  let dir: string;
  let storage: SqliteStorage;
  let tracker: Tracker;
  let token: string;

  const get = async (path: string) => {
    const response = await tracker.handle({
      method: 'GET',
      path,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.status, `${path}: ${response.body}`).toBe(200);
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ot-statements-'));
    storage = sqliteStorage({ filename: join(dir, 'tracker.db') });
    tracker = createTracker({ storage, rateLimit: false });
    const init = await storage.transaction((tx) =>
      tenancy.initWorkspace(
        { tx, ids: tracker.ids, now: Date.now() },
        { slug: 'acme', adminEmail: 'a@example.com' },
      ),
    );
    token = init.token;
    await tracker.run({ workspaceSlug: 'acme' }, (ctx) => projects.create(ctx, { name: 'Apollo' }));
  });
  afterAll(async () => {
    await tracker.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('compiles one statement for every count, order and repetition of signal types', async () => {
    await get(`/api/v1/signals?types=${eventTypes[0]}`);
    await get(`/api/v1/signals?types=${eventTypes[0]}&resourceId=prj_x`);
    const before = storage.statementCount();
    // 2,000 type lists of every length, order and repetition, with and without resourceId.
    const lists = fc.sample(
      fc.tuple(fc.array(fc.constantFrom(...eventTypes), { minLength: 1, maxLength: 40 }), fc.boolean()),
      { numRuns: 2000, seed: 13 },
    );
    for (const [types, byResource] of lists) {
      const query = types.map((type) => `types=${type}`).join('&');
      await get(`/api/v1/signals?${query}${byResource ? '&resourceId=prj_x' : ''}`);
    }
    expect(storage.statementCount()).toBe(before);
  });

  it(`keeps at most ${statementCacheSize} statements and a bounded RSS across 3,000 requests of varied shapes`, async () => {
    const rssBefore = process.memoryUsage().rss;
    const filters = [
      'status=open',
      'severity=high',
      'assigneeId=usr_x',
      'outcomeId=out_x',
      'projectId=prj_x',
    ];
    const shapes = fc.sample(
      fc.tuple(
        fc.subarray(filters),
        fc.boolean(),
        fc.boolean(),
        fc.constantFrom('issues', 'outcomes', 'projects', 'decisions'),
      ),
      { numRuns: 3000, seed: 12 },
    );
    for (const [chosen, since, search, family] of shapes) {
      const params = family === 'issues' ? [...chosen] : [];
      if (since) params.push('updatedSince=2026-01-01T00:00:00Z');
      if (search && family !== 'decisions') params.push(`q=${randomUUID().slice(0, 6)}`);
      await get(`/api/v1/${family}?${params.join('&')}`);
      expect(storage.statementCount()).toBeLessThanOrEqual(statementCacheSize);
    }
    const grownMb = (process.memoryUsage().rss - rssBefore) / 2 ** 20;
    // Unbounded, the cache grew RSS by ~700 MB in 4,000 requests; bounded, far less than 100 MB.
    expect(grownMb).toBeLessThan(100);
  });
});

describe('StatementCache', () => {
  it('keeps at most its capacity, dropping the least recently used statement first', () => {
    const db = openDatabase(':memory:');
    const cache = new StatementCache(db, 10);
    const kept = cache.valuesOf('SELECT 0');
    for (let i = 1; i <= 1000; i++) {
      cache.valuesOf(`SELECT ${i}`);
      // Used again every time: never the least recent, so never dropped.
      expect(cache.valuesOf('SELECT 0')).toBe(kept);
      expect(cache.size).toBeLessThanOrEqual(10);
    }
    expect(cache.size).toBe(10);
    expect(cache.valuesOf('SELECT 1000')).toBe(cache.valuesOf('SELECT 1000'));
    const dropped = cache.valuesOf('SELECT 1');
    expect(dropped.statement.get()).toBe(1);
    expect(cache.size).toBe(10);
    db.close();
  });
});
