import type { Readable } from 'node:stream';

/**
 * Reads a request body but stops just past `limit` bytes, so an oversized upload costs at most
 * `limit + 1` bytes of memory; the core then answers 413 for it.
 */
export async function readCapped(
  chunks: AsyncIterable<Uint8Array>,
  limit: number,
): Promise<Uint8Array | null> {
  const parts: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of chunks) {
    parts.push(chunk);
    size += chunk.byteLength;
    if (size > limit) break;
  }
  if (size === 0) return null;
  return parts.length === 1 ? (parts[0] as Uint8Array) : Buffer.concat(parts, size);
}

/**
 * `readCapped` for a Node stream, by its events: an async iterator costs a generator and
 * promises per request, and nearly every body is one chunk. Past the limit it stops reading
 * (pauses the stream): the host then answers and closes the connection.
 */
export function readStreamCapped(
  stream: Readable,
  limit: number,
  timeout?: { ms: number; error: () => Error },
): Promise<Uint8Array | null> {
  return new Promise((resolve, reject) => {
    const parts: Uint8Array[] = [];
    let size = 0;
    // A body still arriving after `timeout.ms` is given up: a client trickling its body would
    // otherwise hold its connection for the whole request timeout.
    const timer = timeout
      ? setTimeout(() => {
          stop();
          stream.pause();
          reject(timeout.error());
        }, timeout.ms)
      : undefined;
    const stop = () => {
      clearTimeout(timer);
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('close', onClose);
      stream.off('error', onError);
    };
    const onData = (chunk: Uint8Array) => {
      parts.push(chunk);
      size += chunk.byteLength;
      if (size <= limit) return;
      stop();
      stream.pause();
      onEnd();
    };
    const onEnd = () => {
      stop();
      if (size === 0) resolve(null);
      else resolve(parts.length === 1 ? (parts[0] as Uint8Array) : Buffer.concat(parts, size));
    };
    const onError = (error: Error) => {
      stop();
      reject(error);
    };
    // Closed before its end: the client went away mid-body (a `for await` would throw too).
    const onClose = () => onError(new Error('the request closed before its body ended'));
    stream.on('data', onData);
    stream.on('end', onEnd);
    stream.on('close', onClose);
    stream.on('error', onError);
  });
}

/**
 * Whether request headers announce a body: an HTTP/1.1 request without Content-Length or
 * Transfer-Encoding has none, so a host need not start reading a stream that can only be empty.
 */
export function announcesBody(headers: Record<string, string | string[] | undefined>): boolean {
  return headers['content-length'] !== undefined || headers['transfer-encoding'] !== undefined;
}
