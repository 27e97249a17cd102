import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { maxSubscriptionsPerAccount } from '../../src/core/families/webhooks/operations.js';
import {
  type SignalEvent,
  tenancy,
  verifySignature,
  type WebhookRequest,
  type WebhookResult,
  type WebhookSender,
} from '../../src/core/index.js';
import { type WebhookFixture, webhookFixture } from './fixture.js';

const hour = 3_600_000;
const url = 'https://hooks.example.com/outcome-tracker';

/** An in-process sender: records what would go out and answers as the test says. */
function recordingSender() {
  const sent: WebhookRequest[] = [];
  let status = 200;
  const sender: WebhookSender = {
    resolve: async () => ['93.184.215.14'],
    send: async (request): Promise<WebhookResult> => {
      sent.push(request);
      return { status, retryAfter: null, error: null, durationMs: 3 };
    },
  };
  return {
    sender,
    sent,
    answerWith: (next: number) => {
      status = next;
    },
  };
}

let fixture: WebhookFixture;
let outbound: ReturnType<typeof recordingSender>;

beforeEach(async () => {
  outbound = recordingSender();
  fixture = await webhookFixture({ webhooks: { sender: outbound.sender } });
});
afterEach(async () => {
  await fixture.close();
});

const signals = (): Promise<SignalEvent[]> =>
  fixture.storage.transaction((tx) => tx.signals.list({ accountId: fixture.main.accountId, limit: 1000 }));

