import pg from 'pg';
import { afterEach, expect, it } from 'vitest';
import { postgresStorage } from '../../src/adapters/postgres/index.js';
import { migrate } from '../../src/adapters/postgres/migrate.js';
import { migrations } from '../../src/adapters/postgres/migrations/index.js';
import { at, sampleDelivery, sampleSignal } from '../conformance/fixtures.js';
import { describeOnPostgres, dropSchema, freshSchema, requireDatabaseUrl } from '../support/postgres.js';

/**
 * Migration 18 on a database an earlier release made: the accounts' latest sequences, the
 * signals and deliveries keyed by account, and `due_accounts`, from the rows already there.
 */
describeOnPostgres('migration 18, account sequences', () => {
  let schema = '';
  let pool: pg.Pool | undefined;
  afterEach(async () => {
    await pool?.end();
    pool = undefined;
    if (schema) await dropSchema(schema);
    schema = '';
  });

  /** A schema as migration 17 left it, for the test to fill with raw SQL. */
  async function at17(): Promise<pg.PoolClient> {
    schema = freshSchema();
    pool = new pg.Pool({ connectionString: requireDatabaseUrl(), max: 2 });
    await migrate(
      pool,
      schema,
      migrations.filter((m) => m.version <= 17),
    );
    const client = await pool.connect();
    await client.query(`SET search_path TO "${schema}"`);
    return client;
  }

  const insertSignal = (client: pg.PoolClient, accountId: string) => {
    const event = sampleSignal(accountId);
    const { id, type, resource, occurredAt, ...rest } = event;
    return client.query(
      "INSERT INTO signals (sequence, id, account_id, type, resource_id, occurred_at, data) VALUES (nextval('signal_sequence'), $1, $2, $3, $4, $5, $6)",
      [
        id,
        accountId,
        type,
        resource.id,
        occurredAt,
        JSON.stringify({ id, type, resource, occurredAt, ...rest }),
      ],
    );
  };

  it('gives each account its latest sequence, above whatever a purge left behind, and appends continue after it', async () => {
    const client = await at17();
    try {
      for (const id of ['acc_1', 'acc_2', 'acc_3']) {
        await client.query('INSERT INTO accounts (id, name, created_at) VALUES ($1, $2, $3)', [
          id,
          id,
          at(0),
        ]);
      }
      // acc_1: 1, 2, 5; acc_2: 3, 4 (purged, the purge remembering 4); acc_3: none.
      for (const account of ['acc_1', 'acc_1', 'acc_2', 'acc_2', 'acc_1'])
        await insertSignal(client, account);
      await client.query("DELETE FROM signals WHERE account_id = 'acc_2'");
      await client.query('UPDATE signal_purges SET purged_through = 4');
    } finally {
      client.release();
    }
    const storage = postgresStorage({ connectionString: requireDatabaseUrl(), schema, poolMax: 2 });
    try {
      await storage.ready();
      // acc_2's events were purged at 4, and acc_3 never had any: none of their next events may
      // come at or below a sequence a reader of the whole log saw.
      const latest = await storage.transaction(async (t) => ({
        acc_1: await t.signals.latestSequence('acc_1'),
        acc_2: await t.signals.latestSequence('acc_2'),
        acc_3: await t.signals.latestSequence('acc_3'),
        all: await t.signals.latestSequence(),
      }));
      expect(latest).toEqual({ acc_1: 5, acc_2: 4, acc_3: 4, all: 5 });
      const next = await storage.transaction(async (t) => [
        (await t.signals.append(sampleSignal('acc_1'))).sequence,
        (await t.signals.append(sampleSignal('acc_2'))).sequence,
        (await t.signals.append(sampleSignal('acc_2'))).sequence,
      ]);
      expect(next).toEqual([6, 5, 6]);
      const listed = await storage.transaction((t) => t.signals.list({ accountId: 'acc_1', limit: 10 }));
      expect(listed.map((e) => e.sequence)).toEqual([1, 2, 5, 6]);
    } finally {
      await storage.close();
    }
  });

  it('names each account with a delivery to claim in due_accounts, at its earliest, and claims them', async () => {
    const client = await at17();
    const pending = sampleDelivery('acc_1', 'whk_1', { nextAttemptAt: at(5) });
    const leased = sampleDelivery('acc_1', 'whk_1', {
      status: 'sending',
      nextAttemptAt: null,
      leaseId: 'lease_0',
      leaseExpiresAt: at(3),
    });
    const done = sampleDelivery('acc_2', 'whk_2', { status: 'delivered', nextAttemptAt: null });
    try {
      for (const [d, claimableAt] of [
        [pending, at(5)],
        [leased, at(3)],
        [done, null],
      ] as const) {
        await client.query(
          'INSERT INTO deliveries (id, account_id, subscription_id, status, next_attempt_at, lease_id, created_at, data) ' +
            'VALUES ($1, $2, $3, $4, $5, $6, $7, $8)',
          [
            d.id,
            d.accountId,
            d.subscriptionId,
            d.status,
            claimableAt,
            d.leaseId,
            d.createdAt,
            JSON.stringify(d),
          ],
        );
      }
    } finally {
      client.release();
    }
    const storage = postgresStorage({ connectionString: requireDatabaseUrl(), schema, poolMax: 2 });
    try {
      await storage.ready();
      const { rows } = await (pool as pg.Pool).query(
        `SELECT account_id, next_attempt_at FROM "${schema}".due_accounts ORDER BY account_id`,
      );
      expect(rows).toEqual([{ account_id: 'acc_1', next_attempt_at: at(3) }]);
      expect(await storage.transaction((t) => t.deliveries.nextClaimableAt())).toBe(at(3));
      const claimed = await storage.transaction((t) =>
        t.deliveries.claimDue({ now: at(10), leaseId: 'lease_1', leaseUntil: at(70), limit: 10 }),
      );
      expect(claimed.map((d) => d.id)).toEqual([leased.id, pending.id]);
      expect(await storage.transaction((t) => t.deliveries.nextClaimableAt())).toBe(at(70));
    } finally {
      await storage.close();
    }
  });
});
