import { verifyWebhook, type WebhookEvent } from '@outcome-tracker/client';
import type { WebhookRequest, WebhookResult, WebhookSender } from '../core/index.js';

/** What every captured delivery has, whatever its event. */
interface CapturedBase {
  /** The event id (`webhook-id` / `X-Service-Event-Id`): the same on every attempt of one delivery. */
  id: string;
  /** The body exactly as sent, for signature checks. */
  body: string;
  /** The request's headers, names in lower case. */
  headers: Record<string, string>;
  /** Which attempt at this event this was for the capture: 1 for the first, 2 for its first retry… */
  attempt: number;
  /** The tracker's time (the test clock) it arrived at, in ms. */
  receivedAt: number;
  /** The status the capture answered (0 while a responder function is still deciding). */
  status: number;
}

/**
 * One delivery a capture received: exactly what the tracker sent, and what the capture answered.
 * A union by event type, so `d.type === 'issue.created'` narrows `d.event` to that event.
 */
export type CapturedDelivery<E extends WebhookEvent = WebhookEvent> = E extends WebhookEvent
  ? CapturedBase & {
      /** The event type, e.g. `issue.created`. */
      type: E['type'];
      /** The parsed body. */
      event: E;
    }
  : never;

/** The captured delivery of one event type. */
export type CapturedOf<T extends WebhookEvent['type']> = CapturedDelivery<Extract<WebhookEvent, { type: T }>>;

/** How a capture answers: a status, or a status with headers (e.g. Retry-After) and a body. */
export type CaptureAnswer = number | { status: number; headers?: Record<string, string>; body?: string };

/**
 * A capture's answer to each delivery: fixed, or from a function of it, which may be the app's own
 * webhook handler (async, answering its status).
 */
export type CaptureResponder =
  | CaptureAnswer
  | ((delivery: CapturedDelivery) => CaptureAnswer | Promise<CaptureAnswer>);

/** What a delivery `waitFor` waits for: an event type, or a test of the delivery. */
export type DeliveryMatch = string | ((delivery: CapturedDelivery) => boolean);

export interface WaitOptions {
  /** How long to wait, in real ms; default 5000. */
  timeoutMs?: number;
}

/** A webhook subscription whose deliveries are kept in memory. */
export interface WebhookCapture {
  /** The subscription's id (`wh_…`). */
  id: string;
  /** Its URL, on a host only the test tracker's in-memory network knows. */
  url: string;
  /** Its signing secret. */
  secret: string;
  /** Every delivery received so far, oldest first (retries included). */
  received: CapturedDelivery[];
  /**
   * The first delivery received that matches (an event type, or a predicate), or the next one to
   * arrive, once the tracker has recorded the attempt. Rejects after `timeoutMs` of real time
   * (default 5000) with what was received instead:
   * deliveries due later arrive only when the clock is advanced to them.
   */
  waitFor<T extends WebhookEvent['type']>(type: T, options?: WaitOptions): Promise<CapturedOf<T>>;
  waitFor(match: (delivery: CapturedDelivery) => boolean, options?: WaitOptions): Promise<CapturedDelivery>;
  /** How later deliveries are answered (200 until told): `respondWith(500)` makes them fail and retry. */
  respondWith(answer: CaptureResponder): void;
  /** Verifies a delivery with the client's `verifyWebhook` (at the test clock's time) and returns its event. */
  verify(delivery: CapturedDelivery): Promise<WebhookEvent>;
}

interface Waiter {
  match: (delivery: CapturedDelivery) => boolean;
  resolve: (delivery: CapturedDelivery) => void;
  reject: (error: Error) => void;
  timer: ReturnType<typeof setTimeout>;
}

/** The receiving end of one capture, reached by the in-memory sender. */
export class CaptureReceiver {
  readonly received: CapturedDelivery[] = [];
  private answer: CaptureResponder = 200;
  private readonly waiters = new Set<Waiter>();
  private readonly attempts = new Map<string, number>();

  /**
   * `now`: the test clock; `recorded`: resolves once the tracker has recorded the attempts in
   * flight, so a test that got its delivery sees the attempt's outcome in the API too.
   */
  constructor(
    private readonly now: () => number,
    private readonly recorded: () => Promise<void>,
  ) {}

  respondWith(answer: CaptureResponder): void {
    this.answer = answer;
  }