describe('webhook subscriptions', () => {
  it('need an Idempotency-Key to be created, and replay the same answer for the same key', async () => {
    const body = { url, eventTypes: ['issue.created'] };
    const missing = await fixture.api('POST', '/webhooks', { body, headers: { 'idempotency-key': '' } });
    expect(missing.status).toBe(400);
    expect(missing.json.error).toBe('idempotency_key_missing');

    const key = randomUUID();
    const first = await fixture.api('POST', '/webhooks', { body, headers: { 'idempotency-key': key } });
    expect(first.status).toBe(201);
    const replay = await fixture.api('POST', '/webhooks', { body, headers: { 'idempotency-key': key } });
    expect(replay.status).toBe(200);
    expect(replay.headers['Idempotent-Replayed']).toBe('true');
    // The secret is shown once: a replay says null, and the stored answer never held it.
    expect(first.json.secret).toMatch(/^whsec_/);
    expect(replay.json).toEqual({ ...first.json, secret: null });
    const stored = await fixture.storage.transaction((tx) =>
      tx.idempotency.get(fixture.main.workspaceId, key),
    );
    expect(stored?.body).not.toContain(first.json.secret);
    expect(stored?.body).not.toContain('whsec_');
    expect((await fixture.api('GET', '/webhooks')).json.total).toBe(1);
  });

  it('get a whsec_ secret of at least 32 random bytes, an account from the token, and the fields of the contract', async () => {
    const created = await fixture.api('POST', '/webhooks', {
      body: {
        url,
        eventTypes: ['issue.created', 'issue.created', 'outcome.shipped'],
        description: 'CI bridge',
        accountId: fixture.other.accountId,
      },
    });
    expect(created.status).toBe(201);
    expect(created.headers.ETag).toBe('"1"');
    const { secret, ...rest } = created.json;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]+$/);
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64url').length).toBeGreaterThanOrEqual(32);
    expect(rest).toEqual({
      id: expect.stringMatching(/^wh_/),
      accountId: fixture.main.accountId,
      url,
      eventTypes: ['issue.created', 'outcome.shipped'],
      description: 'CI bridge',
      status: 'active',
      disabledReason: null,
      signatureScheme: 'stripe',
      createdAt: '2026-11-22T10:00:00.000Z',
      updatedAt: '2026-11-22T10:00:00.000Z',
      version: 1,
    });
    const another = await fixture.subscribe(url);
    expect(another.secret).not.toBe(secret);
  });

  it('accept event types of the catalog or *, and refuse anything else with 400', async () => {
    for (const eventTypes of [['*'], ['webhook.deleted', 'time_entry.updated'], ['outcome.shipped']]) {
      expect((await fixture.api('POST', '/webhooks', { body: { url, eventTypes } })).status).toBe(201);
    }
    for (const eventTypes of [[], ['issue.exploded'], ['issue.*'], 'issue.created', [42]]) {
      const refused = await fixture.api('POST', '/webhooks', { body: { url, eventTypes } });
      expect(refused.status, JSON.stringify(eventTypes)).toBe(400);
      expect(refused.json.error).toBe('validation_failed');
    }
    const noUrl = await fixture.api('POST', '/webhooks', { body: { eventTypes: ['*'] } });
    expect(noUrl.status).toBe(400);
  });

  it('number at most 1,000 an account, disabled ones included: the 1,001st is a 409 until one is deleted', async () => {
    const ids: string[] = [];
    for (let i = 0; i < maxSubscriptionsPerAccount; i++) ids.push((await fixture.subscribe(url)).id);
    // A disabled subscription still counts: PATCHing it back to active would pass the limit.
    const disabled = await fixture.api('PATCH', `/webhooks/${ids[0]}`, {
      body: { status: 'disabled' },
      headers: { 'if-match': '"1"' },
    });
    expect(disabled.status).toBe(200);

    const refused = await fixture.api('POST', '/webhooks', { body: { url, eventTypes: ['*'] } });
    expect(refused.status).toBe(409);
    expect(refused.json).toMatchObject({ error: 'subscription_limit_reached', limit: 1000 });
    expect((await fixture.api('GET', '/webhooks?limit=1')).json.total).toBe(1000);
    // Another account's limit is its own.
    await fixture.subscribe(url, ['*'], fixture.other);

    expect((await fixture.api('DELETE', `/webhooks/${ids[1]}`)).status).toBe(204);
    expect((await fixture.api('POST', '/webhooks', { body: { url, eventTypes: ['*'] } })).status).toBe(201);
  });

  it('never show the secret again: not in GET, list, PATCH, rotate signals, delete, signals or deliveries', async () => {
    const watcher = await fixture.subscribe('https://watcher.example.com/hook', ['*']);
    const { id, secret } = await fixture.subscribe(url, ['issue.created']);
    const answers = [
      await fixture.api('GET', `/webhooks/${id}`),
      await fixture.api('GET', '/webhooks'),
      await fixture.api('PATCH', `/webhooks/${id}`, {
        body: { description: 'renamed' },
        headers: { 'if-match': '"1"' },
      }),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(JSON.stringify(answer.json)).not.toContain(secret);
      expect(JSON.stringify(answer.json)).not.toMatch(/"secret"|previousSecret|whsec_/);
    }
    const rotated = await fixture.api('POST', `/webhooks/${id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    const deleted = await fixture.api('DELETE', `/webhooks/${id}`);
    expect(deleted.status).toBe(204);

    const events = (await signals()).filter((e) => e.type.startsWith('webhook.'));
    expect(events.map((e) => e.type)).toEqual([
      'webhook.created',
      'webhook.created',
      'webhook.updated',
      'webhook.updated',
      'webhook.deleted',
    ]);
    await fixture.tracker.webhooks.dispatchDue();
    const payloads = outbound.sent.map((r) => r.body);
    // The watcher hears of its own creation and of the other subscription's whole life.
    expect(payloads.map((p) => JSON.parse(p).id).sort()).toEqual(events.map((e) => e.id).sort());
    for (const text of [...events.map((e) => JSON.stringify(e)), ...payloads]) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain(rotated.json.secret);
      expect(text).not.toContain(watcher.secret);
      expect(text).not.toMatch(/whsec_/);
    }
  });

  it('let a read-scope admin look but not change, and keep members and other accounts out', async () => {
    const { id } = await fixture.subscribe(url);
    const read = await fixture.storage.transaction(async (tx) => {
      const [admin] = await tx.tenancy.listMemberships(fixture.main.workspaceId);
      return tenancy.issueToken(
        { tx, ids: fixture.tracker.ids, now: fixture.clock.now() },
        { workspaceId: fixture.main.workspaceId, userId: admin?.userId as string, name: 'ro', scope: 'read' },
      );
    });
    const member = await fixture.storage.transaction(async (tx) => {
      const deps = { tx, ids: fixture.tracker.ids, now: fixture.clock.now() };
      const { user } = await tenancy.addMember(deps, {
        workspaceId: fixture.main.workspaceId,
        email: 'member@acme.test',
        role: 'member',
      });
      return tenancy.issueToken(deps, {
        workspaceId: fixture.main.workspaceId,
        userId: user.id,
        name: 'rw',
        scope: 'read_write',
      });
    });

    expect((await fixture.api('GET', `/webhooks/${id}`, { token: read.plain })).status).toBe(200);
    expect((await fixture.api('GET', `/webhooks/${id}/deliveries`, { token: read.plain })).status).toBe(200);
    expect((await fixture.api('GET', '/signals', { token: read.plain })).status).toBe(200);
    const scoped = await fixture.api('POST', '/webhooks', {
      token: read.plain,
      body: { url, eventTypes: ['*'] },
    });
    expect([scoped.status, scoped.json.error]).toEqual([403, 'insufficient_scope']);
    for (const [method, path] of [
      ['POST', `/webhooks/${id}/test`],
      ['POST', `/webhooks/${id}/rotate-secret`],
      ['DELETE', `/webhooks/${id}`],
    ] as const) {
      expect((await fixture.api(method, path, { token: read.plain })).status).toBe(403);
    }

    for (const [method, path] of [
      ['GET', '/webhooks'],
      ['GET', `/webhooks/${id}`],
      ['GET', '/signals'],
    ] as const) {
      const denied = await fixture.api(method, path, { token: member.plain });
      expect([denied.status, denied.json.error], path).toEqual([403, 'forbidden']);
    }

    const foreign = fixture.other.token;
    for (const [method, path] of [
      ['GET', `/webhooks/${id}`],
      ['PATCH', `/webhooks/${id}`],
      ['DELETE', `/webhooks/${id}`],
      ['POST', `/webhooks/${id}/test`],
      ['POST', `/webhooks/${id}/rotate-secret`],
      ['GET', `/webhooks/${id}/deliveries`],
    ] as const) {
      const hidden = await fixture.api(method, path, {
        token: foreign,
        ...(method === 'PATCH' ? { body: { description: 'x' }, headers: { 'if-match': '"1"' } } : {}),
      });
      expect([hidden.status, hidden.json.error], `${method} ${path}`).toEqual([404, 'not_found']);
    }
    expect((await fixture.api('GET', '/webhooks', { token: foreign })).json.total).toBe(0);
    expect(outbound.sent).toHaveLength(0);
  });

  it('need If-Match to be changed, and refuse a stale one with 409', async () => {
    const { id } = await fixture.subscribe(url);
    expect((await fixture.api('PATCH', `/webhooks/${id}`, { body: { description: 'x' } })).status).toBe(428);
    const patched = await fixture.api('PATCH', `/webhooks/${id}`, {
      body: { eventTypes: ['*'], status: 'disabled' },
      headers: { 'if-match': '"1"' },
    });
    expect(patched.json).toMatchObject({ eventTypes: ['*'], status: 'disabled', version: 2 });
    const stale = await fixture.api('PATCH', `/webhooks/${id}`, {
      body: { status: 'active' },
      headers: { 'if-match': '"1"' },
    });
    expect([stale.status, stale.headers.ETag]).toEqual([409, '"2"']);
    const unsafe = await fixture.api('PATCH', `/webhooks/${id}`, {
      body: { url: 'https://127.0.0.1/hook' },
      headers: { 'if-match': '"2"' },
    });
    expect(unsafe.status).toBe(400);
  });

  it('sign with both secrets for 24 hours after a rotation, newest first, then with the new one only', async () => {
    const { id, secret: old } = await fixture.subscribe(url);
    const rotated = await fixture.api('POST', `/webhooks/${id}/rotate-secret`);
    expect(rotated.json.secret).toMatch(/^whsec_/);
    expect(rotated.json.secret).not.toBe(old);
    expect(rotated.json.previousSecretExpiresAt).toBe('2026-11-23T10:00:00.000Z');

    const check = async (request: WebhookRequest, secret: string) =>
      (
        await verifySignature({
          body: request.body,
          header: request.headers['X-Service-Signature'] as string,
          secret,
          nowSeconds: Math.floor(fixture.clock.now() / 1000),
        })
      ).ok;

    fixture.clock.advance(23 * hour);
    await fixture.createIssue('During the overlap');
    await fixture.tracker.webhooks.dispatchDue();
    const during = outbound.sent.at(-1) as WebhookRequest;
    expect(during.headers['X-Service-Signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    expect(await check(during, rotated.json.secret)).toBe(true);
    expect(await check(during, old)).toBe(true);

    fixture.clock.advance(1 * hour);
    await fixture.createIssue('After the overlap');
    await fixture.tracker.webhooks.dispatchDue();
    const after = outbound.sent.at(-1) as WebhookRequest;
    expect(after.headers['X-Service-Signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(await check(after, rotated.json.secret)).toBe(true);
    expect(await check(after, old)).toBe(false);
  });
});

describe('the test endpoint', () => {
  it('sends one signed webhook.test delivery now and reports how it went', async () => {
    const { id, secret } = await fixture.subscribe(url, ['outcome.shipped']);
    const tested = await fixture.api('POST', `/webhooks/${id}/test`);
    expect(tested.status).toBe(200);
    expect(tested.json).toEqual({
      eventId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      delivered: true,
      responseStatus: 200,
      durationMs: 3,
      error: null,
    });
    expect(outbound.sent).toHaveLength(1);
    const [request] = outbound.sent as [WebhookRequest];
    expect(request.url).toBe(url);
    expect(request.timeoutMs).toBe(10_000); // a receiver has 10 s to answer
    expect(request.allowPrivateTargets).toBe(false);
    expect(request.headers['X-Service-Event-Id']).toBe(tested.json.eventId);
    expect(JSON.parse(request.body)).toMatchObject({ id: tested.json.eventId, type: 'webhook.test' });
    expect(
      (
        await verifySignature({
          body: request.body,
          header: request.headers['X-Service-Signature'] as string,
          secret,
          nowSeconds: Math.floor(fixture.clock.now() / 1000),
        })
      ).ok,
    ).toBe(true);

    outbound.answerWith(500);
    const failing = await fixture.api('POST', `/webhooks/${id}/test`);
    expect(failing.json).toMatchObject({ delivered: false, responseStatus: 500 });

    // Logged, never retried, and never a signal.
    const log = await fixture.api('GET', `/webhooks/${id}/deliveries`);
    expect(log.json.data.map((d: { status: string }) => d.status).sort()).toEqual(['delivered', 'failed']);
    fixture.clock.advance(48 * hour);
    expect(await fixture.tracker.webhooks.dispatchDue()).toBe(0);
    expect((await signals()).some((e) => e.type === 'webhook.test')).toBe(false);
  });
});

describe('the delivery stats', () => {
  it('list every one of the last `hours` hours, and take `hours` as decimal digits within 1 to 168 only', async () => {
    const { id } = await fixture.subscribe(url);
    const stats = await fixture.api('GET', `/webhooks/${id}/delivery-stats?hours=3`);
    expect(stats.status).toBe(200);
    expect(stats.json.hours).toHaveLength(3);
    for (const hours of ['1e1', '0x3', '0', '169', '2.5', 'two']) {
      const refused = await fixture.api('GET', `/webhooks/${id}/delivery-stats?hours=${hours}`);
      expect(refused.status, hours).toBe(400);
      expect(refused.json.issues?.[0]?.path, hours).toBe('hours');
    }
  });
});

describe('the delivery log', () => {
  it('shows status, attempts, last response, timing and the next attempt, but not the payload', async () => {
    outbound.answerWith(503);
    const { id } = await fixture.subscribe(url);
    await fixture.createIssue('Logged');
    await fixture.tracker.webhooks.dispatchDue();
    const log = await fixture.api('GET', `/webhooks/${id}/deliveries`);
    expect(log.status).toBe(200);
    expect(log.json).toMatchObject({ total: 1, nextCursor: null });
    expect(log.json.data[0]).toEqual({
      id: expect.stringMatching(/^dlv_/),
      subscriptionId: id,
      eventId: expect.any(String),
      eventType: 'issue.created',
      status: 'pending',
      attempts: 1,
      nextAttemptAt: expect.any(String),
      lastAttemptAt: '2026-11-22T10:00:00.000Z',
      lastResponseStatus: 503,
      lastError: null,
      lastDurationMs: 3,
      deliveredAt: null,
      createdAt: '2026-11-22T10:00:00.000Z',
      updatedAt: '2026-11-22T10:00:00.000Z',
    });
  });

  it('pages the deliveries, newest first', async () => {
    const { id } = await fixture.subscribe(url);
    for (let i = 0; i < 5; i++) {
      fixture.clock.advance(1000);
      await fixture.createIssue(`Issue ${i}`);
    }
    const first = await fixture.api('GET', `/webhooks/${id}/deliveries?limit=3`);
    const second = await fixture.api(
      'GET',
      `/webhooks/${id}/deliveries?limit=3&cursor=${first.json.nextCursor}`,
    );
    const times = [...first.json.data, ...second.json.data].map((d: { createdAt: string }) => d.createdAt);
    expect(times).toHaveLength(5);
    expect(times).toEqual([...times].sort().reverse());
    expect(second.json.nextCursor).toBeNull();
  });

  it('resends a failed delivery on request, with the same event id and a fresh schedule', async () => {
    outbound.answerWith(410);
    const { id } = await fixture.subscribe(url);
    await fixture.createIssue('Gone, then back');
    await fixture.tracker.webhooks.dispatchDue();
    const [failed] = (await fixture.api('GET', `/webhooks/${id}/deliveries`)).json.data;
    expect(failed).toMatchObject({ status: 'failed', attempts: 1 });

    outbound.answerWith(200);
    const reactivated = await fixture.api('PATCH', `/webhooks/${id}`, {
      body: { status: 'active' },
      headers: { 'if-match': '"2"' },
    });
    expect(reactivated.json).toMatchObject({ status: 'active', disabledReason: null });
    const retried = await fixture.api('POST', `/webhooks/${id}/deliveries/${failed.id}/retry`);
    expect(retried.status).toBe(200);
    // The attempt made stays counted; a fresh schedule starts from it.
    expect(retried.json).toMatchObject({ id: failed.id, status: 'pending', attempts: 1, deliveredAt: null });
    await fixture.tracker.webhooks.dispatchDue();
    expect(outbound.sent.map((r) => r.headers['X-Service-Event-Id'])).toEqual([
      failed.eventId,
      failed.eventId,
    ]);
    const [delivered] = (await fixture.api('GET', `/webhooks/${id}/deliveries`)).json.data;
    expect(delivered).toMatchObject({ status: 'delivered', attempts: 2, lastResponseStatus: 200 });

    expect((await fixture.api('POST', `/webhooks/${id}/deliveries/dlv_nope/retry`)).status).toBe(404);
    const elsewhere = await fixture.subscribe(url);
    expect(
      (await fixture.api('POST', `/webhooks/${elsewhere.id}/deliveries/${failed.id}/retry`)).status,
    ).toBe(404);
  });

  it('goes with its subscription when that is deleted', async () => {
    const { id } = await fixture.subscribe(url);
    await fixture.createIssue('Orphan');
    expect((await fixture.api('DELETE', `/webhooks/${id}`)).status).toBe(204);
    expect((await fixture.api('GET', `/webhooks/${id}`)).status).toBe(404);
    expect((await fixture.api('GET', `/webhooks/${id}/deliveries`)).status).toBe(404);
    expect(await fixture.tracker.webhooks.dispatchDue()).toBe(0);
    expect(outbound.sent).toHaveLength(0);
  });
});
