import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hashToken, rememberedHashes } from '../../src/core/tenancy/token-hash.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('hashToken', () => {
  it('is the SHA-256 of the token, whether its hash is remembered or not', () => {
    fc.assert(
      fc.property(fc.array(fc.string(), { maxLength: 20 }), (tokens) => {
        // Twice over: the second pass answers from memory.
        for (const token of [...tokens, ...tokens]) expect(hashToken(token)).toBe(sha256(token));
      }),
    );
  });

  it('hashes a token far longer than any the server issues alike, asked once or twice', () => {
    const long = `cn_${'x'.repeat(10_000)}`;
    expect(hashToken(long)).toBe(sha256(long));
    expect(hashToken(long)).toBe(sha256(long));
  });

  it('stays right past the number it remembers, once the memory has started afresh', () => {
    const tokens = Array.from({ length: rememberedHashes * 2 + 7 }, (_, i) => `cn_${i}`);
    for (const token of tokens) expect(hashToken(token)).toBe(sha256(token));
    for (const token of tokens) expect(hashToken(token)).toBe(sha256(token));
  });
});
