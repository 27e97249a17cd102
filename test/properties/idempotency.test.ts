import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { adaptersUnderTest } from '../support/adapters.js';
import { inWorld, runsOn, signalCount } from './support.js';

/** Create requests (bodies without projectId) a client might send; some differ only in optional fields. */
const requestPool: readonly { path: string; body: Record<string, unknown> }[] = [
  { path: '/issues', body: { title: 'Checkout fails on Safari' } },
  { path: '/issues', body: { title: 'Checkout fails on Safari', severity: 'high' } },
  {
    path: '/issues',
    body: { title: 'Login loops after SSO', description: 'Seen on staging', labels: ['auth', 'web'] },
  },
  // The same body to another path: the path is part of the fingerprint.
  { path: '/outcomes', body: { title: 'Checkout fails on Safari' } },
  // Refused (no such project): an error is not stored, so the key stays free for a good body.
  { path: '/issues', body: { projectId: 'prj_nosuchproject', title: 'Lost issue' } },
];
const failing = requestPool.length - 1;
const bodyPool = requestPool.map((request) => request.body);

/** The same JSON object serialized with its keys in another order (rotated, maybe reversed). */
function serialize(body: Record<string, unknown>, rotate: number, reverse: boolean): string {
  const entries = Object.entries(body);
  const turn = rotate % entries.length;
  const rotated = [...entries.slice(turn), ...entries.slice(0, turn)];
  return JSON.stringify(Object.fromEntries(reverse ? rotated.reverse() : rotated));
}

const step = fc.record({
  key: fc.nat({ max: 2 }),
  body: fc.nat({ max: bodyPool.length - 1 }),
  rotate: fc.nat({ max: 10 }),
  reverse: fc.boolean(),
});

describe.each(adaptersUnderTest)('idempotent creates on $name storage', (adapter) => {
  it('create one resource per distinct key, replay same-request repeats and refuse other paths or bodies without writing', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
        await inWorld(adapter, async (world) => {
          const keys = [randomUUID(), randomUUID(), randomUUID()];
          const first = new Map<number, { body: number; text: string; id: string; path: string }>();
          for (const s of steps) {
            world.clock.advance(1000);
            const body = serialize(
              { projectId: world.ws.projectId, ...bodyPool[s.body] },
              s.rotate,
              s.reverse,
            );
            const signalsBefore = await signalCount(world);
            const res = await world.call('POST', requestPool[s.body]?.path ?? '', {
              body,
              headers: { 'idempotency-key': keys[s.key] ?? '' },
            });
            const earlier = first.get(s.key);
            if (!earlier && s.body === failing) {
              expect(res.status).toBe(422);
              expect(res.json.error).toBe('invalid_reference');
              expect(await signalCount(world)).toBe(signalsBefore);
            } else if (!earlier) {
              expect(res.status).toBe(201);
              expect(res.headers['idempotent-replayed']).toBeUndefined();
              first.set(s.key, {
                body: s.body,
                text: res.text,
                id: res.json.id,
                path: requestPool[s.body]?.path ?? '',
              });
            } else if (earlier.body === s.body) {
              expect(res.status).toBe(200);
              expect(res.headers['idempotent-replayed']).toBe('true');
              expect(res.text).toBe(earlier.text);
              expect(await signalCount(world)).toBe(signalsBefore);
            } else {
              expect(res.status).toBe(422);
              expect(res.json.error).toBe('idempotency_key_reused');
              expect(await signalCount(world)).toBe(signalsBefore);
            }
          }
          for (const path of ['/issues', '/outcomes']) {
            const made = [...first.values()].filter((f) => f.path === path);
            const list = await world.call('GET', path, { query: { limit: '200' } });
            expect(list.json.total).toBe(made.length);
            const listed = list.json.data.map((item: { id: string }) => item.id).sort();
            expect(listed).toEqual(made.map((f) => f.id).sort());
            if (path !== '/issues') continue;
            // Refused requests used up no issue number either.
            const numbers = list.json.data
              .map((issue: { number: number }) => issue.number)
              .sort((a: number, b: number) => a - b);
            expect(numbers).toEqual(Array.from({ length: made.length }, (_, i) => i + 1));
          }
        });
      }),
      { numRuns: runsOn(adapter, 40) },
    );
  });

  it('forget a key 24 hours after its first use, so that it then creates again', async () => {
    const hour = 60 * 60 * 1000;
    const timedStep = fc.record({
      key: fc.nat({ max: 1 }),
      body: fc.nat({ max: 2 }),
      // No sum of at most ten of these is exactly 24 h, a boundary the contract leaves open.
      advanceMs: fc.constantFrom(1000, 5 * hour, 23 * hour, 25 * hour),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(timedStep, { minLength: 1, maxLength: 10 }), async (steps) => {
        await inWorld(adapter, async (world) => {
          const keys = [randomUUID(), randomUUID()];
          const live = new Map<number, { body: number; at: number; text: string }>();
          const created: string[] = [];
          for (const s of steps) {
            world.clock.advance(s.advanceMs);
            const now = world.clock.now();
            const res = await world.call('POST', '/issues', {
              body: { projectId: world.ws.projectId, ...bodyPool[s.body] },
              headers: { 'idempotency-key': keys[s.key] ?? '' },
            });
            const earlier = live.get(s.key);
            if (!earlier || now - earlier.at > 24 * hour) {
              expect(res.status).toBe(201);
              live.set(s.key, { body: s.body, at: now, text: res.text });
              created.push(res.json.id);
            } else if (earlier.body === s.body) {
              expect(res.status).toBe(200);
              expect(res.text).toBe(earlier.text);
            } else {
              expect({ status: res.status, error: res.json.error }).toEqual({
                status: 422,
                error: 'idempotency_key_reused',
              });
            }
          }
          const list = await world.call('GET', '/issues', { query: { limit: '200' } });
          expect(list.json.data.map((issue: { id: string }) => issue.id).sort()).toEqual(created.sort());
        });
      }),
      { numRuns: runsOn(adapter, 30) },
    );
  });
});
