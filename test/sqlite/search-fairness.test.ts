import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqliteStorage } from '../../src/adapters/sqlite/index.js';
import { createTracker, projects, type Tracker, tenancy } from '../../src/core/index.js';
import { createIssueRequest } from '../support/issue-request.js';
import { queryPlan } from '../support/query-plan.js';

/**
 * Fairness of search on SQLite: what one tenant's searches cost, counted in the statements and
 * query plans the database runs, not in time. The bound: a search is refused below 3 characters
 * before any collection is read; from 3 characters it is an index lookup (the trigram table, then
 * rows by primary key), never a scan of the table; another tenant's reads walk only that
 * tenant's index range, so they cost the same however much the first tenant searches.
 */
describe('search fairness on SQLite', () => {
  let dir: string;
  let tracker: Tracker;
  let reader: Database.Database;
  const statements: string[] = [];
  const tokens: Record<'heavy' | 'quiet', string> = { heavy: '', quiet: '' };

  const get = async (who: keyof typeof tokens, path: string) => {
    statements.length = 0;
    const response = await tracker.handle({
      method: 'GET',
      path,
      headers: { authorization: `Bearer ${tokens[who]}` },
    });
    return {
      status: response.status,
      body: JSON.parse(String(response.body ?? 'null')),
      sql: [...statements],
    };
  };

  const plan = (sql: string) => queryPlan(reader, sql);
  const collectionReads = (sql: string[]) => sql.filter((s) => /\bFROM (issues|outcomes|projects)\b/.test(s));

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ot-fairness-'));
    const filename = join(dir, 'tracker.db');
    const storage = sqliteStorage({ filename, onStatement: (sql) => statements.push(sql) });
    tracker = createTracker({ storage, rateLimit: false });
    for (const who of ['heavy', 'quiet'] as const) {
      const init = await storage.transaction((tx) =>
        tenancy.initWorkspace(
          { tx, ids: tracker.ids, now: Date.now() },
          { slug: who, adminEmail: `${who}@example.com` },
        ),
      );
      tokens[who] = init.token;
      const project = await tracker.run({ workspaceSlug: who }, (ctx) => projects.create(ctx, { name: who }));
      const count = who === 'heavy' ? 3000 : 30;
      for (let i = 0; i < count; i++) {
        const response = await tracker.handle(
          createIssueRequest(init.token, {
            projectId: project.id,
            title: `${who} issue ${i} about the login page`,
          }),
        );
        expect(response.status).toBe(201);
      }
    }
    reader = new Database(filename, { readonly: true });
  }, 120_000);
  afterAll(async () => {
    reader.close();
    await tracker.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses 1- and 2-character searches before reading any collection row', async () => {
    for (const q of ['a', 'lo', 'é', ' x ', '😀😀']) {
      const result = await get('heavy', `/api/v1/issues?q=${encodeURIComponent(q)}`);
      expect(result.status).toBe(400);
      expect(result.body.error).toBe('validation_failed');
      expect(result.body.issues).toEqual([
        {
          in: 'query',
          path: 'q',
          message: 'needs at least 3 characters: shorter text cannot use the search index',
        },
      ]);
      expect(collectionReads(result.sql)).toEqual([]);
    }
  });

  it('answers every accepted search from the trigram index, never by scanning the table', async () => {
    for (const q of ['log', 'login page', 'issue 29', 'ISSUE 2999']) {
      const result = await get('heavy', `/api/v1/issues?q=${encodeURIComponent(q)}&limit=10`);
      expect(result.status).toBe(200);
      // Writing rows still waiting for the index reads them by key (never a scan); the
      // statements that answer the search read through the index.
      const indexing = collectionReads(result.sql).filter((sql) => /^INSERT INTO \w+_search\b/.test(sql));
      for (const sql of indexing) {
        expect(
          plan(sql).filter((step) => /^SCAN (issues|outcomes|projects)\b(?!_search)/.test(step)),
        ).toEqual([]);
      }
      const reads = collectionReads(result.sql).filter((sql) => !indexing.includes(sql));
      expect(reads.length).toBeGreaterThan(0);
      for (const sql of reads) {
        const steps = plan(sql);
        expect(
          steps.some((step) => /issues_search VIRTUAL TABLE INDEX/.test(step)),
          steps.join('\n'),
        ).toBe(true);
        expect(
          steps.filter((step) => /^SCAN issues\b(?!_search)/.test(step)),
          steps.join('\n'),
        ).toEqual([]);
      }
    }
  });

  it("reads a rare word's few matches by key, and walks the workspace newest first for a common one", async () => {
    // 3,000 issues: a walk reads the workspace's index entries; reading a match by key costs sixteen.
    const rare = await get('heavy', `/api/v1/issues?q=${encodeURIComponent('ISSUE 2999')}&limit=10`);
    expect(rare.body.total).toBe(1);
    const common = await get('heavy', `/api/v1/issues?q=${encodeURIComponent('login page')}&limit=10`);
    expect(common.body.total).toBe(3000);
    const reads = (result: { sql: string[] }) =>
      collectionReads(result.sql).filter((sql) => /^SELECT (data|COUNT)/.test(sql));
    expect(reads(rare).length).toBeGreaterThan(0);
    for (const sql of reads(rare)) {
      const steps = plan(sql).join('\n');
      expect(steps).toContain('SEARCH issues USING INTEGER PRIMARY KEY (rowid=?)');
      expect(steps).not.toContain('issues_recent');
    }
    expect(reads(common).length).toBeGreaterThan(0);
    for (const sql of reads(common)) {
      const steps = plan(sql).join('\n');
      expect(steps).toMatch(/USING (COVERING )?INDEX issues_\w+ \(workspace_id=\?\)/);
      expect(steps).not.toContain('INTEGER PRIMARY KEY');
    }
  });

  it('pages through the matches read by key, newest first, each once, with the total counted the same way', async () => {
    // "issue 29": heavy issues 29, 290–299 and 2900–2999, and quiet's issue 29 (another workspace).
    const expected = ['29', ...Array.from({ length: 10 }, (_, i) => `29${i}`)]
      .concat(Array.from({ length: 100 }, (_, i) => `29${String(i).padStart(2, '0')}`))
      .map((n) => `heavy issue ${n} about the login page`);
    const seen: { id: string; createdAt: string; title: string }[] = [];
    let path = `/api/v1/issues?q=${encodeURIComponent('issue 29')}&limit=10`;
    for (;;) {
      const page = await get('heavy', path);
      expect(page.status).toBe(200);
      expect(page.body.total).toBe(111);
      for (const sql of collectionReads(page.sql).filter((s) => /^SELECT (data|COUNT)/.test(s))) {
        expect(plan(sql).join('\n')).toContain('SEARCH issues USING INTEGER PRIMARY KEY (rowid=?)');
      }
      seen.push(...page.body.data);
      if (!page.body.nextCursor) break;
      path = `/api/v1/issues?q=${encodeURIComponent('issue 29')}&limit=10&cursor=${page.body.nextCursor}`;
    }
    expect(seen.map((issue) => issue.title).sort()).toEqual([...expected].sort());
    const newestFirst = [...seen].sort((a, b) =>
      a.createdAt === b.createdAt ? (a.id < b.id ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1,
    );
    expect(seen.map((issue) => issue.id)).toEqual(newestFirst.map((issue) => issue.id));
  });

  it("keeps another tenant's reads to its own index range while the first tenant searches", async () => {
    const quietAlone = await get('quiet', '/api/v1/issues?limit=10');
    for (let i = 0; i < 50; i++)
      expect((await get('heavy', '/api/v1/issues?q=about%20the')).status).toBe(200);
    const quietAfter = await get('quiet', '/api/v1/issues?limit=10');
    expect(quietAfter.body.total).toBe(30);
    // The same statements, whatever the other tenant did…
    expect(collectionReads(quietAfter.sql)).toEqual(collectionReads(quietAlone.sql));
    // …each walking the workspace's own index range.
    for (const sql of collectionReads(quietAfter.sql)) {
      const steps = plan(sql);
      expect(
        steps.every(
          (step) =>
            /USING (COVERING )?INDEX \w+ \(workspace_id=\?/.test(step) || /^(SEARCH|USE TEMP)/.test(step),
        ),
        steps.join('\n'),
      ).toBe(true);
      expect(
        steps.filter((step) => step.startsWith('SCAN')),
        steps.join('\n'),
      ).toEqual([]);
    }
  });
});
