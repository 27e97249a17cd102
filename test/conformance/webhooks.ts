import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AttemptRecord, DeliveryClaim, WebhookDelivery } from '../../src/core/index.js';
import type { AdapterUnderTest } from '../support/adapters.js';
import {
  at,
  freshStore,
  macrotask,
  newId,
  sampleAttempt,
  sampleDelivery,
  sampleWebhook,
} from './fixtures.js';

/** Webhook subscriptions and their deliveries (the outbox). */
export function webhookTests(adapter: AdapterUnderTest): void {
  describe('webhook subscriptions', () => {
    const { tx } = freshStore(adapter);

    it('finds a subscription in its own account only', async () => {
      const hook = sampleWebhook('acc_1');
      await tx((t) => t.webhooks.insert(hook));
      expect(await tx((t) => t.webhooks.get('acc_1', hook.id))).toEqual(hook);
      expect(await tx((t) => t.webhooks.get('acc_2', hook.id))).toBeNull();
    });

    it('lists an account’s subscriptions newest first, by status, keyset-paged with a total', async () => {
      const hooks = [
        sampleWebhook('acc_1', { createdAt: at(1) }),
        sampleWebhook('acc_1', { createdAt: at(2), status: 'disabled' }),
        sampleWebhook('acc_1', { createdAt: at(3) }),
        sampleWebhook('acc_1', { createdAt: at(3) }),
      ];
      await tx(async (t) => {
        for (const h of hooks) await t.webhooks.insert(h);
        await t.webhooks.insert(sampleWebhook('acc_2'));
      });
      const [h1, h2, h3, h4] = hooks as [
        (typeof hooks)[0],
        (typeof hooks)[0],
        (typeof hooks)[0],
        (typeof hooks)[0],
      ];
      const newest = h3.id > h4.id ? [h3, h4] : [h4, h3];
      const first = await tx((t) => t.webhooks.list({ accountId: 'acc_1', limit: 2 }));
      expect(first).toEqual({ rows: newest, total: 4 });
      const last = newest[1] as typeof h1;
      const second = await tx((t) =>
        t.webhooks.list({ accountId: 'acc_1', limit: 2, after: { createdAt: last.createdAt, id: last.id } }),
      );
      expect(second).toEqual({ rows: [h2, h1], total: 4 });
      const active = await tx((t) => t.webhooks.list({ accountId: 'acc_1', status: 'active', limit: 10 }));
      expect(active).toEqual({ rows: [...newest, h1], total: 3 });
    });

    it('updates by compare-and-set on version', async () => {
      const hook = sampleWebhook('acc_1');
      await tx((t) => t.webhooks.insert(hook));
      const changed = { ...hook, url: 'https://hooks.example.com/v2', version: 2 };
      await tx((t) => t.webhooks.update(changed, 1));
      expect(await tx((t) => t.webhooks.get('acc_1', hook.id))).toEqual(changed);
      await expect(tx((t) => t.webhooks.update({ ...hook, version: 2 }, 1))).rejects.toMatchObject({
        name: 'VersionMismatch',
        current: 2,
      });
      await expect(tx((t) => t.webhooks.update({ ...hook, accountId: 'acc_2' }, 2))).rejects.toMatchObject({
        name: 'VersionMismatch',
        current: null,
      });
    });

    it('deletes a subscription with its deliveries, leaving other subscriptions’ deliveries', async () => {
      const doomed = sampleWebhook('acc_1');
      const kept = sampleWebhook('acc_1');
      const doomedDelivery = sampleDelivery('acc_1', doomed.id);
      const keptDelivery = sampleDelivery('acc_1', kept.id);
      await tx(async (t) => {
        await t.webhooks.insert(doomed);
        await t.webhooks.insert(kept);
        await t.deliveries.insert(doomedDelivery);
        await t.deliveries.insert(keptDelivery);
      });
      expect(await tx((t) => t.webhooks.delete('acc_2', doomed.id))).toBe(false);
      expect(await tx((t) => t.webhooks.delete('acc_1', doomed.id))).toBe(true);
      expect(await tx((t) => t.webhooks.delete('acc_1', doomed.id))).toBe(false);
      await tx(async (t) => {
        expect(await t.webhooks.get('acc_1', doomed.id)).toBeNull();
        expect(await t.deliveries.get('acc_1', doomedDelivery.id)).toBeNull();
        expect(await t.deliveries.get('acc_1', keptDelivery.id)).toEqual(keptDelivery);
      });
    });

    it('finds the active subscriptions wanting an event type, listed exactly or through "*"', async () => {
      const exact = sampleWebhook('acc_1', { eventTypes: ['issue.created', 'issue.updated'] });
      const star = sampleWebhook('acc_1', { eventTypes: ['*'] });
      const otherType = sampleWebhook('acc_1', { eventTypes: ['project.created'] });
      const prefixOnly = sampleWebhook('acc_1', { eventTypes: ['issue'] });
      const disabled = sampleWebhook('acc_1', { eventTypes: ['*'], status: 'disabled' });
      const otherAccount = sampleWebhook('acc_2', { eventTypes: ['*'] });
      await tx(async (t) => {
        for (const h of [exact, star, otherType, prefixOnly, disabled, otherAccount])
          await t.webhooks.insert(h);
      });
      const found = await tx((t) => t.webhooks.activeFor('acc_1', 'issue.updated'));
      expect(found.map((h) => h.id).sort()).toEqual([exact.id, star.id].sort());
      expect(await tx((t) => t.webhooks.activeFor('acc_3', 'issue.updated'))).toEqual([]);
    });
  });

  describe('webhook deliveries', () => {
    const { tx } = freshStore(adapter);

    it('stores, updates and finds deliveries in their account only', async () => {
      const delivery = sampleDelivery('acc_1', 'whk_1');
      await tx((t) => t.deliveries.insert(delivery));
      expect(await tx((t) => t.deliveries.get('acc_2', delivery.id))).toBeNull();
      const delivered: WebhookDelivery = {
        ...delivery,
        status: 'delivered',
        attempts: 1,
        nextAttemptAt: null,
        deliveredAt: at(5),
        lastResponseStatus: 204,
      };
      await tx((t) => t.deliveries.update(delivered));
      expect(await tx((t) => t.deliveries.get('acc_1', delivery.id))).toEqual(delivered);
    });

    it('lists one subscription’s deliveries newest first, keyset-paged with a total', async () => {
      const rows = [0, 1, 2, 3, 4].map((i) => sampleDelivery('acc_1', 'whk_1', { createdAt: at(i) }));
      await tx(async (t) => {
        for (const d of rows) await t.deliveries.insert(d);
        await t.deliveries.insert(sampleDelivery('acc_1', 'whk_2'));
      });
      const newestFirst = [...rows].reverse();
      const first = await tx((t) =>
        t.deliveries.list({ accountId: 'acc_1', subscriptionId: 'whk_1', limit: 3 }),
      );
      expect(first).toEqual({ rows: newestFirst.slice(0, 3), total: 5 });
      const last = newestFirst[2] as WebhookDelivery;
      const second = await tx((t) =>
        t.deliveries.list({
          accountId: 'acc_1',
          subscriptionId: 'whk_1',
          limit: 3,
          after: { createdAt: last.createdAt, id: last.id },
        }),
      );
      expect(second).toEqual({ rows: newestFirst.slice(3), total: 5 });
      expect(
        await tx((t) => t.deliveries.list({ accountId: 'acc_2', subscriptionId: 'whk_1', limit: 3 })),
      ).toEqual({ rows: [], total: 0 });
    });

    const claim = (now: string, leaseUntil: string, limit: number, extra: Partial<DeliveryClaim> = {}) =>
      tx((t) => t.deliveries.claimDue({ now, leaseId: newId('lease'), leaseUntil, limit, ...extra }));

    it('claims due pending deliveries oldest due first, moving them to sending under the claim’s lease', async () => {
      const late = sampleDelivery('acc_1', 'whk_1', { nextAttemptAt: at(5) });
      const early = sampleDelivery('acc_1', 'whk_1', { nextAttemptAt: at(1) });
      const notDue = sampleDelivery('acc_1', 'whk_1', { nextAttemptAt: at(50) });
      const done = sampleDelivery('acc_1', 'whk_1', { status: 'delivered', nextAttemptAt: null });
      const failed = sampleDelivery('acc_1', 'whk_1', { status: 'failed', nextAttemptAt: null });
      await tx(async (t) => {
        for (const d of [late, early, notDue, done, failed]) await t.deliveries.insert(d);
      });
      const claimed = await tx((t) =>
        t.deliveries.claimDue({ now: at(10), leaseId: 'lease_a', leaseUntil: at(70), limit: 10 }),
      );
      const sending = { status: 'sending', leaseId: 'lease_a', leaseExpiresAt: at(70) } as const;
      expect(claimed).toEqual([
        { ...early, ...sending },
        { ...late, ...sending },
      ]);
      expect(await tx((t) => t.deliveries.get('acc_1', early.id))).toEqual({ ...early, ...sending });
      expect(await claim(at(10), at(70), 10)).toEqual([]);
      expect(await tx((t) => t.deliveries.nextClaimableAt())).toBe(at(50));
    });

    it('makes a delivery whose lease expired claimable again, and refuses the stale claimant’s record', async () => {
      const delivery = sampleDelivery('acc_1', 'whk_1', { nextAttemptAt: at(0) });
      await tx((t) => t.deliveries.insert(delivery));
      const [first] = await tx((t) =>
        t.deliveries.claimDue({ now: at(1), leaseId: 'lease_old', leaseUntil: at(31), limit: 1 }),
      );
      expect(first?.leaseId).toBe('lease_old');
      expect(await claim(at(30), at(60), 10)).toEqual([]);
      expect(await tx((t) => t.deliveries.nextClaimableAt())).toBe(at(31));
      const [second] = await tx((t) =>
        t.deliveries.claimDue({ now: at(31), leaseId: 'lease_new', leaseUntil: at(61), limit: 1 }),
      );
      expect(second).toMatchObject({ id: delivery.id, status: 'sending', leaseId: 'lease_new' });

      const result = (status: 'delivered' | 'failed', number: number): AttemptRecord => ({
        delivery: {
          ...delivery,
          status,
          attempts: 1,
          nextAttemptAt: null,
          deliveredAt: status === 'delivered' ? at(40) : null,
          lastResponseStatus: status === 'delivered' ? 200 : 500,
        },
        leaseId: number === 1 ? 'lease_old' : 'lease_new',
        attempt: sampleAttempt(delivery, number, status === 'delivered'),
      });
      // The new claimant records first; the stale one, late, is refused and changes nothing.
      expect(await tx((t) => t.deliveries.recordAttempts([result('delivered', 2)]))).toEqual([true]);
      expect(await tx((t) => t.deliveries.recordAttempts([result('failed', 1)]))).toEqual([false]);
      expect(await tx((t) => t.deliveries.get('acc_1', delivery.id))).toEqual(
        result('delivered', 2).delivery,
      );
      const log = await tx((t) => t.deliveries.attempts('acc_1', delivery.id, 10));
      expect(log.map((a) => a.number)).toEqual([2]);
      // Recorded once: the same lease cannot record twice.
      expect(await tx((t) => t.deliveries.recordAttempts([result('delivered', 2)]))).toEqual([false]);
    });

    it('records a batch, each record fenced by its own lease, and keeps each attempt log in order', async () => {
      const a = sampleDelivery('acc_1', 'whk_1', { nextAttemptAt: at(0) });
      const b = sampleDelivery('acc_1', 'whk_1', { nextAttemptAt: at(0) });
      await tx(async (t) => {
        await t.deliveries.insert(a);
        await t.deliveries.insert(b);
      });
      const [claimedA, claimedB] = await claim(at(1), at(31), 2);
      const retrying = (d: WebhookDelivery, n: number): AttemptRecord => ({
        delivery: {
          ...d,
          status: 'pending',
          attempts: n,
          leaseId: null,
          leaseExpiresAt: null,
          nextAttemptAt: at(100),
        },
        leaseId: d.leaseId ?? '',
        attempt: sampleAttempt(d, n, false),
      });
      if (!claimedA || !claimedB) throw new Error('both should be claimed');
      const applied = await tx((t) =>
        t.deliveries.recordAttempts([
          retrying(claimedA, 1),
          { ...retrying(claimedB, 1), leaseId: 'not_mine' },
        ]),
      );
      expect(applied).toEqual([true, false]);
      expect(await tx((t) => t.deliveries.get('acc_1', a.id))).toMatchObject({
        status: 'pending',
        attempts: 1,
      });
      expect(await tx((t) => t.deliveries.get('acc_1', b.id))).toMatchObject({ status: 'sending' });
      // b's lease ran out at 31, a came due at 100: both claimable, b first.
      const reclaimed = await claim(at(100), at(130), 2);
      expect(reclaimed.map((d) => d.id)).toEqual([b.id, a.id]);
      const again = reclaimed[1];
      if (!again) throw new Error('claimed');
      await tx((t) => t.deliveries.recordAttempts([retrying(again, 2)]));
      const log = await tx((t) => t.deliveries.attempts('acc_1', a.id, 10));
      expect(log.map((x) => x.number)).toEqual([1, 2]);
      expect(log[0]).toEqual(sampleAttempt(claimedA, 1, false));
      expect((await tx((t) => t.deliveries.attempts('acc_1', a.id, 1))).map((x) => x.number)).toEqual([2]);
      expect(await tx((t) => t.deliveries.attempts('acc_2', a.id, 10))).toEqual([]);
    });

    it('counts one subscription’s attempts per hour since a time', async () => {
      const d = sampleDelivery('acc_1', 'whk_1', { nextAttemptAt: at(0) });
      const other = sampleDelivery('acc_1', 'whk_2', { nextAttemptAt: at(0) });
      await tx(async (t) => {
        await t.deliveries.insert(d);
        await t.deliveries.insert(other);
      });
      const claimed = await claim(at(1), at(31), 2);
      const startedAt = [
        '2026-01-01T09:59:59.000Z',
        '2026-01-01T10:00:00.000Z',
        '2026-01-01T10:59:00.000Z',
        '2026-01-01T12:30:00.000Z',
      ];
      await tx(async (t) => {
        for (const c of claimed) {
          await t.deliveries.recordAttempts([
            {
              delivery: { ...c, status: 'failed', leaseId: null, leaseExpiresAt: null },
              leaseId: c.leaseId ?? '',
              attempt: null,
            },
          ]);
        }
      });
      // Attempts are appended through claims; log four for whk_1 and one for whk_2.
      let n = 0;
      for (const time of startedAt) {
        n++;
        const target = { ...d, status: 'pending' as const, nextAttemptAt: at(200 + n) };
        await tx((t) => t.deliveries.update(target));
        const [c] = await claim(at(200 + n), at(400), 1, { fullSubscriptions: ['whk_2'] });
        if (!c) throw new Error('claimable');
        await tx((t) =>
          t.deliveries.recordAttempts([
            {
              delivery: { ...c, status: 'failed', leaseId: null, leaseExpiresAt: null },
              leaseId: c.leaseId ?? '',
              attempt: { ...sampleAttempt(c, n, n !== 2), startedAt: time },
            },
          ]),
        );
      }
      const hours = await tx((t) =>
        t.deliveries.attemptsPerHour('acc_1', 'whk_1', '2026-01-01T10:00:00.000Z'),
      );
      expect(hours).toEqual([
        { hour: '2026-01-01T10:00:00.000Z', succeeded: 1, failed: 1 },
        { hour: '2026-01-01T12:00:00.000Z', succeeded: 1, failed: 0 },
      ]);
      expect(
        await tx((t) => t.deliveries.attemptsPerHour('acc_2', 'whk_1', '2026-01-01T00:00:00.000Z')),
      ).toEqual([]);
    });

    it('counts per hour only committed attempts, and forgets them with the subscription', async () => {
      const hook = sampleWebhook('acc_1');
      const d = sampleDelivery('acc_1', hook.id);
      const attempt = (n: number, succeeded: boolean, startedAt: string) => ({
        ...sampleAttempt(d, n, succeeded),
        startedAt,
      });
      await tx(async (t) => {
        await t.webhooks.insert(hook);
        await t.deliveries.insert(d);
        await t.deliveries.insertAttempt(attempt(1, true, '2026-01-01T10:05:00.000Z'));
        await t.deliveries.insertAttempt(attempt(2, false, '2026-01-01T10:06:00.000Z'));
      });
      const rolledBack = new Error('roll back');
      await expect(
        tx(async (t) => {
          await t.deliveries.insertAttempt(attempt(3, true, '2026-01-01T10:07:00.000Z'));
          await t.deliveries.insertAttempt(attempt(4, false, '2026-01-01T11:00:00.000Z'));
          throw rolledBack;
        }),
      ).rejects.toBe(rolledBack);
      const since = '2026-01-01T00:00:00.000Z';
      expect(await tx((t) => t.deliveries.attemptsPerHour('acc_1', hook.id, since))).toEqual([
        { hour: '2026-01-01T10:00:00.000Z', succeeded: 1, failed: 1 },
      ]);
      expect(
        await tx((t) => t.deliveries.attemptsPerHour('acc_1', hook.id, '2026-01-01T11:00:00.000Z')),
      ).toEqual([]);
      await tx((t) => t.webhooks.delete('acc_1', hook.id));
      expect(await tx((t) => t.deliveries.attemptsPerHour('acc_1', hook.id, since))).toEqual([]);
    });

    it('claims within the fairness budget: per subscription, per account, and none of the full ones', async () => {
      await tx(async (t) => {
        for (let i = 0; i < 4; i++) {
          await t.deliveries.insert(sampleDelivery('acc_1', 'whk_a', { nextAttemptAt: at(i) }));
          await t.deliveries.insert(sampleDelivery('acc_1', 'whk_b', { nextAttemptAt: at(i) }));
          await t.deliveries.insert(sampleDelivery('acc_2', 'whk_c', { nextAttemptAt: at(i) }));
          await t.deliveries.insert(sampleDelivery('acc_3', 'whk_d', { nextAttemptAt: at(i) }));
        }
      });
      const claimed = await claim(at(10), at(70), 100, {
        subscriptionSlots: (id) => (id === 'whk_a' ? 1 : 2),
        accountSlots: (id) => (id === 'acc_1' ? 2 : 10),
        fullAccounts: ['acc_3'],
      });
      const by = (key: 'subscriptionId' | 'accountId') =>
        claimed.reduce<Record<string, number>>((n, d) => {
          n[d[key]] = (n[d[key]] ?? 0) + 1;
          return n;
        }, {});
      expect(by('subscriptionId')).toEqual({ whk_a: 1, whk_b: 1, whk_c: 2 });
      expect(by('accountId')).toEqual({ acc_1: 2, acc_2: 2 });
      // The rest stays claimable.
      expect(await claim(at(10), at(70), 100)).toHaveLength(16 - 4);
    });

    it('finds, in a thorough claim, the one delivery behind a backlog of a subscription out of slots', async () => {
      await tx(async (t) => {
        for (let i = 0; i < 40; i++) {
          await t.deliveries.insert(sampleDelivery('acc_1', 'whk_busy', { nextAttemptAt: at(1) }));
        }
        await t.deliveries.insert(sampleDelivery('acc_2', 'whk_quiet', { nextAttemptAt: at(2) }));
      });
      const claimed = await claim(at(10), at(70), 8, {
        subscriptionSlots: (id) => (id === 'whk_busy' ? 1 : 8),
      });
      expect(claimed.map((d) => d.subscriptionId).sort()).toEqual(['whk_busy', 'whk_quiet']);
      // A first-page claim may stop early, but never hands out more than the budget allows.
      const quick = await claim(at(10), at(70), 8, {
        subscriptionSlots: (id) => (id === 'whk_busy' ? 2 : 8),
        thorough: false,
      });
      expect(quick.length).toBeGreaterThanOrEqual(1);
      expect(quick.every((d) => d.subscriptionId === 'whk_busy')).toBe(true);
      expect(quick.length).toBeLessThanOrEqual(2);
    });

    it('claims, whatever the budget and the full ones named, what walking the due queue in order would admit', async () => {
      // The model: every due delivery oldest due first (ties in insertion order), each admitted
      // while its subscription and account have a slot left, up to the limit. Adapters may find
      // them another way (SQLite and PostgreSQL take the heads of the other subscriptions'
      // queues after a few pages of refused rows), but must claim exactly these.
      const subscriptions = ['whk_a', 'whk_b', 'whk_c', 'whk_d', 'whk_e'];
      const accountOf = (s: string) =>
        s === 'whk_a' || s === 'whk_b' ? 'acc_1' : s === 'whk_c' ? 'acc_2' : 'acc_3';
      let window = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.array(
            fc.record({ s: fc.constantFrom(...subscriptions), due: fc.integer({ min: 0, max: 12 }) }),
            { maxLength: 40 },
          ),
          // A backlog of whk_a due first, as a slow receiver leaves: up to 100, past the few pages
          // an adapter may walk before it takes heads.
          fc.integer({ min: 0, max: 100 }),
          fc.dictionary(fc.constantFrom(...subscriptions), fc.integer({ min: 0, max: 5 })),
          fc.dictionary(fc.constantFrom('acc_1', 'acc_2', 'acc_3'), fc.integer({ min: 0, max: 8 })),
          fc.subarray(subscriptions),
          fc.subarray(['acc_1', 'acc_2', 'acc_3']),
          fc.integer({ min: 1, max: 12 }),
          async (
            queued,
            backlog,
            subscriptionSlots,
            accountSlots,
            fullSubscriptions,
            fullAccounts,
            limit,
          ) => {
            // Each run in a time window of its own, after the last run's rows were all leased away.
            window += 100;
            const start = window;
            const inOrder = [...Array.from({ length: backlog }, () => ({ s: 'whk_a', due: 0 })), ...queued];
            const rows = inOrder.map(({ s, due }) => ({
              delivery: sampleDelivery(accountOf(s), s, { nextAttemptAt: at(start + due) }),
              dueAt: at(start + due),
            }));
            await tx(async (t) => {
              for (const { delivery } of rows) await t.deliveries.insert(delivery);
            });
            const now = at(start + 10);
            const subLeft = new Map(fullSubscriptions.map((id) => [id, 0]));
            const accountLeft = new Map(fullAccounts.map((id) => [id, 0]));
            const expected: string[] = [];
            const dueRows = rows
              .map((row, order) => ({ ...row, order }))
              .filter(({ dueAt }) => dueAt <= now)
              .sort((a, b) => a.dueAt.localeCompare(b.dueAt) || a.order - b.order);
            for (const { delivery: row } of dueRows) {
              if (expected.length >= limit) break;
              const sub = subLeft.get(row.subscriptionId) ?? subscriptionSlots[row.subscriptionId] ?? 99;
              const acct = accountLeft.get(row.accountId) ?? accountSlots[row.accountId] ?? 99;
              if (sub <= 0 || acct <= 0) continue;
              subLeft.set(row.subscriptionId, sub - 1);
              accountLeft.set(row.accountId, acct - 1);
              expected.push(row.id);
            }
            try {
              const claimed = await claim(now, at(start + 1_000_000), limit, {
                subscriptionSlots: (id) => subscriptionSlots[id] ?? 99,
                accountSlots: (id) => accountSlots[id] ?? 99,
                fullSubscriptions,
                fullAccounts,
              });
              expect(claimed.map((d) => d.id).sort()).toEqual([...expected].sort());
            } finally {
              // What is left is leased far away, out of the next run's window: a failed run's
              // rows too, or every smaller input fast-check tries next would meet them.
              await claim(at(start + 99), at(start + 1_000_000), 1000);
            }
          },
        ),
        { numRuns: 40 },
      );
    });

    it('claims past a queue head whose account turns out to have no slot, to a later head that fits', async () => {
      // A backlog of a full account walked past, then two other subscriptions' heads: the first
      // due is refused (its account has no slot, which the claim learns only by trying it), the
      // second fits. PostgreSQL once took only as many heads as it wanted, and stopped there.
      const start = 0;
      const backlog = Array.from({ length: 64 }, () =>
        sampleDelivery('acc_1', 'whk_a', { nextAttemptAt: at(start) }),
      );
      const fits = sampleDelivery('acc_3', 'whk_d', { nextAttemptAt: at(start + 1) });
      const refused = sampleDelivery('acc_2', 'whk_c', { nextAttemptAt: at(start) });
      await tx(async (t) => {
        for (const delivery of [...backlog, fits, refused]) await t.deliveries.insert(delivery);
      });
      const claimed = await claim(at(start + 10), at(start + 1_000_000), 1, {
        subscriptionSlots: () => 99,
        accountSlots: (id) => (id === 'acc_2' ? 0 : 99),
        fullSubscriptions: [],
        fullAccounts: ['acc_1'],
      });
      expect(claimed.map((d) => d.id)).toEqual([fits.id]);
    });

    it('claims a due delivery just past the rows it walked, when it leased some of those', async () => {
      // The walk reads the first 64 due rows (four pages of 16 for a claim of 12): 62 of a full
      // subscription and two it leases. Leased, those two are no longer due, so the rows now due
      // number fewer than the walk read, yet a third, just past the walk, is due and fits.
      // PostgreSQL once counted the rows due after leasing and took that for the end of the queue.
      const start = 0;
      const backlog = Array.from({ length: 62 }, () =>
        sampleDelivery('acc_1', 'whk_a', { nextAttemptAt: at(start) }),
      );
      const fitting = [1, 2, 3].map((due) =>
        sampleDelivery('acc_3', 'whk_d', { nextAttemptAt: at(start + due) }),
      );
      await tx(async (t) => {
        for (const delivery of [...backlog, ...fitting]) await t.deliveries.insert(delivery);
      });
      const claimed = await claim(at(start + 10), at(start + 1_000_000), 12, {
        fullSubscriptions: ['whk_a'],
      });
      expect(claimed.map((d) => d.id).sort()).toEqual(fitting.map((d) => d.id).sort());
    });

    it('never hands the same delivery to two concurrent claims', async () => {
      await tx(async (t) => {
        for (let i = 0; i < 20; i++) {
          await t.deliveries.insert(sampleDelivery('acc_1', 'whk_1', { nextAttemptAt: at(i % 5) }));
        }
      });
      const batches = await Promise.all(
        Array.from({ length: 10 }, () =>
          tx(async (t) => {
            await macrotask();
            return t.deliveries.claimDue({
              now: at(10),
              leaseId: newId('lease'),
              leaseUntil: at(100),
              limit: 3,
            });
          }),
        ),
      );
      const ids = batches.flat().map((d) => d.id);
      expect(ids).toHaveLength(20);
      expect(new Set(ids).size).toBe(20);
      const leases = new Set(batches.flatMap((batch) => batch.map((d) => d.leaseId)));
      expect(leases.size).toBe(batches.filter((b) => b.length > 0).length);
    });

    it('lets only one of two concurrent records under different leases apply', async () => {
      const delivery = sampleDelivery('acc_1', 'whk_1', { nextAttemptAt: at(0) });
      await tx((t) => t.deliveries.insert(delivery));
      const [old] = await tx((t) =>
        t.deliveries.claimDue({ now: at(1), leaseId: 'l1', leaseUntil: at(2), limit: 1 }),
      );
      const [current] = await tx((t) =>
        t.deliveries.claimDue({ now: at(3), leaseId: 'l2', leaseUntil: at(33), limit: 1 }),
      );
      if (!old || !current) throw new Error('claimed twice over time');
      const record = (leaseId: string, status: number): AttemptRecord => ({
        delivery: {
          ...delivery,
          status: 'delivered',
          attempts: 1,
          lastResponseStatus: status,
          nextAttemptAt: null,
        },
        leaseId,
        attempt: { ...sampleAttempt(delivery, 1, true), id: newId('att') },
      });
      const results = await Promise.all([
        tx(async (t) => {
          await macrotask();
          return t.deliveries.recordAttempts([record('l1', 201)]);
        }),
        tx(async (t) => {
          await macrotask();
          return t.deliveries.recordAttempts([record('l2', 202)]);
        }),
      ]);
      expect(results).toEqual([[false], [true]]);
      expect((await tx((t) => t.deliveries.get('acc_1', delivery.id)))?.lastResponseStatus).toBe(202);
      expect(await tx((t) => t.deliveries.attempts('acc_1', delivery.id, 10))).toHaveLength(1);
    });
  });
}
