import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseRetryAfterSeconds } from '../../src/client/errors.js';
import {
  type AttemptOutcome,
  defaultBackoff,
  isRetryable,
  retryDelayMs,
} from '../../src/client/retry-policy.js';
import { parseSse, type SseItem } from '../../src/client/sse.js';
import { queryString } from '../../src/client/transport.js';

/** A byte stream delivering `bytes` in the given chunk sizes. */
function chunked(bytes: Uint8Array, sizes: number[]): ReadableStream<Uint8Array> {
  let at = 0;
  let i = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      const size = Math.max(1, sizes[i++ % Math.max(1, sizes.length)] ?? 1);
      controller.enqueue(bytes.slice(at, at + size));
      at += size;
    },
  });
}

async function parseAll(stream: ReadableStream<Uint8Array>): Promise<SseItem[]> {
  const items: SseItem[] = [];
  for await (const item of parseSse(stream)) items.push(item);
  return items;
}

describe('the server-sent events parser', () => {
  it('gives the same events however the bytes are split, whatever the line endings', async () => {
    const event = fc.record({
      id: fc.stringMatching(/^[0-9a-f-]{1,36}$/),
      type: fc.constantFrom('issue.created', 'issue.updated'),
      data: fc.string({ unit: 'grapheme', maxLength: 40 }).map((s) => s.replace(/[\r\n]/g, ' ')),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(event, { minLength: 1, maxLength: 5 }),
        fc.constantFrom('\n', '\r\n', '\r'),
        fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 1 }),
        async (events, eol, sizes) => {
          const text =
            `retry: 2000${eol}${eol}: heartbeat${eol}${eol}` +
            events.map((e) => `id: ${e.id}${eol}event: ${e.type}${eol}data: ${e.data}${eol}${eol}`).join('');
          const items = await parseAll(chunked(new TextEncoder().encode(text), sizes));
          expect(items).toEqual([
            { kind: 'retry', ms: 2000 },
            ...events.map((e) => ({ kind: 'event', event: { id: e.id, event: e.type, data: e.data } })),
          ]);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('joins data lines, and does not dispatch an event cut off before its blank line', async () => {
    const items = await parseAll(chunked(new TextEncoder().encode('data: a\ndata: b\n\ndata: cut'), [3]));
    expect(items).toEqual([{ kind: 'event', event: { id: undefined, event: 'message', data: 'a\nb' } }]);
  });
});

describe('the retry policy', () => {
  const backoff = { ...defaultBackoff, random: Math.random };
  const network: AttemptOutcome = { kind: 'network', timedOut: false };
  const status = (
    s: number,
    code: string | null = null,
    retryAfterSeconds: number | null = null,
  ): AttemptOutcome => ({
    kind: 'status',
    status: s,
    code,
    retryAfterSeconds,
  });

  it('retries what cannot have been applied twice, and nothing else', () => {
    expect(isRetryable('idempotent', network)).toBe(true);
    expect(isRetryable('keyed', network)).toBe(true);
    expect(isRetryable('unsafe', network)).toBe(false);
    expect(isRetryable('unsafe', status(429))).toBe(true);
    expect(isRetryable('unsafe', status(503))).toBe(false);
    expect(isRetryable('unsafe', status(503, 'transient_conflict'))).toBe(true);
    expect(isRetryable('keyed', status(409, 'idempotency_key_in_use'))).toBe(true);
    expect(isRetryable('keyed', status(409, 'version_conflict'))).toBe(false);
    for (const s of [400, 401, 404, 422, 500]) expect(isRetryable('idempotent', status(s))).toBe(false);
  });

  it('waits at least Retry-After, and backs off exponentially with jitter without one', () => {
    fc.assert(
      fc.property(
        fc.nat({ max: 10 }),
        fc.double({ min: 0, max: 0.999999, noNaN: true }),
        fc.nat({ max: 60 }),
        (retry, r, after) => {
          const options = { ...backoff, random: () => r };
          const ceiling = Math.min(defaultBackoff.maxDelayMs, defaultBackoff.baseDelayMs * 2 ** retry);
          const plain = retryDelayMs(retry, network, options) ?? -1;
          expect(plain).toBeGreaterThanOrEqual(Math.floor(ceiling / 2));
          expect(plain).toBeLessThanOrEqual(ceiling);
          const told = retryDelayMs(retry, status(429, 'rate_limited', after), options) ?? -1;
          expect(told).toBeGreaterThanOrEqual(after * 1000);
          expect(told).toBeLessThan(after * 1000 + 250);
        },
      ),
    );
    expect(retryDelayMs(0, status(429, 'rate_limited', 61), backoff)).toBeNull();
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    expect(parseRetryAfterSeconds('3')).toBe(3);
    expect(parseRetryAfterSeconds(new Date(10_000).toUTCString(), 2_000)).toBe(8);
    expect(parseRetryAfterSeconds('soon')).toBeNull();
    expect(parseRetryAfterSeconds(null)).toBeNull();
  });
});

describe('query strings', () => {
  it('repeats array members and leaves out null and undefined', () => {
    expect(queryString({ types: ['a.b', 'c.d'], after: 3, q: undefined, x: null, flag: true })).toBe(
      '?types=a.b&types=c.d&after=3&flag=true',
    );
    expect(queryString({})).toBe('');
  });
});
