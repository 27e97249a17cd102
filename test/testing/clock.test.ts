import { ApiError } from '@outcome-tracker/client';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestTracker, durationMs, type TestTracker } from '../../src/testing/index.js';
import { storages } from './storages.js';

const minute = 60_000;
const hour = 60 * minute;
const day = 24 * hour;

let kit: TestTracker | undefined;
afterEach(async () => {
  await kit?.close();
  kit = undefined;
});

/** A create of a project through the kit's fetch, with this Idempotency-Key. */
async function createProject(t: TestTracker, key: string, name = 'Apollo') {
  const response = await t.fetch(`${t.baseUrl}/api/v1/projects`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${t.token}`,
      'content-type': 'application/json',
      'idempotency-key': key,
    },
    body: JSON.stringify({ name }),
  });
  return { status: response.status, body: (await response.json()) as { id: string; key: string } };
}

/** The status of a rejected client call, or 'ok'. */
async function outcome(call: () => Promise<unknown>): Promise<number | 'ok'> {
  try {
    await call();
    return 'ok';
  } catch (error) {
    if (error instanceof ApiError) return error.status;
    throw error;
  }
}

describe('durationMs', () => {
  it('reads numbers as ms and texts of ms, s, m, h, d and w, combined', () => {
    expect(durationMs(1500)).toBe(1500);
    expect(durationMs('25h')).toBe(25 * hour);
    expect(durationMs('1d12h')).toBe(36 * hour);
    expect(durationMs('90s')).toBe(90_000);
    expect(durationMs('1m500ms')).toBe(60_500);
    expect(durationMs('2w')).toBe(14 * day);
  });

  it('refuses anything else', () => {
    for (const bad of ['', '25', 'h', '25 hours', '1y', '-1h', '1h and 2m']) {
      expect(() => durationMs(bad), bad).toThrow(TypeError);
    }
  });
});

describe.each(storages)('the clock a test owns ($name)', ({ option }) => {
  it('starts at a fixed instant, or where told, and stamps what is made with its time', async () => {
    kit = await createTestTracker({ storage: option, now: '2030-05-01T12:00:00Z' });
    expect(kit.clock.now()).toBe(Date.parse('2030-05-01T12:00:00Z'));
    await kit.clock.advance('90m');
    const project = await kit.client.projects.create({ name: 'Apollo' });
    expect(project.createdAt).toBe('2030-05-01T13:30:00.000Z');
  });

  it('remembers an idempotency key for 24 h, then forgets it (purged) so it makes a new resource', async () => {
    kit = await createTestTracker({ storage: option });
    const key = '0f1e2d3c-4b5a-4978-8877-665544332211';
    const first = await createProject(kit, key);
    expect(first.status).toBe(201);

    await kit.clock.advance('23h59m');
    const replay = await createProject(kit, key);
    expect(replay.body.id).toBe(first.body.id);

    await kit.clock.advance('2m');
    // The advance ran the purge at its end: nothing expired is left for another purge to find.
    expect((await kit.tracker.purgeExpired()).idempotencyKeys).toBe(0);
    const fresh = await createProject(kit, key);
    expect(fresh.status).toBe(201);
    expect(fresh.body.id).not.toBe(first.body.id);
    expect(fresh.body.key).toBe('APO2');
  });

  it('rolls the rate limit window forward with the clock', async () => {
    kit = await createTestTracker({ storage: option, rateLimit: { limit: 3, windowMs: minute } });
    const t = kit;
    const list = () => outcome(() => t.client.projects.list().page());
    expect([await list(), await list(), await list()]).toEqual(['ok', 'ok', 'ok']);
    expect(await list()).toBe(429);
    await t.clock.advance('59s');
    expect(await list()).toBe(429);
    await t.clock.advance('1s');
    expect(await list()).toBe('ok');
  });

  it('refuses a token from its expiry on, and not a moment before', async () => {
    kit = await createTestTracker({ storage: option });
    const user = await kit.asUser({ role: 'member', scope: 'read', expiresInDays: 7 });
    const list = () => outcome(() => user.client.projects.list().page());
    expect(await list()).toBe('ok');
    await kit.clock.advance(7 * day - 1);
    expect(await list()).toBe('ok');
    await kit.clock.advance(1);
    expect(await list()).toBe(401);
    // The admin's token never expires.
    expect(await outcome(() => kit?.client.projects.list().page() as Promise<unknown>)).toBe('ok');
  });

  it('keeps signals for their retention and purges them once it has passed', async () => {
    kit = await createTestTracker({ storage: option });
    await kit.client.projects.create({ name: 'Apollo' });
    const types = async () => (await kit?.client.signals.list().page())?.data.map((s) => s.type);
    expect(await types()).toEqual(['project.created']);
    await kit.clock.advance('29d');
    expect(await types()).toEqual(['project.created']);
    await kit.clock.advance('1d1m');
    expect(await types()).toEqual([]);
  });

  it('retries a failing delivery on schedule, fails it after the eighth attempt, and disables the subscription after three days of failures', async () => {
    kit = await createTestTracker({ storage: option });
    const start = kit.clock.now();
    const hook = await kit.webhooks.capture({ eventTypes: ['issue.created'] });
    const watcher = await kit.webhooks.capture({ eventTypes: ['webhook.updated'] });
    hook.respondWith(500);
    const project = await kit.client.projects.create({ name: 'Apollo' });
    await kit.client.issues.create({ projectId: project.id, title: 'Flaky receiver' });
    await hook.waitFor('issue.created');

    // Nothing goes out before the retry is due.
    await kit.clock.advance('59s');
    expect(hook.received).toHaveLength(1);
    await kit.clock.advance('2d');
    expect(hook.received.map((d) => (d.receivedAt - start) / minute)).toEqual([
      0, 1, 6, 36, 156, 516, 1236, 2676,
    ]);
    expect(hook.received.map((d) => d.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(new Set(hook.received.map((d) => d.id)).size).toBe(1);
    const [delivery] = (await kit.client.webhooks.deliveries(hook.id).page()).data;
    expect(delivery).toMatchObject({ status: 'failed', attempts: 8, nextAttemptAt: null });
    expect(await kit.client.webhooks.get(hook.id)).toMatchObject({ status: 'active' });

    // Failing since the first attempt: the first attempt three days on disables the subscription.
    await kit.clock.set(start + 3 * day);
    await kit.client.issues.create({ projectId: project.id, title: 'Still failing' });
    await hook.waitFor((d) => d.event.type === 'issue.created' && d.receivedAt === start + 3 * day);
    expect(await kit.client.webhooks.get(hook.id)).toMatchObject({
      status: 'disabled',
      disabledReason: 'failing',
    });
    const disabled = await watcher.waitFor('webhook.updated');
    expect(JSON.stringify(disabled.event.data)).toContain('"disabled"');

    // Nothing more is sent to it, however long the clock runs.
    await kit.client.issues.create({ projectId: project.id, title: 'After the disabling' });
    await kit.clock.advance('7d');
    expect(hook.received).toHaveLength(9);
  });

  it('sends a delivery at once after the commit that queued it, and a retry once the clock reaches it', async () => {
    kit = await createTestTracker({ storage: option });
    const hook = await kit.webhooks.capture({ eventTypes: ['project.created'] });
    hook.respondWith((d) => (d.attempt === 1 ? { status: 503, headers: { 'Retry-After': '600' } } : 204));
    const arrived = hook.waitFor('project.created');
    await kit.client.projects.create({ name: 'Apollo' });
    expect((await arrived).status).toBe(503);
    await kit.clock.advance('9m59s');
    expect(hook.received).toHaveLength(1);
    await kit.clock.advance('1s');
    expect(hook.received.map((d) => [d.attempt, d.status])).toEqual([
      [1, 503],
      [2, 204],
    ]);
    const [delivery] = (await kit.client.webhooks.deliveries(hook.id).page()).data;
    expect(delivery).toMatchObject({ status: 'delivered', attempts: 2 });
  });

  it('goes back in time with set() without running anything, and refuses to advance backwards', async () => {
    kit = await createTestTracker({ storage: option });
    const start = kit.clock.now();
    await kit.clock.set(new Date(start + day));
    expect(kit.clock.now()).toBe(start + day);
    await kit.clock.set(start);
    expect(kit.clock.now()).toBe(start);
    await expect(kit.clock.advance(-1)).rejects.toThrow(RangeError);
  });
});
