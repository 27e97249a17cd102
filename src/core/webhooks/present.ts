import type { DeliveryAttempt, WebhookDelivery, WebhookSubscription } from '../model.js';
import { withFields } from '../with-fields.js';

/** A subscription as the API shows it: never its secrets or its failure bookkeeping. */
export type WebhookView = Omit<
  WebhookSubscription,
  'secret' | 'previousSecret' | 'previousSecretExpiresAt' | 'failingSince'
>;

export function presentWebhook(w: WebhookSubscription): WebhookView {
  const { secret: _s, previousSecret: _p, previousSecretExpiresAt: _e, failingSince: _f, ...visible } = w;
  return withFields(visible, { signatureScheme: w.signatureScheme ?? 'stripe' });
}

/** A delivery in lists: its state, without the dispatcher's lease and schedule bookkeeping. */
export type DeliveryView = Omit<
  WebhookDelivery,
  'accountId' | 'payload' | 'leaseId' | 'leaseExpiresAt' | 'scheduleFrom'
>;

export function presentDelivery(d: WebhookDelivery): DeliveryView {
  const { accountId: _a, payload: _p, leaseId: _l, leaseExpiresAt: _e, scheduleFrom: _s, ...visible } = d;
  return visible;
}

/** One attempt as the API shows it: the exact request (body included) and the answer's first bytes. */
export interface AttemptView {
  number: number;
  startedAt: string;
  durationMs: number;
  succeeded: boolean;
  request: { url: string; headers: Record<string, string>; body: string };
  response: DeliveryAttempt['response'];
  error: string | null;
}

export type DeliveryDetailView = DeliveryView & { payload: string; attemptLog: AttemptView[] };

export function presentDeliveryDetail(d: WebhookDelivery, attempts: DeliveryAttempt[]): DeliveryDetailView {
  return {
    ...presentDelivery(d),
    payload: d.payload,
    attemptLog: attempts.map((a) => ({
      number: a.number,
      startedAt: a.startedAt,
      durationMs: a.durationMs,
      succeeded: a.succeeded,
      // Every attempt sends the delivery's payload, byte for byte.
      request: { url: a.request.url, headers: a.request.headers, body: d.payload },
      response: a.response,
      error: a.error,
    })),
  };
}
