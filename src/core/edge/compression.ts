import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync } from 'node:zlib';
import { qualityValues } from '../pipeline/quality-values.js';
import type { TrackerResponse } from '../pipeline/request.js';
import { withFields } from '../with-fields.js';
import { appendVary } from './cors.js';

export type ContentCoding = 'br' | 'gzip';

/** Bodies smaller than this go as they are: compressing them costs more than it saves. */
export const minCompressBytes = 1024;

const compressible = /^(application\/(json|problem\+json|javascript)|text\/|image\/svg\+xml)/;

/**
 * Bodies up to this size are compressed in place, on the event loop; larger ones on zlib's thread
 * pool. Handing a body to the pool and back wakes a thread each way, and on a 2-core machine that
 * cost a compressed page of 50 issues (16 kB) about a fifth of its CPU, more than compressing it
 * (0.1–0.3 ms): gzip 906 → 736 µs a request, brotli 1,122 → 790 µs in place (paired medians of 10
 * rounds, every round lower). Past this size compressing takes a millisecond and more, too long to hold the loop.
 */
export const compressInPlaceBytes = 64 * 1024;

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/**
 * The coding to answer with, by the client's `Accept-Encoding` and its q-values (RFC 9110 §12.5.3):
 * the acceptable coding with the highest q, brotli on a tie; null for none (identity).
 */
export function negotiateEncoding(acceptEncoding: string | undefined): ContentCoding | null {
  if (!acceptEncoding) return null;
  const q = qualityValues(acceptEncoding);
  const weightOf = (coding: string) => q.get(coding) ?? q.get('*') ?? 0;
  const br = weightOf('br');
  const gz = Math.max(weightOf('gzip'), q.get('x-gzip') ?? 0);
  if (br <= 0 && gz <= 0) return null;
  return br >= gz ? 'br' : 'gzip';
}

export interface Compressor {
  /**
   * The response with its body compressed for this client, when that pays; `Vary` says so either
   * way. Answered at once (not a promise) when nothing is compressed: most answers are small, and
   * a promise for each would cost them more than the check does.
   */
  compress(
    acceptEncoding: string | undefined,
    response: TrackerResponse,
  ): TrackerResponse | Promise<TrackerResponse>;
}

/** How many compressed static bodies (keyed by ETag) are kept. */
const cacheEntries = 32;

/**
 * gzip and brotli for JSON, HTML, scripts and the API description, never for event streams.
 * Public bodies with an ETag (the API description, the docs assets) are compressed once per coding
 * and kept; others are compressed per request, in place up to `compressInPlaceBytes` and on zlib's
 * thread pool beyond.
 */
export function createCompressor(): Compressor {
  const cache = new Map<string, Promise<Uint8Array>>();
  const encode = async (
    coding: ContentCoding,
    body: string | Uint8Array,
    size: number,
    cacheable: boolean,
  ): Promise<Uint8Array> => {
    // Static bodies are compressed once, so they get a denser setting than per-request ones (and
    // the thread pool, as the densest settings take long).
    const inPlace = !cacheable && size <= compressInPlaceBytes;
    if (coding === 'gzip') {
      const options = { level: cacheable ? 9 : 6 };
      return inPlace ? gzipSync(body, options) : gzipAsync(body, options);
    }
    const options = {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: cacheable ? 9 : 4,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: size,
      },
    };
    return inPlace ? brotliCompressSync(body, options) : brotliAsync(body, options);
  };

  const compressed = (
    coding: ContentCoding,
    body: string | Uint8Array,
    size: number,
    headers: Record<string, string>,
  ) => {
    // Only public bodies whose ETag names their content are shared; an API resource's ETag is its
    // version, the same for every resource, and its body is private.
    const etag = headers.ETag;
    if (!etag || !/\bpublic\b/.test(headers['Cache-Control'] ?? '')) return encode(coding, body, size, false);
    const key = `${coding} ${etag}`;
    let entry = cache.get(key);
    if (!entry) {
      entry = encode(coding, body, size, true);
      entry.catch(() => cache.delete(key));
      if (cache.size >= cacheEntries) cache.delete(cache.keys().next().value as string);
      cache.set(key, entry);
    }
    return entry;
  };

  const encoded = async (
    response: TrackerResponse,
    headers: Record<string, string>,
    coding: ContentCoding,
    body: string | Uint8Array,
    size: number,
  ): Promise<TrackerResponse> => {
    const bytes = await compressed(coding, body, size, response.headers);
    headers['Content-Encoding'] = coding;
    return { ...response, headers, body: bytes };
  };

  return {
    compress(acceptEncoding, response) {
      const type = response.headers['Content-Type'];
      if (response.stream || !type || !compressible.test(type) || response.headers['Content-Encoding']) {
        return response;
      }
      const headers: Record<string, string> = withFields(response.headers, {
        Vary: appendVary(response.headers.Vary, 'Accept-Encoding'),
      });
      const body = response.body;
      const coding = negotiateEncoding(acceptEncoding);
      if (body === null || coding === null) return { ...response, headers };
      // Measured only when it may be compressed: counting a string's UTF-8 bytes walks all of it.
      const size = typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
      if (size < minCompressBytes) return { ...response, headers };
      return encoded(response, headers, coding, body, size);
    },
  };
}
