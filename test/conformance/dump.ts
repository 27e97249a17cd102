import { afterEach, describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/core/canonical-json.js';
import { copyStorage, TargetNotEmpty } from '../../src/core/copy.js';
import { collectionNames } from '../../src/core/families/collections.js';
import {
  type CollectionName,
  type CollectionRows,
  type DumpRows,
  type DumpTable,
  dumpTables,
  type Storage,
  type StorageTx,
  UniqueViolation,
  type WebhookDelivery,
} from '../../src/core/index.js';
import type { AdapterUnderTest } from '../support/adapters.js';
import {
  at,
  freshStore,
  sampleAttempt,
  sampleDelivery,
  sampleIdempotency,
  sampleRow,
  sampleSession,
  sampleSignal,
  sampleToken,
  sampleWebhook,
} from './fixtures.js';

/** A row compared by content: the order of a stored record's keys is not part of it. */
const rowKey = (row: object): string => canonicalJson(row);

/** Writes at least two rows of every dumped table; returns what was written, table by table. */
async function seedEveryTable(tx: StorageTx): Promise<{ [Table in DumpTable]: DumpRows[Table][] }> {
  const accounts = [
    { id: 'acc_1', name: 'One', createdAt: at(0) },
    { id: 'acc_2', name: 'Two', createdAt: at(1) },
  ];
  const workspaces = [
    { id: 'wsp_1', accountId: 'acc_1', slug: 'one', name: 'One', createdAt: at(0) },
    { id: 'wsp_2', accountId: 'acc_2', slug: 'two', name: 'Two', createdAt: at(1) },
  ];
  const users = [
    {
      id: 'usr_1',
      email: 'Ada@Example.com',
      passwordHash: 'scrypt$x',
      createdAt: at(0),
      lastSignInAt: at(3),
    },
    { id: 'usr_2', email: 'bob@example.com', passwordHash: null, createdAt: at(1), lastSignInAt: null },
  ];
  const memberships = [
    {
      workspaceId: 'wsp_1',
      userId: 'usr_2',
      role: 'viewer' as const,
      createdAt: at(1),
      updatedAt: at(2),
      version: 2,
    },
    {
      workspaceId: 'wsp_1',
      userId: 'usr_1',
      role: 'admin' as const,
      createdAt: at(0),
      updatedAt: at(0),
      version: 1,
    },
  ];
  const tokens = [
    sampleToken('wsp_1', { expiresAt: at(9) }),
    sampleToken('wsp_2', { revokedAt: at(5), lastUsedAt: at(4), scope: 'read' }),
  ];
  const sessions = [sampleSession(), sampleSession({ userId: 'usr_2' })];
  for (const a of accounts) await tx.tenancy.insertAccount(a);
  for (const w of workspaces) await tx.tenancy.insertWorkspace(w);
  for (const u of users) await tx.tenancy.insertUser(u);
  for (const m of memberships) await tx.tenancy.putMembership(m);
  for (const t of tokens) await tx.tokens.insert(t);
  for (const s of sessions) await tx.sessions.insert(s);

  // Two rows of each collection, one per workspace, in the family list's order: the collections
  // come from the list, so a new family's table is dumped and compared with no line here.
  const collectionRows = Object.fromEntries(
    collectionNames.map((name) => [
      name,
      [sampleRow(name, 'wsp_1', {}, at(2)), sampleRow(name, 'wsp_2', {}, at(3))],
    ]),
  ) as { [Name in CollectionName]: CollectionRows[Name][] };
  for (const name of collectionNames)
    for (const r of collectionRows[name]) await tx.collections[name].insert(r as never);

  await tx.counters.next('wsp_1', 'issues:prj_1');
  await tx.counters.next('wsp_1', 'issues:prj_1');
  await tx.counters.next('wsp_1', 'issues:prj_2');
  const counters = [
    { workspaceId: 'wsp_1', name: 'issues:prj_1', value: 2 },
    { workspaceId: 'wsp_1', name: 'issues:prj_2', value: 1 },
  ];
  const signals = [
    await tx.signals.append(sampleSignal('acc_1', { occurredAt: at(1) })),
    await tx.signals.append(sampleSignal('acc_2', { occurredAt: at(2) })),
    await tx.signals.append(sampleSignal('acc_1', { occurredAt: at(3), type: 'issue.updated' })),
  ];
  // Who watches what, the signals filed under it (the first and third), and how far users read.
  const watchers = [
    {
      accountId: 'acc_1',
      workspaceId: 'wsp_1',
      subjectType: 'issue' as const,
      subjectId: 'iss_1',
      userId: 'usr_1',
      reason: 'creator' as const,
      since: at(0),
    },
    {
      accountId: 'acc_1',
      workspaceId: 'wsp_1',
      subjectType: 'issue' as const,
      subjectId: 'iss_1',
      userId: 'usr_2',
      reason: 'manual' as const,
      since: at(1),
    },
    {
      accountId: 'acc_2',
      workspaceId: 'wsp_2',
      subjectType: 'outcome' as const,
      subjectId: 'out_1',
      userId: 'usr_2',
      reason: 'mentioned' as const,
      since: at(1),
    },
  ];
  for (const { accountId, ...watch } of watchers) await tx.watches.add(accountId, watch);
  const watchedEvents = [signals[0], signals[2]].map((signal) => ({
    accountId: 'acc_1',
    workspaceId: 'wsp_1',
    subjectId: 'iss_1',
    sequence: signal?.sequence ?? 0,
    actorUserId: signal === signals[0] ? 'usr_1' : null,
    occurredAt: signal?.occurredAt ?? '',
  }));
  for (const e of watchedEvents) await tx.watches.file(e);
  const notificationReads = [
    { accountId: 'acc_1', workspaceId: 'wsp_1', userId: 'usr_2', readUpTo: signals[0]?.sequence ?? 0 },
    { accountId: 'acc_2', workspaceId: 'wsp_2', userId: 'usr_2', readUpTo: 7 },
  ];
  for (const r of notificationReads)
    await tx.watches.markRead(r.accountId, r.workspaceId, r.userId, r.readUpTo);
  const idempotency = [
    sampleIdempotency('wsp_1', 'k1', at(1)),
    { ...sampleIdempotency('wsp_2', 'k2', at(2)), body: { signalId: 'sig_2' } },
  ];
  for (const r of idempotency) await tx.idempotency.put(r, at(0));
  const webhooks = [sampleWebhook('acc_1', { secret: 'whsec_a' }), sampleWebhook('acc_2')];
  for (const w of webhooks) await tx.webhooks.insert(w);
  const deliveries = [
    sampleDelivery('acc_1', webhooks[0]?.id ?? ''),
    sampleDelivery('acc_2', webhooks[1]?.id ?? '', { status: 'delivered', nextAttemptAt: null }),
  ];
  for (const d of deliveries) await tx.deliveries.insert(d);
  const deliveryAttempts = [sampleAttempt(deliveries[1] as WebhookDelivery, 1, true)];
  for (const a of deliveryAttempts) await tx.deliveries.insertAttempt(a);
  return {
    accounts,
    workspaces,
    users,
    memberships,
    tokens,
    sessions,
    ...collectionRows,
    counters,
    signals,
    watchers,
    watchedEvents,
    notificationReads,
    idempotency,
    webhooks,
    deliveries,
    deliveryAttempts,
  };
}

/** Every row of a table, read page by page in one transaction. */
async function readAll<Table extends DumpTable>(
  tx: StorageTx,
  table: Table,
  pageSize: number,
): Promise<DumpRows[Table][]> {
  const all: DumpRows[Table][] = [];
  let after: string | null = null;
  for (let pages = 0; pages < 1000; pages++) {
    const page: { rows: DumpRows[Table][]; next: string | null } = await tx.dump.page(table, after, pageSize);
    expect(page.rows.length).toBeLessThanOrEqual(pageSize);
    all.push(...page.rows);
    if (page.next === null) return all;
    after = page.next;
  }
  throw new Error(`${table}: no last page after 1000 pages`);
}

/** The whole-database dump and the copy built on it. */
export function dumpTests(adapter: AdapterUnderTest): void {
  describe('dump and copy', () => {
    const { store, tx } = freshStore(adapter);
    const others: Storage[] = [];
    const another = async () => {
      const created = await adapter.create();
      others.push(created);
      return created;
    };
    afterEach(async () => {
      for (const other of others.splice(0)) await other.close();
    });

    it('pages every table of an empty store as one empty last page', async () => {
      for (const table of dumpTables) {
        expect(await tx((t) => t.dump.page(table, null, 10))).toEqual({ rows: [], next: null });
      }
    });

    it('returns every row of every table exactly once, as written, in pages of any size', async () => {
      const written = await tx(seedEveryTable);
      for (const pageSize of [1, 2, 100]) {
        for (const table of dumpTables) {
          const read = await store().transaction((t) => readAll(t, table, pageSize), { mode: 'read' });
          expect(read.map(rowKey).sort(), `${table} in pages of ${pageSize}`).toEqual(
            written[table].map(rowKey).sort(),
          );
        }
      }
    });

    it('restores events under their own sequences, and appends continue above them', async () => {
      const events = [
        { ...sampleSignal('acc_1'), sequence: 7 },
        { ...sampleSignal('acc_1'), sequence: 12 },
      ];
      await tx(async (t) => {
        await t.tenancy.insertAccount({ id: 'acc_1', name: 'One', createdAt: at(0) });
        for (const e of events) await t.signals.restore(e);
      });
      expect(await tx((t) => t.signals.list({ accountId: 'acc_1', limit: 10 }))).toEqual(events);
      expect(await tx((t) => t.signals.latestSequence())).toBe(12);
      const appended = await tx((t) => t.signals.append(sampleSignal('acc_1')));
      expect(appended.sequence).toBeGreaterThan(12);
      await expect(tx((t) => t.signals.restore({ ...sampleSignal('acc_1'), sequence: 7 }))).rejects.toThrow(
        UniqueViolation,
      );
    });

    it('continues after a given sequence, and never lowers the next one', async () => {
      // Raises the accounts there are (PostgreSQL keeps each one's latest sequence in its row).
      await tx((t) => t.tenancy.insertAccount({ id: 'acc_1', name: 'One', createdAt: at(0) }));
      await tx((t) => t.signals.continueAfter(40));
      expect(await tx((t) => t.signals.latestSequence())).toBe(40);
      expect((await tx((t) => t.signals.append(sampleSignal('acc_1')))).sequence).toBe(41);
      await tx((t) => t.signals.continueAfter(5));
      expect((await tx((t) => t.signals.append(sampleSignal('acc_1')))).sequence).toBe(42);
    });

    it('sets a counter, which next() continues from', async () => {
      await tx((t) => t.counters.set('wsp_1', 'issues:prj_9', 41));
      expect(await tx((t) => t.counters.next('wsp_1', 'issues:prj_9'))).toBe(42);
    });

    it('copies a whole store into an empty one of the same adapter, numbers and all', async () => {
      const written = await tx(seedEveryTable);
      // Purged events leave the latest sequence where it was: the copy keeps it too.
      const last = await tx((t) => t.signals.append(sampleSignal('acc_1', { occurredAt: at(-100) })));
      expect(await tx((t) => t.signals.purge(at(-50)))).toBe(1);
      const target = await another();
      const progress: string[] = [];
      const result = await copyStorage(store(), target, {
        pageSize: 1,
        onProgress: (p) => progress.push(`${p.table}:${p.copied}:${p.done}`),
      });
      for (const table of dumpTables) expect(result.tables[table], table).toBe(written[table].length);
      expect(result.latestSequence).toBe(last.sequence);
      expect(progress).toContain('issues:2:true');

      for (const table of dumpTables) {
        const copied = await target.transaction((t) => readAll(t, table, 100));
        expect(copied.map(rowKey).sort(), table).toEqual(written[table].map(rowKey).sort());
      }
      await target.transaction(async (t) => {
        const token = written.tokens[0];
        // A copy cannot tell a token issued before routes: every copied token is found by its hash alone.
        expect(await t.tokens.getByHash(token?.hash ?? '', null)).toEqual(token);
        expect(await t.tenancy.getUserByEmail('ada@example.com')).toEqual(written.users[0]);
        expect(await t.counters.next('wsp_1', 'issues:prj_1')).toBe(3);
        expect(await t.signals.latestSequence()).toBe(last.sequence);
        expect((await t.signals.append(sampleSignal('acc_1'))).sequence).toBe(last.sequence + 1);
        expect(
          await t.deliveries.claimDue({ now: at(10), leaseId: 'lease_1', leaseUntil: at(70), limit: 10 }),
        ).toEqual([
          { ...written.deliveries[0], status: 'sending', leaseId: 'lease_1', leaseExpiresAt: at(70) },
        ]);
        expect(await t.deliveries.attempts('acc_2', written.deliveries[1]?.id ?? '', 10)).toEqual(
          written.deliveryAttempts,
        );
        // The watches, their filed signals and the read markers came along: feeds read as before.
        const feed = { accountId: 'acc_1', workspaceId: 'wsp_1', userId: 'usr_2' };
        expect(await t.watches.feed({ ...feed, order: 'asc', limit: 10 })).toEqual([
          written.signals[0],
          written.signals[2],
        ]);
        expect(await t.watches.readUpTo('acc_1', 'wsp_1', 'usr_2')).toBe(written.signals[0]?.sequence);
      });
    });

    it('refuses a target that holds anything, and leaves it as it was', async () => {
      await tx(seedEveryTable);
      const target = await another();
      await target.transaction((t) =>
        t.tenancy.insertAccount({ id: 'acc_9', name: 'Nine', createdAt: at(0) }),
      );
      await expect(copyStorage(store(), target)).rejects.toThrow(TargetNotEmpty);
      expect(await target.transaction((t) => readAll(t, 'workspaces', 10))).toEqual([]);

      // A target that kept nothing but a sequence carried on, where the adapter keeps one for all
      // accounts (memory, SQLite). PostgreSQL keeps each account's in the account's row: with no
      // account there is no sequence to keep, and nothing to refuse.
      const sequenced = await another();
      await sequenced.transaction((t) => t.signals.continueAfter(3));
      if ((await sequenced.transaction((t) => t.signals.latestSequence())) > 0) {
        await expect(copyStorage(store(), sequenced)).rejects.toThrow(TargetNotEmpty);
      }
    });

    it('leaves the target empty when the copy fails half-way', async () => {
      await tx(seedEveryTable);
      const target = await another();
      await expect(
        copyStorage(store(), target, {
          onProgress: (p) => {
            if (p.table === 'issues') throw new Error('disk full');
          },
        }),
      ).rejects.toThrow('disk full');
      for (const table of dumpTables) {
        expect(await target.transaction((t) => t.dump.page(table, null, 1)), table).toEqual({
          rows: [],
          next: null,
        });
      }
    });
  });
}
