import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sqliteStorage } from '../../src/adapters/sqlite/index.js';
import { dumpTables } from '../../src/core/index.js';
import { postgresDatabase, type SharedDatabase } from '../multi-process/cluster.js';
import {
  call,
  listAllSignals,
  openSignalStream,
  type Receiver,
  startReceiver,
} from '../multi-process/support.js';
import { populatedSqliteFile } from './populated-source.js';
import { assertBuilt, runCli, runJson, type Served, startServeJson, tempDir } from './process.js';

describe('outcome-tracker copy, SQLite to SQLite through the built CLI', () => {
  beforeAll(assertBuilt);
  let receiver: Receiver | null = null;
  let served: Served | null = null;
  afterEach(async () => {
    await served?.stop();
    await receiver?.close();
    served = null;
    receiver = null;
  });

  it('copies every table so that a serve on the copy carries on where the source stopped', async () => {
    receiver = await startReceiver();
    const dir = tempDir();
    const from = join(dir, 'source.db');
    const to = join(dir, 'copy.db');
    const { token, made, signals } = await populatedSqliteFile(from, receiver.url);
    const lastSequence = Number(signals.at(-1)?.sequence);

    const summary = await runJson(['copy', '--from', from, '--to', to]);
    expect(Object.keys(summary.tables)).toEqual([...dumpTables]);
    expect(summary.tables).toMatchObject({
      accounts: 1,
      workspaces: 1,
      tokens: 1,
      projects: 1,
      issues: 2,
      outcomes: 1,
      context: 1,
      decisions: 1,
      timeEntries: 1,
      signals: signals.length,
      webhooks: 1,
      deliveries: signals.length,
    });
    expect(summary.latestSequence).toBe(lastSequence);
    expect(summary.rows).toBe(
      Object.values(summary.tables as Record<string, number>).reduce((a, b) => a + b),
    );

    const started = await startServeJson(['--db', to, '--allow-private-webhooks']);
    served = started;
    // Not a fresh database: no second bootstrap.
    expect(started.startup.init).toBeNull();
    const base = started.startup.url;

    // The token still authenticates; every resource kept its id.
    const issue = await call(base, 'GET', `/api/v1/issues/${made.issueIds[0]}`, { token });
    expect(issue.status).toBe(200);
    expect(issue.json).toMatchObject({ key: 'APO-1', severity: 'critical', version: 2 });
    expect((await call(base, 'GET', `/api/v1/webhooks/${made.webhookId}`, { token })).status).toBe(200);
    // The label index is derived, not copied: the copy's inserts rebuild it.
    const labels = await call(base, 'GET', '/api/v1/labels', { token });
    expect(labels.json).toEqual({ data: [{ name: 'search', issueCount: 1 }], nextCursor: null, total: 1 });
    const labelled = await call(base, 'GET', '/api/v1/issues?labels=search', { token });
    expect(labelled.json).toMatchObject({ data: [{ id: made.issueIds[1] }], total: 1 });
    // Who watches what came along: the issue's creator still watches it.
    expect(summary.tables.watchers).toBeGreaterThan(0);
    const watchers = await call(base, 'GET', `/api/v1/issues/${made.issueIds[0]}/watchers`, { token });
    expect(watchers.json).toMatchObject({ data: [{ reason: 'creator' }], total: 1 });

    // The pending deliveries are sent by the serve on the copy, once each, with the source's event ids.
    await receiver.waitFor((got) => got.length >= signals.length, `${signals.length} deliveries`);
    expect(receiver.received.map((r) => r.eventId).sort()).toEqual(signals.map((s) => s.id).sort());

    // A stream resuming after the source's last event sees only what happens on the copy.
    const stream = await openSignalStream(base, token, { 'last-event-id': signals.at(-1)?.id ?? '' });
    expect(stream.status).toBe(200);
    // The next issue number continues the project's counter.
    const next = await call(base, 'POST', '/api/v1/issues', {
      token,
      body: { projectId: made.projectId, title: 'Third' },
    });
    expect(next.status).toBe(201);
    expect(next.json).toMatchObject({ number: 3, key: 'APO-3' });
    const [resumed] = await stream.waitForEvents(1);
    stream.close();
    expect(resumed?.data).toMatchObject({ type: 'issue.created', resource: { id: next.json.id } });
    expect(Number(resumed?.data.sequence)).toBe(lastSequence + 1);
    expect((await listAllSignals(base, token, lastSequence)).map((s) => s.id)).toEqual([resumed?.data.id]);
    await receiver.waitFor((got) => got.some((r) => r.eventId === resumed?.data.id), 'the new event');
  });

  it('refuses a target that is not empty, with exit code 1 and the reason', async () => {
    receiver = await startReceiver();
    const dir = tempDir();
    const from = join(dir, 'source.db');
    const to = join(dir, 'copy.db');
    await populatedSqliteFile(from, receiver.url);
    expect((await runCli(['copy', '--from', from, '--to', to])).code).toBe(0);
    const again = await runCli(['copy', '--from', from, '--to', to]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('is not empty (it has accounts)');
    expect((await runCli(['copy', '--from', join(dir, 'missing.db'), '--to', join(dir, 'x.db')])).code).toBe(
      1,
    );
    expect((await runCli(['copy', '--from', from])).code).toBe(2);
  });

  it('prints a table of counts and progress on standard error', async () => {
    receiver = await startReceiver();
    const dir = tempDir();
    const from = join(dir, 'source.db');
    await populatedSqliteFile(from, receiver.url);
    const result = await runCli(['copy', '--from', from, '--to', join(dir, 'copy.db')]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^TABLE\s+ROWS$/m);
    expect(result.stdout).toMatch(/^issues\s+2$/m);
    expect(result.stdout).toContain('Copied ');
    expect(result.stderr).toContain('issues: 2 rows, done');
    // One row is "1 row", in the progress and the total alike.
    expect(result.stderr).toMatch(/^accounts: 1 row, done$/m);
    expect(`${result.stdout}${result.stderr}`).not.toMatch(/\b1 rows\b/);
  });
});

const serverUrl = process.env.TEST_DATABASE_URL || undefined;

/** Every row of every table of a SQLite file, as sorted JSON lines per table. */
async function rowsOf(filename: string): Promise<Record<string, string[]>> {
  const storage = sqliteStorage({ filename });
  try {
    return await storage.transaction(async (tx) => {
      const all: Record<string, string[]> = {};
      for (const table of dumpTables) {
        const rows: string[] = [];
        let after: string | null = null;
        do {
          const page: { rows: object[]; next: string | null } = await tx.dump.page(table, after, 100);
          rows.push(...page.rows.map((row) => JSON.stringify(row)));
          after = page.next;
        } while (after !== null);
        all[table] = rows.sort();
      }
      return all;
    });
  } finally {
    await storage.close();
  }
}

describe.skipIf(!serverUrl)(
  `outcome-tracker copy, SQLite to PostgreSQL and back${serverUrl ? '' : ' (skipped: TEST_DATABASE_URL is unset)'}`,
  () => {
    let database: SharedDatabase | null = null;
    let receiver: Receiver | null = null;
    afterAll(async () => {
      await receiver?.close();
      await database?.drop();
    });

    it('brings back every row as it was, and refuses to copy into the filled schema again', async () => {
      assertBuilt();
      receiver = await startReceiver();
      database = await postgresDatabase(serverUrl ?? '');
      const dir = tempDir();
      const from = join(dir, 'source.db');
      const back = join(dir, 'back.db');
      await populatedSqliteFile(from, receiver.url);
      const up = await runJson(['copy', '--from', from, '--to', database.db]);
      const down = await runJson(['copy', '--from', database.db, '--to', back]);
      expect(down.tables).toEqual(up.tables);
      expect(down.latestSequence).toBe(up.latestSequence);
      expect(await rowsOf(back)).toEqual(await rowsOf(from));

      const again = await runCli(['copy', '--from', from, '--to', database.db]);
      expect(again.code).toBe(1);
      expect(again.stderr).toContain('is not empty (it has accounts)');
    }, 120_000);
  },
);
