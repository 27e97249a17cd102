import pg from 'pg';
import { expect, it } from 'vitest';
import { type PostgresStorage, postgresStorage } from '../../src/adapters/postgres/index.js';
import type { DeliveryClaim, WebhookDelivery } from '../../src/core/index.js';
import { at, macrotask, newId, sampleDelivery, sampleWebhook } from '../conformance/fixtures.js';
import { describeOnPostgres, requireDatabaseUrl } from '../support/postgres.js';
import { schemaPerTest } from '../support/schema-per-test.js';

/**
 * `due_accounts`, where the dispatcher finds the accounts with deliveries to claim (webhooks.ts):
 * whatever commits race, an account with a claimable delivery keeps a time there no later than
 * its earliest one. A time lost, or later than that, would leave deliveries no claim looks for.
 */
describeOnPostgres('due_accounts on PostgreSQL', () => {
  const db = schemaPerTest();
  const { open } = db;
  const storages = async (count: number): Promise<PostgresStorage[]> => {
    const made = Array.from({ length: count }, () =>
      postgresStorage({ connectionString: requireDatabaseUrl(), schema: db.name, poolMax: 4 }),
    );
    open.push(...made);
    await Promise.all(made.map((s) => s.ready()));
    return made;
  };

  /** Each account whose time is later than its earliest claimable delivery, or missing. */
  async function accountsBehind(): Promise<{ account_id: string; earliest: string; due: string | null }[]> {
    const client = new pg.Client({ connectionString: requireDatabaseUrl() });
    await client.connect();
    try {
      const { rows } = await client.query<{ account_id: string; earliest: string; due: string | null }>(
        `SELECT d.account_id, min(d.next_attempt_at) AS earliest, min(a.next_attempt_at) AS due ` +
          `FROM "${db.name}".deliveries d LEFT JOIN "${db.name}".due_accounts a ON a.account_id = d.account_id ` +
          'WHERE d.next_attempt_at IS NOT NULL GROUP BY d.account_id',
      );
      return rows.filter((row) => row.due === null || row.due > row.earliest);
    } finally {
      await client.end();
    }
  }

  it('a delivery queued while claims refresh its account is claimed, and the account’s time never passes it', async () => {
    const [writer, ...claimers] = (await storages(3)) as [PostgresStorage, ...PostgresStorage[]];
    const accounts = ['acc_1', 'acc_2', 'acc_3'];
    const queued: string[] = [];
    let writing = true;
    const writes = (async () => {
      for (let i = 0; i < 60; i++) {
        await Promise.all(
          accounts.map((accountId) =>
            writer.transaction(async (t) => {
              const delivery = sampleDelivery(accountId, `whk_${accountId}`, { nextAttemptAt: at(0) });
              await t.deliveries.insert(delivery);
              // Commit while a claim may be refreshing the account's time.
              await macrotask();
              queued.push(delivery.id);
            }),
          ),
        );
      }
      writing = false;
    })();
    const claimed: WebhookDelivery[] = [];
    await Promise.all(
      claimers.flatMap((s) =>
        Array.from({ length: 3 }, async () => {
          for (;;) {
            const done = !writing;
            const batch = await s.transaction((t) =>
              t.deliveries.claimDue({
                now: at(10),
                leaseId: newId('lease'),
                leaseUntil: at(1000),
                limit: 4,
              }),
            );
            claimed.push(...batch);
            if (done && batch.length === 0) return;
            if (batch.length === 0) await macrotask();
          }
        }),
      ),
    );
    await writes;
    expect(claimed.map((d) => d.id).sort()).toEqual([...queued].sort());
    // Every delivery now waits for its lease to run out: the accounts' times say when.
    expect(await accountsBehind()).toEqual([]);
    expect(await writer.transaction((t) => t.deliveries.nextClaimableAt())).toBe(at(1000));
  });

  it('a claim refreshing an account waits for a transaction lowering its time, and keeps what it lowered', async () => {
    // The lowering transaction is written out here so that it can stay open, holding the
    // account's row, while the claim refreshes: the adapter's own sends its lowering with the
    // COMMIT, which leaves that window only microseconds wide.
    const [store] = (await storages(1)) as [PostgresStorage];
    const leasedOne = sampleDelivery('acc_1', 'whk_1', { nextAttemptAt: at(0) });
    await store.transaction((t) => t.deliveries.insert(leasedOne));
    await store.transaction((t) =>
      t.deliveries.claimDue({ now: at(1), leaseId: 'lease_1', leaseUntil: at(500), limit: 1 }),
    );
    const lowering = new pg.Client({ connectionString: requireDatabaseUrl() });
    await lowering.connect();
    try {
      const queued = sampleDelivery('acc_1', 'whk_2', { nextAttemptAt: at(2) });
      await lowering.query(`SET search_path TO "${db.name}"`);
      await lowering.query('BEGIN');
      await lowering.query(
        'INSERT INTO deliveries (id, account_id, subscription_id, status, next_attempt_at, lease_id, created_at, data) ' +
          "VALUES ($1, $2, $3, 'pending', $4, NULL, $5, $6)",
        [queued.id, queued.accountId, queued.subscriptionId, at(2), queued.createdAt, JSON.stringify(queued)],
      );
      await lowering.query(
        'INSERT INTO due_accounts AS due (account_id, next_attempt_at) VALUES ($1, $2) ' +
          'ON CONFLICT (account_id) DO UPDATE SET next_attempt_at = LEAST(due.next_attempt_at, excluded.next_attempt_at)',
        ['acc_1', at(2)],
      );
      // The lease ran out: the claim takes the first delivery again, and refreshes acc_1.
      const claim = store.transaction((t) =>
        t.deliveries.claimDue({ now: at(600), leaseId: 'lease_2', leaseUntil: at(1200), limit: 1 }),
      );
      await new Promise((resolve) => setTimeout(resolve, 300));
      await lowering.query('COMMIT');
      expect((await claim).map((d) => d.id)).toEqual([leasedOne.id]);
    } finally {
      await lowering.end();
    }
    expect(await accountsBehind()).toEqual([]);
    expect(await store.transaction((t) => t.deliveries.nextClaimableAt())).toBe(at(2));
  });

  it('claims across more due accounts than one page of them, earliest first', async () => {
    const [store] = (await storages(1)) as [PostgresStorage];
    // 40 accounts, one delivery each, due in the reverse order of their ids; the accounts past
    // the first page (16 for claims of up to 16) are read only when the claim gets that far.
    const deliveries = Array.from({ length: 40 }, (_, i) =>
      sampleDelivery(`acc_${String(i).padStart(2, '0')}`, `whk_${i}`, { nextAttemptAt: at(40 - i) }),
    );
    await store.transaction(async (t) => {
      for (const d of deliveries) await t.deliveries.insert(d);
    });
    const byDue = [...deliveries].reverse().map((d) => d.id);
    const claim = (limit: number, extra: Partial<DeliveryClaim> = {}) =>
      store.transaction((t) =>
        t.deliveries.claimDue({
          now: at(100),
          leaseId: newId('lease'),
          leaseUntil: at(1000),
          limit,
          ...extra,
        }),
      );
    expect((await claim(3)).map((d) => d.id)).toEqual(byDue.slice(0, 3));
    // The 20 accounts due next are full: the claim reads past them, onto a second page.
    const full = byDue.slice(3, 23).map((id) => deliveries.find((d) => d.id === id)?.accountId ?? '');
    expect((await claim(2, { accountSlots: (id) => (full.includes(id) ? 0 : 9) })).map((d) => d.id)).toEqual(
      byDue.slice(23, 25),
    );
    expect((await claim(100)).map((d) => d.id)).toEqual([...byDue.slice(3, 23), ...byDue.slice(25)]);
    expect(await accountsBehind()).toEqual([]);
  });

  it('forgets an account whose due deliveries went with their subscription, and keeps the others', async () => {
    const [store] = (await storages(1)) as [PostgresStorage];
    const gone = sampleWebhook('acc_1');
    const kept = sampleWebhook('acc_2');
    await store.transaction(async (t) => {
      await t.webhooks.insert(gone);
      await t.webhooks.insert(kept);
      await t.deliveries.insert(sampleDelivery('acc_1', gone.id, { nextAttemptAt: at(1) }));
      await t.deliveries.insert(sampleDelivery('acc_2', kept.id, { nextAttemptAt: at(7) }));
    });
    expect(await store.transaction((t) => t.deliveries.nextClaimableAt())).toBe(at(1));
    expect(await store.transaction((t) => t.webhooks.delete('acc_1', gone.id))).toBe(true);
    expect(await accountsBehind()).toEqual([]);
    expect(await store.transaction((t) => t.deliveries.nextClaimableAt())).toBe(at(7));
  });

  it('results recorded while deliveries are queued leave every account’s time at or before its earliest', async () => {
    const [writer, recorder] = (await storages(2)) as [PostgresStorage, PostgresStorage];
    await writer.transaction(async (t) => {
      for (let i = 0; i < 30; i++)
        await t.deliveries.insert(sampleDelivery('acc_1', 'whk_1', { nextAttemptAt: at(0) }));
    });
    const batch = await recorder.transaction((t) =>
      t.deliveries.claimDue({ now: at(1), leaseId: 'lease_1', leaseUntil: at(500), limit: 30 }),
    );
    expect(batch).toHaveLength(30);
    await Promise.all([
      // Each result done, or due again much later, in a transaction of its own.
      ...batch.map((d, i) =>
        recorder.transaction(async (t) => {
          const due = i % 2 === 0;
          await t.deliveries.recordAttempts([
            {
              delivery: {
                ...d,
                status: due ? 'pending' : 'delivered',
                nextAttemptAt: due ? at(900) : null,
                leaseId: null,
                leaseExpiresAt: null,
              },
              leaseId: 'lease_1',
              attempt: null,
            },
          ]);
          await macrotask();
        }),
      ),
      // Meanwhile new ones, due at once.
      ...Array.from({ length: 10 }, () =>
        writer.transaction(async (t) => {
          await t.deliveries.insert(sampleDelivery('acc_1', 'whk_2', { nextAttemptAt: at(2) }));
          await macrotask();
        }),
      ),
    ]);
    expect(await accountsBehind()).toEqual([]);
    expect(await writer.transaction((t) => t.deliveries.nextClaimableAt())).toBe(at(2));
    const again = await recorder.transaction((t) =>
      t.deliveries.claimDue({ now: at(3), leaseId: 'lease_2', leaseUntil: at(600), limit: 100 }),
    );
    expect(again).toHaveLength(10);
    expect(await recorder.transaction((t) => t.deliveries.nextClaimableAt())).toBe(at(600));
  });
});
