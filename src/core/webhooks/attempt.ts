import type { DeliveryAttempt, WebhookDelivery, WebhookSubscription } from '../model.js';
import { isoTime } from '../runtime.js';
import { webhookTestEvent } from './events.js';
import { disableAfterFailingMs, nextAttemptDelay, parseRetryAfter } from './schedule.js';
import type { WebhookResult, WebhookSender } from './sender.js';
import { deliveryTimeoutMs } from './sender.js';
import { eventIdHeader, signatureHeader, signatureHeaderValue } from './signature.js';
import { standardHeaders, standardSignatureValue } from './standard-signature.js';
import { userAgent } from './user-agent.js';

/** The secrets a delivery is signed with now: the current one, and the previous one during a rotation. */
export function signingSecrets(subscription: WebhookSubscription, nowMs: number): string[] {
  const previousLive =
    subscription.previousSecret !== null &&
    subscription.previousSecretExpiresAt !== null &&
    Date.parse(subscription.previousSecretExpiresAt) > nowMs;
  return previousLive ? [subscription.secret, subscription.previousSecret as string] : [subscription.secret];
}

/**
 * The headers of one attempt, signed anew with the current time (so a retry never fails the
 * receiver's tolerance) in the subscription's scheme: Stripe-style, Standard Webhooks, or both.
 */
export async function deliveryHeaders(
  subscription: WebhookSubscription,
  delivery: Pick<WebhookDelivery, 'eventId' | 'payload'>,
  nowMs: number,
): Promise<Record<string, string>> {
  const timestamp = Math.floor(nowMs / 1000);
  const secrets = signingSecrets(subscription, nowMs);
  const scheme = subscription.signatureScheme ?? 'stripe';
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'User-Agent': userAgent,
    [eventIdHeader]: delivery.eventId,
  };
  if (scheme === 'stripe' || scheme === 'both') {
    headers[signatureHeader] = await signatureHeaderValue(secrets, timestamp, delivery.payload);
  }
  if (scheme === 'standard' || scheme === 'both') {
    headers[standardHeaders.id] = delivery.eventId;
    headers[standardHeaders.timestamp] = String(timestamp);
    headers[standardHeaders.signature] = await standardSignatureValue(
      secrets,
      delivery.eventId,
      timestamp,
      delivery.payload,
    );
  }
  return headers;
}

/** One attempt as sent: the request's headers and the receiver's result. */
export interface SentAttempt {
  headers: Record<string, string>;
  result: WebhookResult;
}

/** Sends one attempt of a delivery, signed now. */
export async function sendAttempt(
  sender: WebhookSender,
  subscription: WebhookSubscription,
  delivery: Pick<WebhookDelivery, 'eventId' | 'payload'>,
  nowMs: number,
  allowPrivateTargets: boolean,
): Promise<SentAttempt> {
  const headers = await deliveryHeaders(subscription, delivery, nowMs);
  const result = await sender.send({
    url: subscription.url,
    body: delivery.payload,
    timeoutMs: deliveryTimeoutMs,
    allowPrivateTargets,
    headers,
  });
  return { headers, result };
}

export const succeeded = (result: WebhookResult): boolean =>
  result.status !== null && result.status >= 200 && result.status < 300;

/** The log entry of one attempt: exactly what was sent and what came back. */
export function attemptLogEntry(input: {
  id: string;
  delivery: WebhookDelivery;
  url: string;
  sent: SentAttempt;
  startedAtMs: number;
}): DeliveryAttempt {
  const { delivery, sent } = input;
  const { result } = sent;
  return {
    id: input.id,
    accountId: delivery.accountId,
    subscriptionId: delivery.subscriptionId,
    deliveryId: delivery.id,
    number: delivery.attempts + 1,
    startedAt: isoTime(input.startedAtMs),
    durationMs: result.durationMs,
    request: { url: input.url, headers: sent.headers },
    response:
      result.status === null
        ? null
        : {
            status: result.status,
            headers: result.responseHeaders ?? {},
            body: result.responseBody ?? '',
            bodyTruncated: result.responseBodyTruncated ?? false,
          },
    error: result.error,
    succeeded: succeeded(result),
  };
}

export interface AttemptOutcome {
  /** The delivery after the attempt: out of `sending`, its lease cleared. */
  delivery: WebhookDelivery;
  /** The subscription's changed fields, when the attempt changes it (failure streak, disabling). */
  subscriptionChanges: Partial<WebhookSubscription> | null;
}

/**
 * What an attempt's result means for the delivery and its subscription: 2xx delivers; 410
 * disables the subscription at once; anything else (3xx included: redirects are not followed)
 * schedules a retry, honouring Retry-After on 429 and 503, until the attempts of the current
 * schedule run out; and a subscription failing for three days straight is disabled. A test
 * delivery is never retried and never changes the subscription.
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
  const logged: WebhookDelivery = {
    ...delivery,
    attempts,
    leaseId: null,
    leaseExpiresAt: null,
    lastAttemptAt: now,
    lastResponseStatus: result.status,
    lastError: result.error,
    lastDurationMs: result.durationMs,
    updatedAt: now,
  };
  const final = (status: 'delivered' | 'failed'): WebhookDelivery => ({
    ...logged,
    status,
    nextAttemptAt: null,
    deliveredAt: status === 'delivered' ? now : null,
  });
  const isTest = delivery.eventType === webhookTestEvent;
  if (succeeded(result)) {
    return {
      delivery: final('delivered'),
      subscriptionChanges: !isTest && subscription.failingSince !== null ? { failingSince: null } : null,
    };
  }
  if (isTest) return { delivery: final('failed'), subscriptionChanges: null };
  if (result.status === 410) {
    return { delivery: final('failed'), subscriptionChanges: { status: 'disabled', disabledReason: 'gone' } };
  }
  const failingSince = subscription.failingSince ?? now;
  if (nowMs - Date.parse(failingSince) >= disableAfterFailingMs) {
    return {
      delivery: final('failed'),
      subscriptionChanges: { status: 'disabled', disabledReason: 'failing', failingSince },
    };
  }
  const honoursRetryAfter = result.status === 429 || result.status === 503;
  const delay = nextAttemptDelay(
    attempts - (delivery.scheduleFrom ?? 0),
    random,
    honoursRetryAfter ? parseRetryAfter(result.retryAfter, nowMs) : null,
  );
  return {
    delivery:
      delay === null
        ? final('failed')
        : { ...logged, status: 'pending', nextAttemptAt: isoTime(nowMs + delay), deliveredAt: null },
    subscriptionChanges: subscription.failingSince === null ? { failingSince } : null,
  };
}
