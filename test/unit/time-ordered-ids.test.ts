import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isoTime, randomIds } from '../../src/core/runtime.js';
import { timeOrderedIdBody, uuidV7 } from '../../src/core/time-ordered-ids.js';

describe('time-ordered ids', () => {
  it('keep the documented shape and sort by creation time, earliest first', () => {
    const times = [0, 1, 61, 62, 3_843, Date.UTC(2026, 0, 1), Date.UTC(2026, 0, 1) + 1, Date.UTC(2999, 0, 1)];
    const bodies = times.map(timeOrderedIdBody);
    for (const body of bodies) expect(body).toMatch(/^[0-9A-Za-z]{20}$/);
    expect([...bodies].sort()).toEqual(bodies);
    expect(randomIds.id('iss')).toMatch(/^iss_[0-9A-Za-z]{20}$/);
  });

  it('differ within one millisecond, and follow each other in the order they were made', () => {
    const bodies = Array.from({ length: 1_000 }, () => timeOrderedIdBody(1_700_000_000_000));
    expect(new Set(bodies).size).toBe(1_000);
    expect([...bodies].sort()).toEqual(bodies);
    expect(timeOrderedIdBody(1_700_000_000_001) > (bodies.at(-1) as string)).toBe(true);
  });

  it('make version 7 UUIDs that sort by time and carry it in their first 48 bits', () => {
    const earlier = uuidV7(Date.UTC(2026, 0, 1));
    const later = uuidV7(Date.UTC(2026, 0, 1) + 1);
    expect(z.uuid().safeParse(earlier).success).toBe(true);
    expect(earlier).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(earlier < later).toBe(true);
    expect(Number.parseInt(earlier.replace('-', '').slice(0, 12), 16)).toBe(Date.UTC(2026, 0, 1));
    expect(z.uuid().safeParse(randomIds.uuid()).success).toBe(true);
  });

  it('make version 7 UUIDs that differ within one millisecond, across refills of the random pool', () => {
    const ids = Array.from({ length: 2_000 }, () => uuidV7(1_700_000_000_000));
    expect(new Set(ids).size).toBe(2_000);
    for (const id of ids) expect(id).toMatch(/^018bcfe5-6800-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});

describe('the time an id carries', () => {
  const base62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  const edges = [0, 1, 61, 62, 62 ** 4 - 1, 62 ** 4, 2 ** 31, 2 ** 48 - 1, 2 ** 48, 62 ** 8 - 1, 62 ** 8];

  it('is the millisecond, in the first 8 base62 digits of an id body (modulo 62^8)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.constantFrom(...edges), fc.integer({ min: 0, max: 2 ** 50 })), (ms) => {
        const body = timeOrderedIdBody(ms);
        const spelled = [...body.slice(0, 8)].reduce((value, digit) => value * 62 + base62.indexOf(digit), 0);
        expect(spelled).toBe(ms % 62 ** 8);
      }),
      { numRuns: 2_000 },
    );
  });

  it('is the millisecond, in the first 48 bits of a UUID (modulo 2^48)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.constantFrom(...edges), fc.integer({ min: 0, max: 2 ** 50 })), (ms) => {
        const uuid = uuidV7(ms);
        expect(Number.parseInt(uuid.replace('-', '').slice(0, 12), 16)).toBe(ms % 2 ** 48);
        expect(uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      }),
      { numRuns: 2_000 },
    );
  });
});

describe('isoTime', () => {
  it('says what Date.prototype.toISOString says, fractions and dates before 1970 included', () => {
    const edges = [
      0, -0.5, 0.5, 999.9, -1, 59_999, 60_000, -60_001, 253_402_300_799_999, -62_167_219_200_000,
    ];
    fc.assert(
      fc.property(
        fc.oneof(
          fc.constantFrom(...edges),
          fc.integer({ min: -8.64e15, max: 8.64e15 }),
          fc.double({ min: -1e13, max: 1e13, noNaN: true }),
        ),
        (ms) => {
          expect(isoTime(ms)).toBe(new Date(ms).toISOString());
        },
      ),
      { numRuns: 5_000 },
    );
  });

  it('refuses what toISOString refuses', () => {
    for (const ms of [Number.NaN, Number.POSITIVE_INFINITY, 8.64e15 + 1]) {
      expect(() => isoTime(ms)).toThrow(RangeError);
    }
  });
});
