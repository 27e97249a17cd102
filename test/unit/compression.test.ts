import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { compressInPlaceBytes, createCompressor, minCompressBytes } from '../../src/core/edge/compression.js';
import type { TrackerResponse } from '../../src/core/pipeline/request.js';

/** A JSON answer of about `bytes` bytes, its characters varied so that it does not shrink to nothing. */
function answer(bytes: number, headers: Record<string, string> = {}): TrackerResponse {
  const items: string[] = [];
  for (let i = 0; JSON.stringify(items).length < bytes; i++) items.push(`issue ${i} ${(i * 7919) % 104729}`);
  return {
    status: 200,
    headers: { 'Content-Type': 'application/json; charset=utf-8', ...headers },
    body: JSON.stringify(items),
  };
}

const decoded = (coding: string | undefined, body: TrackerResponse['body']): string => {
  const bytes = Buffer.from(body as Uint8Array);
  return (coding === 'br' ? brotliDecompressSync(bytes) : gunzipSync(bytes)).toString();
};

describe('compression', () => {
  // Below the in-place bound bodies are compressed on the event loop, above it on zlib's thread
  // pool (and static bodies always there): either way the client gets the same JSON back.
  it.each([
    ['gzip', minCompressBytes * 2],
    ['br', minCompressBytes * 2],
    ['gzip', compressInPlaceBytes],
    ['br', compressInPlaceBytes + 1],
    ['gzip', compressInPlaceBytes * 3],
    ['br', compressInPlaceBytes * 3],
  ])('compresses a %s answer of %i bytes that decompresses to the same text', async (coding, bytes) => {
    const compressor = createCompressor();
    const original = answer(bytes);
    const compressed = await compressor.compress(coding, original);
    expect(compressed.headers['Content-Encoding']).toBe(coding);
    expect(compressed.headers.Vary).toBe('Accept-Encoding');
    expect((compressed.body as Uint8Array).byteLength).toBeLessThan(bytes);
    expect(decoded(coding, compressed.body)).toBe(original.body);
  });

  it('compresses a public body with an ETag once per coding, however large', async () => {
    const compressor = createCompressor();
    const original = answer(compressInPlaceBytes / 2, {
      ETag: '"v1"',
      'Cache-Control': 'public, max-age=60',
    });
    const first = await compressor.compress('br', original);
    const second = await compressor.compress('br', original);
    expect(second.body).toBe(first.body);
    expect(decoded('br', second.body)).toBe(original.body);
  });
});