  /** Takes one request: records it, answers it, and hands it to whoever waits for it. */
  async receive(request: WebhookRequest): Promise<WebhookResult> {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers)) headers[name.toLowerCase()] = value;
    const event = JSON.parse(request.body) as WebhookEvent;
    const id = headers['webhook-id'] ?? headers['x-service-event-id'] ?? event.id;
    const attempt = (this.attempts.get(id) ?? 0) + 1;
    this.attempts.set(id, attempt);
    const delivery = {
      id,
      type: event.type,
      event,
      body: request.body,
      headers,
      attempt,
      receivedAt: this.now(),
      status: 0,
    } as CapturedDelivery;
    let answer: CaptureAnswer;
    try {
      answer = typeof this.answer === 'function' ? await this.answer(delivery) : this.answer;
    } catch (error) {
      // A responder that throws is a receiver that fails: the tracker sees a 500, as from a crashed app.
      answer = { status: 500, body: String(error) };
    }
    const {
      status,
      headers: responseHeaders = {},
      body = '',
    } = typeof answer === 'number' ? { status: answer } : answer;
    delivery.status = status;
    this.received.push(delivery);
    for (const waiter of this.waiters) {
      if (!waiter.match(delivery)) continue;
      this.waiters.delete(waiter);
      clearTimeout(waiter.timer);
      void this.recorded().then(() => waiter.resolve(delivery), waiter.reject);
    }
    const lowerHeaders = Object.fromEntries(
      Object.entries(responseHeaders).map(([name, value]) => [name.toLowerCase(), value]),
    );
    return {
      status,
      retryAfter: lowerHeaders['retry-after'] ?? null,
      error: null,
      durationMs: 0,
      responseHeaders: lowerHeaders,
      responseBody: body,
      responseBodyTruncated: false,
    };
  }

  waitFor(match: DeliveryMatch, timeoutMs: number): Promise<CapturedDelivery> {
    const test = typeof match === 'string' ? (d: CapturedDelivery) => d.type === match : match;
    const found = this.received.find(test);
    if (found) return this.recorded().then(() => found);
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        match: test,
        resolve,
        reject,
        timer: setTimeout(() => {
          this.waiters.delete(waiter);
          const got = this.received.map((d) => `${d.type} (attempt ${d.attempt}, answered ${d.status})`);
          reject(
            new Error(
              `No delivery matching ${typeof match === 'string' ? `"${match}"` : 'the predicate'} arrived ` +
                `within ${timeoutMs} ms; received: ${got.length ? got.join(', ') : 'nothing'}. ` +
                'A retry arrives only when the clock is advanced to it (clock.advance).',
            ),
          );
        }, timeoutMs),
      };
      this.waiters.add(waiter);
    });
  }

  /** Rejects every pending waitFor: the tracker is closing. */
  close(): void {
    for (const waiter of this.waiters) {
      clearTimeout(waiter.timer);
      waiter.reject(new Error('The test tracker was closed while waiting for a delivery'));
    }
    this.waiters.clear();
  }
}

/** The host of capture URLs: `.test` is reserved (RFC 2606), so no real host can be meant. */
export const captureHost = 'webhooks.outcome-tracker.test';

/**
 * What the capture host resolves to for the tracker's SSRF check at subscription time: an address
 * the guard lets pass (the retired 6to4 relay anycast, RFC 7526). Nothing ever connects to it.
 */
const captureAddress = '192.88.99.1';

/**
 * The in-memory network of one test tracker: a WebhookSender that hands each delivery to the
 * capture its URL names, with no socket. Any other URL answers as an unreachable host would.
 */
export class CaptureNetwork implements WebhookSender {
  private readonly receivers = new Map<string, CaptureReceiver>();
  private next = 1;

  constructor(
    private readonly now: () => number,
    private readonly recorded: () => Promise<void>,
  ) {}

  /** A new receiver and its URL. */
  open(): { url: string; receiver: CaptureReceiver } {
    const url = `https://${captureHost}/captures/${this.next++}`;
    const receiver = new CaptureReceiver(this.now, this.recorded);
    this.receivers.set(url, receiver);
    return { url, receiver };
  }

  async send(request: WebhookRequest): Promise<WebhookResult> {
    const receiver = this.receivers.get(request.url);
    if (!receiver) {
      return { status: null, retryAfter: null, error: `no capture listens at ${request.url}`, durationMs: 0 };
    }
    return receiver.receive(request);
  }

  async resolve(host: string): Promise<string[]> {
    return host === captureHost ? [captureAddress] : [];
  }

  close(): void {
    for (const receiver of this.receivers.values()) receiver.close();
  }
}

/** Verifies a captured delivery at the test clock's time, with the client's verifier. */
export function verifyCaptured(
  delivery: CapturedDelivery,
  secret: string,
  now: () => number,
): Promise<WebhookEvent> {
  return verifyWebhook(delivery.body, delivery.headers, secret, { now });
}
