import type { WebhookDelivery, WebhookSubscription } from '../model.js';
import { isoTime } from '../runtime.js';
import { disableAfterFailingMs, nextAttemptDelay, parseRetryAfter } from './schedule.js';
import type { WebhookResult, WebhookSender } from './sender.js';
import { deliveryTimeoutMs } from './sender.js';
import { eventIdHeader, signatureHeader, signatureHeaderValue } from './signature.js';
import { userAgent } from './user-agent.js';

/** The secrets a delivery is signed with now: the current one, and the previous one during a rotation. */
export function signingSecrets(subscription: WebhookSubscription, nowMs: number): string[] {
  const previousLive =
    subscription.previousSecret !== null &&
    subscription.previousSecretExpiresAt !== null &&
    Date.parse(subscription.previousSecretExpiresAt) > nowMs;
  return previousLive ? [subscription.secret, subscription.previousSecret as string] : [subscription.secret];
}

/** Sends one attempt, signed anew with the current time so a retry never fails the receiver's tolerance. */
export function sendAttempt(
  sender: WebhookSender,
  subscription: WebhookSubscription,
  delivery: Pick<WebhookDelivery, 'eventId' | 'payload'>,
  nowMs: number,
  allowPrivateTargets: boolean,
): Promise<WebhookResult> {
  const timestamp = Math.floor(nowMs / 1000);
  return sender.send({
    url: subscription.url,
    body: delivery.payload,
    timeoutMs: deliveryTimeoutMs,
    allowPrivateTargets,
    headers: {
      'Content-Type': 'application/json',
      'User-Agent': userAgent,
      [signatureHeader]: signatureHeaderValue(
        signingSecrets(subscription, nowMs),
        timestamp,
        delivery.payload,
      ),
      [eventIdHeader]: delivery.eventId,
    },
  });
}

export const succeeded = (result: WebhookResult): boolean =>
  result.status !== null && result.status >= 200 && result.status < 300;

export interface AttemptOutcome {
  delivery: WebhookDelivery;
  /** The subscription's changed fields, when the attempt changes it (failure streak, disabling). */
  subscriptionChanges: Partial<WebhookSubscription> | null;
}

/**
 * What an attempt's result means for the delivery and its subscription: 2xx delivers; 410
 * disables the subscription at once; anything else (3xx included: redirects are not followed)
 * schedules a retry, honouring Retry-After on 429 and 503, until the attempts run out; and a
 * subscription failing for three days straight is disabled.
 */
export function judgeAttempt(
  delivery: WebhookDelivery,
  subscription: WebhookSubscription,
  result: WebhookResult,
  nowMs: number,
  random: number,
): AttemptOutcome {
  const now = isoTime(nowMs);
  const attempts = delivery.attempts + 1;
  const logged = {
    ...delivery,
    attempts,
    lastAttemptAt: now,
    lastResponseStatus: result.status,
    lastError: result.error,
    lastDurationMs: result.durationMs,
    updatedAt: now,
  };
  if (succeeded(result)) {
    return {
      delivery: { ...logged, status: 'delivered', nextAttemptAt: null, deliveredAt: now },
      subscriptionChanges: subscription.failingSince !== null ? { failingSince: null } : null,
    };
  }
  if (result.status === 410) {
    return {
      delivery: { ...logged, status: 'failed', nextAttemptAt: null },
      subscriptionChanges: { status: 'disabled', disabledReason: 'gone' },
    };
  }
  const failingSince = subscription.failingSince ?? now;
  if (nowMs - Date.parse(failingSince) >= disableAfterFailingMs) {
    return {
      delivery: { ...logged, status: 'failed', nextAttemptAt: null },
      subscriptionChanges: { status: 'disabled', disabledReason: 'failing', failingSince },
    };
  }
  const honoursRetryAfter = result.status === 429 || result.status === 503;
  const delay = nextAttemptDelay(
    attempts,
    random,
    honoursRetryAfter ? parseRetryAfter(result.retryAfter, nowMs) : null,
  );
  return {
    delivery:
      delay === null
        ? { ...logged, status: 'failed', nextAttemptAt: null }
        : { ...logged, status: 'pending', nextAttemptAt: isoTime(nowMs + delay) },
    subscriptionChanges: subscription.failingSince === null ? { failingSince } : null,
  };
}
