import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { sqliteStorage } from '../../src/adapters/sqlite/index.js';
import { queryPlan } from '../support/query-plan.js';

/**
 * The webhook page's 24-hour chart on SQLite: counting a subscription's attempts per hour is one
 * aggregate over the (subscription_id, started_at) index range since the window's first hour,
 * never a scan of the attempt log, so its cost follows the day's attempts, not the history's.
 */
describe('attempts per hour on SQLite', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ot-attempt-hours-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads the subscription/started_at index range, not the whole log', async () => {
    const filename = join(dir, 'tracker.db');
    const statements: string[] = [];
    const storage = sqliteStorage({ filename, onStatement: (sql) => statements.push(sql) });
    await storage.transaction((tx) =>
      tx.deliveries.attemptsPerHour('acc_1', 'wh_1', '2026-01-01T10:00:00.000Z'),
    );
    const sql = statements.find((s) => /FROM delivery_attempts/.test(s) && /GROUP BY/.test(s));
    expect(sql).toBeDefined();
    await storage.close();
    const reader = new Database(filename, { readonly: true });
    const plan = queryPlan(reader, sql as string);
    reader.close();
    expect(plan.join('\n')).toMatch(
      /SEARCH delivery_attempts USING INDEX delivery_attempts_by_subscription \(subscription_id=\? AND started_at>\?\)/,
    );
    expect(plan.join('\n')).not.toMatch(/SCAN delivery_attempts/);
  });
});
