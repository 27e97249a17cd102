import { afterEach, describe, expect, it } from 'vitest';
import { issues, type Storage, type StorageTx } from '../../src/core/index.js';
import { adaptersUnderTest } from '../support/adapters.js';
import { type WebhookFixture, webhookFixture } from './fixture.js';

type Failure = 'none' | 'idempotency.put' | 'second delivery insert';

/** Wraps a storage so a test can make one write fail mid-transaction, after others succeeded. */
function breakable(inner: Storage): { storage: Storage; fail(what: Failure): void } {
  let failure: Failure = 'none';
  const wrap = (tx: StorageTx): StorageTx => {
    let deliveryInserts = 0;
    return {
      ...tx,
      idempotency: {
        ...tx.idempotency,
        put: async (record, replaceIfBefore) => {
          if (failure === 'idempotency.put') throw new Error('SQLITE_FULL: database or disk is full');
          return tx.idempotency.put(record, replaceIfBefore);
        },
      },
      deliveries: {
        ...tx.deliveries,
        insert: async (delivery) => {
          if (failure === 'second delivery insert' && ++deliveryInserts === 2) {
            throw new Error('SQLITE_IOERR: disk I/O error');
          }
          return tx.deliveries.insert(delivery);
        },
      },
    };
  };
  return {
    storage: {
      transaction: (fn, options) => inner.transaction((tx) => fn(wrap(tx)), options),
      close: () => inner.close(),
    },
    fail: (what) => {
      failure = what;
    },
  };
}

for (const adapter of adaptersUnderTest) {
  describe(`the webhook outbox (${adapter.name})`, () => {
    let fixture: WebhookFixture;
    let control: ReturnType<typeof breakable>;

    afterEach(async () => {
      await fixture?.close();
    });

    /** A fixture whose storage can fail on demand, with two subscriptions of the main account wanting issue.created. */
    async function setup() {
      control = breakable(await adapter.create());
      fixture = await webhookFixture({ storage: control.storage });
      const a = await fixture.subscribe('https://a.example.com/hook', ['issue.created']);
      const b = await fixture.subscribe('https://b.example.com/hook', ['*']);
      return [a.id, b.id];
    }

    const counts = async () => ({
      signals: (
        await fixture.storage.transaction((tx) =>
          tx.signals.list({ accountId: fixture.main.accountId, limit: 1000 }),
        )
      ).length,
      deliveries: (await fixture.deliveries()).length,
      issues: (
        await fixture.storage.transaction((tx) =>
          tx.collections.issues.list({ workspaceId: fixture.main.workspaceId, limit: 1000 }),
        )
      ).total,
    });

    it('writes one delivery per matching active subscription of the account, in the transaction of the signal', async () => {
      const [a, b] = await setup();
      const unwanted = await fixture.subscribe('https://c.example.com/hook', ['outcome.shipped']);
      const disabled = await fixture.subscribe('https://d.example.com/hook', ['issue.created']);
      const patched = await fixture.api('PATCH', `/webhooks/${disabled.id}`, {
        body: { status: 'disabled' },
        headers: { 'if-match': '"1"' },
      });
      expect(patched.status).toBe(200);
      const foreign = await fixture.subscribe('https://e.example.com/hook', ['*'], fixture.other);
      const before = await fixture.deliveries();

      const created = await fixture.api('POST', '/issues', {
        body: { projectId: fixture.main.projectId, title: 'Outbox' },
      });
      expect(created.status).toBe(201);
      const [signal] = await fixture.storage.transaction((tx) =>
        tx.signals.list({ accountId: fixture.main.accountId, types: ['issue.created'], limit: 10 }),
      );
      const added = (await fixture.deliveries()).filter((d) => !before.some((e) => e.id === d.id));
      expect(added.map((d) => d.subscriptionId).sort()).toEqual([a, b].sort());
      for (const delivery of added) {
        expect(delivery).toMatchObject({
          eventId: signal?.id,
          eventType: 'issue.created',
          status: 'pending',
          attempts: 0,
          nextAttemptAt: signal?.occurredAt,
        });
        expect(JSON.parse(delivery.payload)).toEqual({
          id: signal?.id,
          type: 'issue.created',
          occurredAt: signal?.occurredAt,
          data: signal?.data,
        });
        expect(Object.keys(JSON.parse(delivery.payload))).toEqual(['id', 'type', 'occurredAt', 'data']);
      }
      for (const id of [unwanted.id, disabled.id, foreign.id]) {
        expect(added.some((d) => d.subscriptionId === id)).toBe(false);
      }
    });

    it('hands the dispatcher due deliveries, leased, and none of a subscription it says is busy', async () => {
      const [a, b] = (await setup()) as [string, string];
      await fixture.createIssue('Claimed');
      const now = new Date(fixture.clock.now()).toISOString();
      const lease = new Date(fixture.clock.now() + 30_000).toISOString();
      const claim = (at: string, leaseUntil: string, full: string[] = []) =>
        fixture.storage.transaction((tx) =>
          tx.deliveries.claimDue({
            now: at,
            leaseId: fixture.tracker.ids.uuid(),
            leaseUntil,
            limit: 10,
            fullSubscriptions: full,
          }),
        );
      const claimed = await claim(now, lease, [a]);
      expect(claimed.map((d) => d.subscriptionId)).toEqual([b, b]); // its own webhook.created, and the issue
      expect(claimed.every((d) => d.status === 'sending' && d.leaseExpiresAt === lease)).toBe(true);
      const again = await claim(now, lease);
      expect(again.map((d) => d.subscriptionId)).toEqual([a]);
      expect(await claim(now, lease)).toEqual([]);
      // Once the lease passes, an abandoned claim is claimable again.
      const afterLease = new Date(fixture.clock.now() + 60_000).toISOString();
      const later = await claim(lease, afterLease);
      expect(later).toHaveLength(3);
    });

    it('leaves no issue, signal or delivery when the request fails after the handler wrote them', async () => {
      await setup();
      const before = await counts();
      control.fail('idempotency.put');
      const failed = await fixture.api('POST', '/issues', {
        body: { projectId: fixture.main.projectId, title: 'Doomed' },
      });
      expect(failed.status).toBe(500);
      expect(JSON.stringify(failed.json)).not.toContain('SQLITE');
      expect(await counts()).toEqual(before);

      control.fail('none');
      await fixture.api('POST', '/issues', { body: { projectId: fixture.main.projectId, title: 'Fine' } });
      expect(await counts()).toEqual({
        signals: before.signals + 1,
        deliveries: before.deliveries + 2,
        issues: before.issues + 1,
      });
    });

    it('leaves nothing when the second delivery of one signal cannot be written', async () => {
      await setup();
      const before = await counts();
      control.fail('second delivery insert');
      const failed = await fixture.api('POST', '/issues', {
        body: { projectId: fixture.main.projectId, title: 'Half delivered' },
      });
      expect(failed.status).toBe(500);
      expect(await counts()).toEqual(before);
    });

    it('leaves nothing when an embedding app throws after an operation wrote, in tracker.run', async () => {
      await setup();
      const before = await counts();
      await expect(
        fixture.tracker.run({ token: fixture.main.token }, async (ctx) => {
          await issues.create(ctx, { projectId: fixture.main.projectId, title: 'Rolled back' });
          throw new Error('the embedding app changed its mind');
        }),
      ).rejects.toThrow('changed its mind');
      expect(await counts()).toEqual(before);
      expect(await fixture.tracker.webhooks.dispatchDue()).toBe(before.deliveries);
    });
  });
}
