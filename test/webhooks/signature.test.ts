import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  computeSignature,
  signatureHeaderValue,
  verifySignature,
} from '../../src/core/webhooks/signature.js';

/** The receiver's side, written from the seed's description alone: HMAC-SHA256(secret, t + "." + body), hex. */
const independentHmac = (secret: string, timestamp: number, body: Uint8Array): string =>
  createHmac('sha256', Buffer.from(secret, 'utf8'))
    .update(Buffer.concat([Buffer.from(`${timestamp}.`, 'ascii'), body]))
    .digest('hex');

/** The v1 values of a header, in order. */
const v1s = (header: string): string[] =>
  header
    .split(',')
    .filter((part) => part.startsWith('v1='))
    .map((part) => part.slice(3));

const timestamp = fc.integer({ min: 1_000_000_000, max: 4_000_000_000 });
/** Printable ASCII secrets, as `whsec_` + base64url ones are. */
const secret = fc
  .string({ unit: 'binary-ascii', minLength: 1, maxLength: 64 })
  .map((s) => `whsec_${s.replace(/[^\x20-\x7e]/g, 'a')}`);
const body = fc.uint8Array({ minLength: 1, maxLength: 512 });

/** `bytes` with the byte at `index` (mod length) changed by a non-zero `delta`. */
const flip = (bytes: Uint8Array, index: number, delta: number): Uint8Array => {
  const copy = Uint8Array.from(bytes);
  const at = index % copy.length;
  copy[at] = ((copy[at] as number) + delta) % 256;
  return copy;
};

/** What one secret signed: the secret, the time, the body, and the header made of them. */
interface Signed {
  s: string;
  t: number;
  b: Uint8Array;
  header: string;
}

/**
 * The property `check` over signed bodies and one change to make to them: at `index` (taken
 * modulo the length of what is changed), by a `delta` from 1 to `maxDelta`.
 */
const eachSignedChange = (
  maxDelta: number,
  check: (signed: Signed, index: number, delta: number) => Promise<void>,
): Promise<void> =>
  fc.assert(
    fc.asyncProperty(
      secret,
      timestamp,
      body,
      fc.nat(),
      fc.integer({ min: 1, max: maxDelta }),
      async (s, t, b, index, delta) =>
        check({ s, t, b, header: await signatureHeaderValue([s], t, b) }, index, delta),
    ),
  );

describe('webhook signatures', () => {
  it('produce a header that an independent HMAC computation reproduces exactly', async () => {
    await fc.assert(
      fc.asyncProperty(secret, timestamp, body, async (s, t, b) => {
        const header = await signatureHeaderValue([s], t, b);
        expect(header).toBe(`t=${t},v1=${independentHmac(s, t, b)}`);
        expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
      }),
    );
  });

  it('verify when the body, timestamp and secret are exactly those signed', async () => {
    await fc.assert(
      fc.asyncProperty(secret, timestamp, body, async (s, t, b) => {
        const header = await signatureHeaderValue([s], t, b);
        expect(await verifySignature({ body: b, header, secret: s, nowSeconds: t })).toEqual({
          ok: true,
          timestamp: t,
        });
      }),
    );
  });

  it('stop verifying when any single byte of the body changes', async () => {
    await eachSignedChange(255, async ({ s, t, b, header }, index, delta) => {
      const tampered = flip(b, index, delta);
      expect(independentHmac(s, t, tampered)).not.toBe(v1s(header)[0]);
      expect(await verifySignature({ body: tampered, header, secret: s, nowSeconds: t })).toEqual({
        ok: false,
        reason: 'no_matching_signature',
      });
    });
  });

  it('stop verifying when any single digit of the timestamp changes', async () => {
    await eachSignedChange(9, async ({ s, t, b, header }, index, delta) => {
      const digits = String(t).split('');
      const at = index % digits.length;
      digits[at] = String((Number(digits[at]) + delta) % 10);
      const forged = Number(digits.join(''));
      // The receiver's clock agrees with the forged time, so only the signature can refuse it.
      const result = await verifySignature({
        body: b,
        header: header.replace(`t=${t}`, `t=${forged}`),
        secret: s,
        nowSeconds: forged,
      });
      expect(forged).not.toBe(t);
      expect(result).toEqual({ ok: false, reason: 'no_matching_signature' });
    });
  });

  it('stop verifying when any single byte of the secret changes', async () => {
    await eachSignedChange(94, async ({ s, t, b, header }, index, delta) => {
      const chars = [...s];
      const at = index % chars.length;
      const code = (chars[at] as string).charCodeAt(0);
      // Secrets are printable ASCII (32–126): move the character to another one in that range.
      chars[at] = String.fromCharCode(32 + ((code - 32 + delta) % 95));
      const otherSecret = chars.join('');
      expect(otherSecret).not.toBe(s);
      expect(await verifySignature({ body: b, header, secret: otherSecret, nowSeconds: t })).toEqual({
        ok: false,
        reason: 'no_matching_signature',
      });
    });
  });

  it('carry one v1 per secret during a rotation, newest first, and verify with either secret', async () => {
    await fc.assert(
      fc.asyncProperty(secret, secret, timestamp, body, async (next, previous, t, b) => {
        fc.pre(next !== previous);
        const header = await signatureHeaderValue([next, previous], t, b);
        expect(v1s(header)).toEqual([independentHmac(next, t, b), independentHmac(previous, t, b)]);
        for (const s of [next, previous]) {
          expect((await verifySignature({ body: b, header, secret: s, nowSeconds: t })).ok).toBe(true);
        }
        expect((await verifySignature({ body: b, header, secret: `${next}x`, nowSeconds: t })).ok).toBe(
          false,
        );
      }),
    );
  });

  it('refuse a valid signature whose timestamp is more than five minutes away, in either direction', async () => {
    const t = 1_800_000_000;
    const b = Buffer.from('{"id":"e"}');
    const header = await signatureHeaderValue(['whsec_k'], t, b);
    const at = (nowSeconds: number) => verifySignature({ body: b, header, secret: 'whsec_k', nowSeconds });
    expect((await at(t + 300)).ok).toBe(true);
    expect((await at(t - 300)).ok).toBe(true);
    expect(await at(t + 301)).toEqual({ ok: false, reason: 'timestamp_outside_tolerance' });
    expect(await at(t - 301)).toEqual({ ok: false, reason: 'timestamp_outside_tolerance' });
  });

  it('sign strings and their UTF-8 bytes alike, so the bytes sent are the bytes signed', async () => {
    const text = '{"title":"Grüße ✓"}';
    expect(await computeSignature('whsec_k', 1, text)).toBe(
      await computeSignature('whsec_k', 1, Buffer.from(text)),
    );
  });
});
