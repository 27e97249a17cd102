import { describe, expect, it } from 'vitest';
import type { WebhookDelivery, WebhookSubscription } from '../../src/core/model.js';
import { judgeAttempt, signingSecrets } from '../../src/core/webhooks/attempt.js';
import {
  maxAttempts,
  nextAttemptDelay,
  parseRetryAfter,
  retryDelaysMs,
} from '../../src/core/webhooks/schedule.js';

const t0 = Date.parse('2026-11-22T10:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

const subscription = (overrides: Partial<WebhookSubscription> = {}): WebhookSubscription => ({
  id: 'wh_1',
  accountId: 'acct_1',
  url: 'https://example.com/hook',
  eventTypes: ['*'],
  description: null,
  status: 'active',
  disabledReason: null,
  secret: 'whsec_new',
  previousSecret: null,
  previousSecretExpiresAt: null,
  failingSince: null,
  signatureScheme: 'stripe',
  createdAt: iso(t0),
  updatedAt: iso(t0),
  version: 1,
  ...overrides,
});

const delivery = (overrides: Partial<WebhookDelivery> = {}): WebhookDelivery => ({
  id: 'dlv_1',
  accountId: 'acct_1',
  subscriptionId: 'wh_1',
  eventId: '00000000-0000-4000-8000-000000000000',
  eventType: 'issue.created',
  payload: '{}',
  status: 'pending',
  attempts: 0,
  scheduleFrom: 0,
  leaseId: null,
  leaseExpiresAt: null,
  nextAttemptAt: iso(t0),
  lastAttemptAt: null,
  lastResponseStatus: null,
  lastError: null,
  lastDurationMs: null,
  deliveredAt: null,
  createdAt: iso(t0),
  updatedAt: iso(t0),
  ...overrides,
});

const answer = (status: number | null, retryAfter: string | null = null) => ({
  status,
  retryAfter,
  error: status === null ? 'timeout' : null,
  durationMs: 5,
});

describe('retry schedule', () => {
  it('waits about 1 m, 5 m, 30 m, 2 h, 6 h, 12 h and 24 h, then gives up after 8 attempts', () => {
    expect(retryDelaysMs.map((ms) => ms / 60_000)).toEqual([1, 5, 30, 120, 360, 720, 1440]);
    expect(maxAttempts).toBe(8);
    expect(nextAttemptDelay(8, 0.5)).toBeNull();
  });

  it('jitters each delay by at most 10 %', () => {
    for (let attempt = 1; attempt < maxAttempts; attempt++) {
      const base = retryDelaysMs[attempt - 1] as number;
      expect(nextAttemptDelay(attempt, 0)).toBe(Math.round(base * 0.9));
      expect(nextAttemptDelay(attempt, 0.999_999)).toBeLessThanOrEqual(Math.round(base * 1.1));
    }
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    expect(parseRetryAfter('120', t0)).toBe(120_000);
    expect(parseRetryAfter(new Date(t0 + 30_000).toUTCString(), t0)).toBe(30_000);
    expect(parseRetryAfter('soon', t0)).toBeNull();
    expect(parseRetryAfter(null, t0)).toBeNull();
  });
});

describe('judging an attempt', () => {
  it('marks a 2xx delivered and ends a failure streak', () => {
    const out = judgeAttempt(
      delivery(),
      subscription({ failingSince: iso(t0 - 1000) }),
      answer(204),
      t0,
      0.5,
    );
    expect(out.delivery).toMatchObject({
      status: 'delivered',
      attempts: 1,
      nextAttemptAt: null,
      deliveredAt: iso(t0),
    });
    expect(out.subscriptionChanges).toEqual({ failingSince: null });
  });

  it('disables the subscription at once on 410', () => {
    const out = judgeAttempt(delivery(), subscription(), answer(410), t0, 0.5);
    expect(out.delivery.status).toBe('failed');
    expect(out.subscriptionChanges).toMatchObject({ status: 'disabled', disabledReason: 'gone' });
  });

  it('treats a redirect as a failure to retry', () => {
    const out = judgeAttempt(delivery(), subscription(), answer(302), t0, 0.5);
    expect(out.delivery).toMatchObject({ status: 'pending', nextAttemptAt: iso(t0 + 60_000) });
    expect(out.subscriptionChanges).toEqual({ failingSince: iso(t0) });
  });

  it('honours Retry-After on 429 and 503 but not on other failures', () => {
    for (const status of [429, 503]) {
      const out = judgeAttempt(delivery(), subscription(), answer(status, '600'), t0, 0.5);
      expect(out.delivery.nextAttemptAt).toBe(iso(t0 + 600_000));
    }
    const other = judgeAttempt(delivery(), subscription(), answer(500, '600'), t0, 0.5);
    expect(other.delivery.nextAttemptAt).toBe(iso(t0 + 60_000));
  });

  it('fails the delivery after the eighth attempt', () => {
    const out = judgeAttempt(delivery({ attempts: 7 }), subscription(), answer(500), t0, 0.5);
    expect(out.delivery).toMatchObject({ status: 'failed', attempts: 8, nextAttemptAt: null });
  });

  it('disables a subscription that has failed for three days straight', () => {
    const since = iso(t0 - 3 * 24 * 3600_000);
    const out = judgeAttempt(delivery(), subscription({ failingSince: since }), answer(500), t0, 0.5);
    expect(out.subscriptionChanges).toMatchObject({ status: 'disabled', disabledReason: 'failing' });
    expect(out.delivery.status).toBe('failed');
  });
});

describe('signing secrets', () => {
  it('signs with the previous secret too until its overlap ends', () => {
    const rotated = subscription({ previousSecret: 'whsec_old', previousSecretExpiresAt: iso(t0 + 1000) });
    expect(signingSecrets(rotated, t0)).toEqual(['whsec_new', 'whsec_old']);
    expect(signingSecrets(rotated, t0 + 1000)).toEqual(['whsec_new']);
  });
});
