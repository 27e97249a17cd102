import { createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { memoryStorage } from '../../src/adapters/memory/index.js';
import { sqliteStorage } from '../../src/adapters/sqlite/index.js';
import {
  createTracker,
  issues,
  type Storage,
  type WebhookRequest,
  type WebhookResult,
  type WebhookSender,
} from '../../src/core/index.js';
import { nodeWebhookSender } from '../../src/http/webhook-sender.js';
import { type Receiver, startReceiver, type WebhookFixture, webhookFixture } from './fixture.js';

const packageVersion = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  }
).version;

/** Resolves once `check` holds, polling the event loop (no wall-clock threshold: the test timeout bounds it). */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 5));
}

let fixture: WebhookFixture;
const receivers: Receiver[] = [];
afterEach(async () => {
  await fixture?.close();
  for (const r of receivers.splice(0)) await r.close();
});

async function receiver(): Promise<Receiver> {
  const r = await startReceiver(() => fixture.clock.now());
  receivers.push(r);
  return r;
}

describe('the dispatcher', () => {
  it('posts the event as { id, type, occurredAt, data } with the signature, event id, content type and user agent', async () => {
    fixture = await webhookFixture({ webhooks: { sender: nodeWebhookSender(), allowPrivateTargets: true } });
    const hook = await receiver();
    const { secret } = await fixture.subscribe(hook.url);
    const issueId = await fixture.createIssue('Deliver me');
    expect(await fixture.tracker.webhooks.dispatchDue()).toBe(1);

    const [request] = hook.received;
    if (!request) throw new Error('nothing arrived');
    const [event] = await fixture.storage.transaction((tx) =>
      tx.signals.list({ accountId: fixture.main.accountId, types: ['issue.created'], limit: 1 }),
    );
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/hook');
    expect(request.body.toString('utf8')).toBe(
      JSON.stringify({
        id: event?.id,
        type: 'issue.created',
        occurredAt: event?.occurredAt,
        data: event?.data,
      }),
    );
    expect(JSON.parse(request.body.toString('utf8')).data.object.id).toBe(issueId);
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['user-agent']).toBe(`outcome-tracker/${packageVersion}`);
    expect(request.headers['x-service-event-id']).toBe(event?.id);
    const t = Math.floor(fixture.clock.now() / 1000);
    const v1 = createHmac('sha256', secret).update(`${t}.`).update(request.body).digest('hex');
    expect(request.headers['x-service-signature']).toBe(`t=${t},v1=${v1}`);
    expect((await fixture.deliveries())[0]).toMatchObject({
      status: 'delivered',
      attempts: 1,
      lastResponseStatus: 200,
    });
  });

  /** A sender that holds every request until the test releases it, tracking how many are in flight. */
  function holdingSender() {
    const held: (() => void)[] = [];
    const state = { inFlight: 0, most: 0, mostPerUrl: new Map<string, number>() };
    const perUrl = new Map<string, number>();
    const sender: WebhookSender = {
      resolve: async () => ['93.184.215.14'],
      send: (request: WebhookRequest) =>
        new Promise<WebhookResult>((resolve) => {
          state.inFlight++;
          state.most = Math.max(state.most, state.inFlight);
          perUrl.set(request.url, (perUrl.get(request.url) ?? 0) + 1);
          state.mostPerUrl.set(
            request.url,
            Math.max(state.mostPerUrl.get(request.url) ?? 0, perUrl.get(request.url) ?? 0),
          );
          held.push(() => {
            state.inFlight--;
            perUrl.set(request.url, (perUrl.get(request.url) ?? 1) - 1);
            resolve({ status: 200, retryAfter: null, error: null, durationMs: 1 });
          });
        }),
    };
    /** Releases held requests one at a time until `count` have been answered. */
    const releaseAll = async (count: number, limit: number) => {
      for (let released = 0; released < count; released++) {
        await until(() => held.length > 0);
        expect(state.inFlight).toBeLessThanOrEqual(limit);
        held.shift()?.();
      }
    };
    return { sender, state, releaseAll };
  }

  it('keeps at most `concurrency` deliveries in flight, the last quarter for an account with none', async () => {
    const { sender, state, releaseAll } = holdingSender();
    fixture = await webhookFixture({ webhooks: { sender, concurrency: 4 } });
    for (const tenant of [fixture.main, fixture.other]) {
      for (const name of ['a', 'b'])
        await fixture.subscribe(`https://hooks.example.com/${name}`, undefined, tenant);
      for (let i = 0; i < 5; i++) await fixture.createIssue(`Issue ${i}`, tenant);
    }

    const dispatched = fixture.tracker.webhooks.dispatchDue();
    await releaseAll(20, 4);
    expect(await dispatched).toBe(20);
    // Both accounts are busy: they share the three unreserved slots, and the fourth stays free.
    expect(state.most).toBe(3);
    expect((await fixture.deliveries()).every((d) => d.status === 'delivered')).toBe(true);
  });

  it('gives one account at most half of the slots, the reserve left to accounts with nothing in flight', async () => {
    const { sender, state, releaseAll } = holdingSender();
    fixture = await webhookFixture({ webhooks: { sender, concurrency: 8 } });
    for (const name of ['a', 'b', 'c', 'd', 'e', 'f']) {
      await fixture.subscribe(`https://hooks.example.com/${name}`);
    }
    for (let i = 0; i < 5; i++) await fixture.createIssue(`Issue ${i}`);

    const dispatched = fixture.tracker.webhooks.dispatchDue();
    await releaseAll(30, 4);
    expect(await dispatched).toBe(30);
    expect(state.most).toBe(4);
  });

  it('gives one subscription at most half of the slots', async () => {
    const { sender, state, releaseAll } = holdingSender();
    fixture = await webhookFixture({ webhooks: { sender, concurrency: 4 } });
    await fixture.subscribe('https://hooks.example.com/busy');
    for (let i = 0; i < 10; i++) await fixture.createIssue(`Issue ${i}`);

    const dispatched = fixture.tracker.webhooks.dispatchDue();
    await releaseAll(10, 2);
    expect(await dispatched).toBe(10);
    expect(state.mostPerUrl.get('https://hooks.example.com/busy')).toBe(2);
  });

  it('gives back the slot of a claim that the storage ran again (as PostgreSQL does after a conflict)', async () => {
    // Every transaction runs once, is rolled back, then runs again: a serialization failure at commit.
    const inner = memoryStorage();
    const rerun = new Error('rerun');
    const rerunning: Storage = {
      async transaction(fn, options) {
        await inner
          .transaction(async (tx) => {
            await fn(tx);
            throw rerun;
          }, options)
          .catch((error: unknown) => {
            if (error !== rerun) throw error;
          });
        return inner.transaction(fn, options);
      },
      close: () => inner.close(),
    };
    const { sender, releaseAll } = holdingSender();
    fixture = await webhookFixture({ storage: rerunning, webhooks: { sender, concurrency: 4 } });
    await fixture.subscribe('https://hooks.example.com/one');
    for (let i = 0; i < 6; i++) await fixture.createIssue(`Issue ${i}`);

    const dispatched = fixture.tracker.webhooks.dispatchDue();
    await releaseAll(6, 2);
    expect(await dispatched).toBe(6);
    expect((await fixture.deliveries()).every((d) => d.status === 'delivered')).toBe(true);
  });

  it('lets the other receivers be served while one receiver hangs', async () => {
    fixture = await webhookFixture({
      webhooks: { sender: nodeWebhookSender(), allowPrivateTargets: true, concurrency: 2 },
    });
    const slow = await receiver();
    const fast = await receiver();
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    slow.answer(async () => {
      await released;
      return { status: 200 };
    });
    await fixture.subscribe(slow.url);
    await fixture.subscribe(fast.url);
    for (let i = 0; i < 20; i++) await fixture.createIssue(`Issue ${i}`);

    const dispatched = fixture.tracker.webhooks.dispatchDue();
    // The slow receiver holds one worker and its first delivery; the other worker serves the fast one.
    await until(() => fast.received.length === 20);
    expect(slow.received).toHaveLength(1);
    release();
    expect(await dispatched).toBe(40);
    expect(slow.received).toHaveLength(20);
  });

  it('wakes on a commit of its own process and on one announced by the storage, not on its slow poll', async () => {
    const inner = memoryStorage();
    const announce = new Set<(accountId: string) => void>();
    const storage: Storage = {
      transaction: (fn, options) => inner.transaction(fn, options),
      close: () => inner.close(),
      changes: {
        subscribe(listener) {
          announce.add(listener);
          return () => announce.delete(listener);
        },
      },
    };
    fixture = await webhookFixture({
      storage,
      webhooks: { sender: nodeWebhookSender(), allowPrivateTargets: true },
    });
    const hook = await receiver();
    await fixture.subscribe(hook.url);
    // A minute between safety polls: an arrival within the test's time proves a wake-up. Its
    // first claim finds nothing; then another process commits (the same database, a tracker
    // whose dispatcher is not running), which nothing announces yet.
    fixture.tracker.webhooks.start(60_000);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const elsewhere = createTracker({ storage: inner, clock: fixture.clock, rateLimit: false });
    await elsewhere.run({ workspaceSlug: fixture.main.slug }, (ctx) =>
      issues.create(ctx, { projectId: fixture.main.projectId, title: 'Committed elsewhere' }),
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(hook.received).toHaveLength(0);
    for (const listener of announce) listener(fixture.main.accountId);
    await until(() => hook.received.length === 1);
    await fixture.createIssue('Committed here');
    await until(() => hook.received.length === 2);
  });

  it('claims once when started after dispatchDue, then sleeps until woken or its poll', async () => {
    // On SQLite, whose transactions end in a later turn of the event loop than they start.
    const dir = mkdtempSync(join(tmpdir(), 'ot-dispatcher-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const inner = sqliteStorage({ filename: join(dir, 'tracker.db') });
    let transactions = 0;
    const storage: Storage = {
      transaction: (fn, options) => {
        transactions++;
        return inner.transaction(fn, options);
      },
      close: () => inner.close(),
    };
    // Receivers that answer at once: slots free while dispatchDue is still claiming.
    let sent = 0;
    const sender: WebhookSender = {
      resolve: async () => ['93.184.215.14'],
      send: async () => {
        sent++;
        return { status: 204, retryAfter: null, error: null, durationMs: 1 };
      },
    };
    fixture = await webhookFixture({ storage, webhooks: { sender } });
    await fixture.subscribe('https://hooks.example.com/at-once');
    await fixture.tracker.run({ workspaceSlug: fixture.main.slug }, async (ctx) => {
      for (let i = 0; i < 100; i++) {
        await issues.create(ctx, { projectId: fixture.main.projectId, title: `Sent by dispatchDue ${i}` });
      }
    });
    expect(await fixture.tracker.webhooks.dispatchDue()).toBe(100);
    // Those freed slots leave the started loop nothing to claim again at once.
    transactions = 0;
    fixture.tracker.webhooks.start(60_000);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(transactions).toBe(1);
    await fixture.createIssue('Wakes it');
    await until(() => sent === 101);
  });

  it('runs on its own once started, and stop() waits for the attempt in flight', async () => {
    fixture = await webhookFixture({ webhooks: { sender: nodeWebhookSender(), allowPrivateTargets: true } });
    const hook = await receiver();
    let answered = 0;
    hook.answer(() => {
      answered++;
      return { status: 204 };
    });
    await fixture.subscribe(hook.url);
    fixture.tracker.webhooks.start(5);
    await fixture.createIssue('Picked up by the loop');
    await until(() => hook.received.length === 1);
    await fixture.tracker.webhooks.stop();
    expect((await fixture.deliveries())[0]).toMatchObject({ status: 'delivered' });
    await fixture.createIssue('After the stop');
    expect(answered).toBe(1);
    expect((await fixture.deliveries()).map((d) => d.status).sort()).toEqual(['delivered', 'pending']);
  });
});
