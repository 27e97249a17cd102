import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type PostgresStorage, postgresStorage } from '../../src/adapters/postgres/index.js';
import type { Watch } from '../../src/core/index.js';
import { describeOnPostgres, requireDatabaseUrl } from '../support/postgres.js';

/**
 * A subject's watchers come in byte order of (since, userId), as on SQLite and the memory adapter,
 * on a database whose default collation is not byte order (ICU's en-US, where `usr_a` sorts
 * before `usr_B`): the watching tables' text columns are "C" (migration 28).
 */
describeOnPostgres('watchers on a database whose default collation is not byte order', () => {
  const name = `ot_icu_${randomUUID().slice(0, 8)}`;
  const admin = () => new pg.Client({ connectionString: requireDatabaseUrl() });
  let storage: PostgresStorage;

  beforeAll(async () => {
    const client = admin();
    await client.connect();
    try {
      await client.query(
        `CREATE DATABASE ${name} TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE 'en-US' LOCALE 'C.UTF-8'`,
      );
    } finally {
      await client.end();
    }
    const url = new URL(requireDatabaseUrl());
    url.pathname = `/${name}`;
    storage = postgresStorage({ connectionString: url.toString() });
    await storage.ready();
  });
  afterAll(async () => {
    await storage?.close();
    const client = admin();
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.end();
  });

  it('lists and pages them in byte order', async () => {
    const since = '2026-11-20T10:00:00.000Z';
    const watch = (userId: string): Watch => ({
      workspaceId: 'wsp_1',
      subjectType: 'issue',
      subjectId: 'iss_1',
      userId,
      reason: 'mentioned',
      since,
    });
    await storage.transaction(async (t) => {
      for (const userId of ['usr_a', 'usr_B', 'usr_c']) await t.watches.add('acc_1', watch(userId));
    });
    const list = (after?: { since: string; userId: string }) =>
      storage.transaction(
        (t) =>
          t.watches.list({ accountId: 'acc_1', workspaceId: 'wsp_1', subjectId: 'iss_1', after, limit: 2 }),
        { mode: 'read' },
      );
    const first = await list();
    expect(first.rows.map((w) => w.userId)).toEqual(['usr_B', 'usr_a']);
    expect(first.total).toBe(3);
    const next = await list({ since, userId: 'usr_a' });
    expect(next.rows.map((w) => w.userId)).toEqual(['usr_c']);
  });
});
