import { afterAll, describe, expect, it } from 'vitest';
import { postgresStorage } from '../../src/adapters/postgres/index.js';
import { sqliteStorage } from '../../src/adapters/sqlite/index.js';
import type { Issue, Storage } from '../../src/core/index.js';
import { earlierSchemaFile, postgresSchemaAt } from '../support/earlier-schema.js';
import { dropSchema, freshSchema, postgresSkipReason, testDatabaseUrl } from '../support/postgres.js';
import { sampleRow } from './fixtures.js';

/** Issues as an earlier release stored them: their labels in their JSON only. */
const earlier = [
  sampleRow(
    'issues',
    'ws_1',
    { number: 1, labels: ['ui', 'safari', 'ui'] } as Partial<Issue>,
    '2026-01-01T00:00:01.000Z',
  ),
  sampleRow('issues', 'ws_1', { number: 2, labels: ['ui'] } as Partial<Issue>, '2026-01-01T00:00:02.000Z'),
  sampleRow('issues', 'ws_1', { number: 3, labels: [] } as Partial<Issue>, '2026-01-01T00:00:03.000Z'),
];
const insertSql = (placeholder: (i: number) => string, search: boolean) =>
  `INSERT INTO issues (id, workspace_id, created_at, updated_at, version, project_id, status, severity, number${search ? ', search_text' : ''}, data) VALUES (${Array.from({ length: search ? 11 : 10 }, (_, i) => placeholder(i + 1)).join(', ')})`;
const valuesOf = (issue: Issue, search: boolean) => [
  issue.id,
  issue.workspaceId,
  issue.createdAt,
  issue.updatedAt,
  issue.version,
  issue.projectId,
  issue.status,
  issue.severity,
  issue.number,
  ...(search ? [''] : []),
  JSON.stringify(issue),
];

/** What the migrated store must answer of the issues stored before, and of a change after it. */
async function expectIndexed(storage: Storage): Promise<void> {
  const [first, second] = earlier as [Issue, Issue, Issue];
  await storage.transaction(async (tx) => {
    expect(await tx.labels.list({ workspaceId: 'ws_1', limit: 10 })).toEqual({
      rows: [
        { name: 'safari', issueCount: 1 },
        { name: 'ui', issueCount: 2 },
      ],
      total: 2,
    });
    const ui = await tx.collections.issues.list({ workspaceId: 'ws_1', labels: { all: ['ui'] }, limit: 10 });
    expect(ui.rows.map((row) => row.id)).toEqual([second.id, first.id]);
    expect(ui.total).toBe(2);
  });
  await storage.transaction((tx) =>
    tx.collections.issues.update({ ...first, labels: ['safari'], version: 2 }, first.version),
  );
  await storage.transaction(async (tx) => {
    expect((await tx.labels.list({ workspaceId: 'ws_1', limit: 10 })).rows).toEqual([
      { name: 'safari', issueCount: 1 },
      { name: 'ui', issueCount: 1 },
    ]);
  });
}

describe('the issue labels migration on a database made before it', () => {
  describe('SQLite (migration 18)', () => {
    const file = earlierSchemaFile();

    it('indexes the labels of every issue stored before, each once, and keeps them after', async () => {
      const db = file.migratedTo(17);
      const insert = db.prepare(insertSql(() => '?', false));
      for (const issue of earlier) insert.run(...valuesOf(issue, false));
      db.close();
      const storage = sqliteStorage({ filename: file.filename() });
      try {
        await expectIndexed(storage);
      } finally {
        await storage.close();
      }
    });
  });

  describe.skipIf(!testDatabaseUrl)(
    `PostgreSQL (migration 16)${testDatabaseUrl ? '' : `: ${postgresSkipReason}`}`,
    () => {
      const schema = freshSchema();
      afterAll(() => dropSchema(schema));

      it('indexes the labels of every issue stored before, each once, and keeps them after', async () => {
        await postgresSchemaAt(schema, 15, async (client) => {
          for (const issue of earlier)
            await client.query(
              insertSql((i) => `$${i}`, true),
              valuesOf(issue, true),
            );
        });
        const storage = postgresStorage({ connectionString: testDatabaseUrl as string, schema, poolMax: 2 });
        try {
          await storage.ready();
          await expectIndexed(storage);
        } finally {
          await storage.close();
        }
      });
    },
  );
});
