import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { postgresStorage } from '../../src/adapters/postgres/index.js';
import { sqliteStorage } from '../../src/adapters/sqlite/index.js';
import type { Storage } from '../../src/core/index.js';
import { earlierSchemaFile, postgresSchemaAt } from '../support/earlier-schema.js';
import { dropSchema, freshSchema, postgresSkipReason, testDatabaseUrl } from '../support/postgres.js';

/**
 * Counters as an earlier release stored them, by name only: the issue numbers of a project of
 * ws_1 (account acct_1), and of a project that is gone.
 */
const earlierRows = (placeholder: (i: number) => string, search: boolean) => [
  {
    sql: `INSERT INTO workspaces (id, account_id, slug, name, created_at) VALUES (${[1, 2, 3, 4, 5].map(placeholder).join(', ')})`,
    params: ['ws_1', 'acct_1', 'one', 'One', '2026-01-01T00:00:00.000Z'],
  },
  {
    sql: `INSERT INTO projects (id, workspace_id, created_at, updated_at, version, key${search ? ', search_text' : ''}, data) VALUES (${Array.from({ length: search ? 8 : 7 }, (_, i) => placeholder(i + 1)).join(', ')})`,
    params: [
      'prj_1',
      'ws_1',
      '2026-01-01T00:00:00.000Z',
      '2026-01-01T00:00:00.000Z',
      1,
      'ONE',
      ...(search ? [''] : []),
      '{}',
    ],
  },
  {
    sql: `INSERT INTO counters (name, value) VALUES (${placeholder(1)}, ${placeholder(2)})`,
    params: ['issues:prj_1', 7],
  },
  {
    sql: `INSERT INTO counters (name, value) VALUES (${placeholder(1)}, ${placeholder(2)})`,
    params: ['issues:prj_gone', 3],
  },
];

/** Each counter names its project's workspace ('' for a project that is gone) and goes on from its value. */
async function expectCounters(storage: Storage): Promise<void> {
  const page = await storage.transaction((tx) => tx.dump.page('counters', null, 10));
  expect([...page.rows].sort((a, b) => a.name.localeCompare(b.name))).toEqual([
    { workspaceId: 'ws_1', name: 'issues:prj_1', value: 7 },
    { workspaceId: '', name: 'issues:prj_gone', value: 3 },
  ]);
  expect(await storage.transaction((tx) => tx.counters.next('ws_1', 'issues:prj_1'))).toBe(8);
}

describe('the migration that gives counters their workspace, on a database made before it', () => {
  describe('SQLite (migration 19)', () => {
    const file = earlierSchemaFile();

    it('gives each counter the workspace of its project, and counts on', async () => {
      const db = file.migratedTo(18);
      for (const { sql, params } of earlierRows(() => '?', false)) db.prepare(sql).run(...params);
      db.close();
      const storage = sqliteStorage({ filename: file.filename() });
      try {
        await expectCounters(storage);
      } finally {
        await storage.close();
      }
    });
  });

  describe.skipIf(!testDatabaseUrl)(
    `PostgreSQL (migration 17)${testDatabaseUrl ? '' : `: ${postgresSkipReason}`}`,
    () => {
      const schema = freshSchema();
      afterAll(() => dropSchema(schema));

      it('gives each counter the workspace and account of its project, and counts on', async () => {
        await postgresSchemaAt(schema, 16, async (client) => {
          for (const { sql, params } of earlierRows((i) => `$${i}`, true)) await client.query(sql, params);
        });
        const storage = postgresStorage({ connectionString: testDatabaseUrl as string, schema, poolMax: 2 });
        try {
          await storage.ready();
          await expectCounters(storage);
          const check = new pg.Client({ connectionString: testDatabaseUrl });
          await check.connect();
          try {
            const { rows } = await check.query(
              `SELECT name, account_id FROM "${schema}".counters ORDER BY name`,
            );
            expect(rows).toEqual([
              { name: 'issues:prj_1', account_id: 'acct_1' },
              { name: 'issues:prj_gone', account_id: '' },
            ]);
          } finally {
            await check.end();
          }
        } finally {
          await storage.close();
        }
      });
    },
  );
});
