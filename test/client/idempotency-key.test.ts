import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { timeOrderedKey } from '../../src/client/index.js';
import { clientFixture, recordingFetch } from './harness.js';

const version7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('timeOrderedKey', () => {
  it('is a version 7 UUID whose first 48 bits are the time, so keys of later times sort later', () => {
    const maxMs = 2 ** 48 - 1;
    fc.assert(
      fc.property(fc.integer({ min: 0, max: maxMs }), fc.integer({ min: 0, max: maxMs }), (a, b) => {
        const [ka, kb] = [timeOrderedKey(a), timeOrderedKey(b)];
        for (const key of [ka, kb]) {
          expect(key).toMatch(version7);
          // The server takes it as a UUID.
          expect(z.uuid().safeParse(key).success).toBe(true);
        }
        expect(Number.parseInt(ka.replace('-', '').slice(0, 12), 16)).toBe(a);
        if (a < b) expect(ka < kb).toBe(true);
      }),
    );
  });

  it('refuses a time a version 7 UUID cannot tell', () => {
    for (const ms of [-1, 2 ** 48, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => timeOrderedKey(ms)).toThrow(RangeError);
    }
  });

  it('keeps keys of one millisecond apart', () => {
    const keys = new Set(Array.from({ length: 10_000 }, () => timeOrderedKey(1_800_000_000_000)));
    expect(keys.size).toBe(10_000);
  });

  it('is the key the client sends with a create it was given none for', async () => {
    const f = await clientFixture('node');
    try {
      const recorder = recordingFetch();
      const before = Date.now();
      await f.client({ fetch: recorder.fetch }).issues.create({ projectId: f.ws.projectId, title: 'Keyed' });
      const key = recorder.sent[0]?.idempotencyKey ?? '';
      expect(key).toMatch(version7);
      const ms = Number.parseInt(key.replace('-', '').slice(0, 12), 16);
      expect(ms).toBeGreaterThanOrEqual(before);
      expect(ms).toBeLessThanOrEqual(Date.now());
    } finally {
      await f.close();
    }
  });
});
